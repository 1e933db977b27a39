/** `npm run config-doc`: writes docs/CONFIGURATION.md from every config section. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_DOC_PATH, renderConfiguration } from './config-sections.js';

writeFileSync(resolve(import.meta.dirname, '../..', CONFIG_DOC_PATH), renderConfiguration());
console.log(`wrote ${CONFIG_DOC_PATH}`);
