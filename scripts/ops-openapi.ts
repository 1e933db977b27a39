/**
 * `npm run ops:openapi`: writes docs/ops-openapi.json, the operations API's OpenAPI document
 * (libs/operations/src/openapi.ts: its paths from the route registry, OPS_ROUTES, its request bodies
 * from the commands' zod schemas), the one GET /ops/openapi.json serves.
 * `node dist/scripts/ops-openapi.js --check` (a step of `npm test`) writes nothing and fails when
 * the checked-in file differs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { opsOpenApiText } from '#operations';

export const OPS_OPENAPI_PATH = 'docs/ops-openapi.json';

const file = resolve(import.meta.dirname, '../..', OPS_OPENAPI_PATH);
const text = opsOpenApiText();
if (process.argv.includes('--check')) {
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    console.error(
      `${OPS_OPENAPI_PATH} drifted from the route registry and its schemas (libs/operations/src/http/routes*.ts, openapi.ts): run \`npm run ops:openapi\``,
    );
    process.exitCode = 1;
  } else console.log(`${OPS_OPENAPI_PATH} is current`);
} else {
  writeFileSync(file, text);
  console.log(`wrote ${OPS_OPENAPI_PATH}`);
}
