/** `npm run docs`: rewrites the generated scenario reference, JSON Schema and measures table in docs/. */
import { readFileSync, writeFileSync } from 'node:fs';
import { editorSchema, scenarioFormatMarkdown, withMeasuresReference } from './docs.js';

writeFileSync('docs/scenario-format.md', scenarioFormatMarkdown());
writeFileSync('docs/scenario.schema.json', JSON.stringify(editorSchema(), null, 2) + '\n');
writeFileSync('docs/measures.md', withMeasuresReference(readFileSync('docs/measures.md', 'utf8')));
console.log('wrote docs/scenario-format.md, docs/scenario.schema.json and the measures table of docs/measures.md');
