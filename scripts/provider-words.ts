/**
 * `node dist/scripts/provider-words.js` (part of the architecture step of `npm test`, after
 * dependency-cruiser): fails when libs/pipeline names one of the provider's words or reads a
 * diagnostics wire code field (scripts/provider-words-check.ts; the words derive from the
 * connector's tables, issue 31).
 */
import { resolve } from 'node:path';
import { providerVocabulary, WIRE_CODE_FIELDS } from '#provider-client/testing';
import { pipelineSources, providerWordsIn } from './provider-words-check.js';

const root = resolve(import.meta.dirname, '../..');
const vocabulary = providerVocabulary();
const findings = providerWordsIn(pipelineSources(root), vocabulary, WIRE_CODE_FIELDS);
for (const f of findings) console.error(`${f.path}:${f.line}: ${f.why} ${JSON.stringify(f.word)}`);
if (findings.length > 0) {
  console.error(
    'libs/pipeline speaks the service terms only: ask the provider port (libs/provider-client) instead',
  );
  process.exitCode = 1;
} else {
  console.log(`libs/pipeline names none of the provider's ${vocabulary.size} words`);
}
