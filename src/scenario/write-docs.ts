/** `npm run docs`: rewrites the generated scenario reference and JSON Schema in docs/. */
import { writeFileSync } from 'node:fs';
import { scenarioFormatMarkdown } from './format-docs.js';
import { scenarioJsonSchema } from './json-schema.js';

writeFileSync('docs/scenario-format.md', scenarioFormatMarkdown());
writeFileSync('docs/scenario.schema.json', JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
console.log('wrote docs/scenario-format.md and docs/scenario.schema.json');
