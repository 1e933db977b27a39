import { prepareTemplate, TEMPLATE_DATABASE } from './database.js';

const started = Date.now();
prepareTemplate().then(
  () => console.log(`test template ${TEMPLATE_DATABASE} migrated in ${Date.now() - started} ms`),
  (e: unknown) => {
    console.error('could not prepare the test template database:', e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
