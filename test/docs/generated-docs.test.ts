// The scenario reference and JSON Schema in docs/ are generated from the schema; this
// fails when someone changes the schema and forgets `npm run docs`.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { editorSchema, measuresReference, scenarioFormatMarkdown, withMeasuresReference } from '../../src/cli/docs.js';

describe('generated docs', () => {
  it('scenarioFormatMarkdown() matches docs/scenario-format.md (run `npm run docs` if not)', () => {
    expect(readFileSync('docs/scenario-format.md', 'utf8')).toBe(scenarioFormatMarkdown());
  });

  it('scenarioJsonSchema() matches docs/scenario.schema.json (run `npm run docs` if not)', () => {
    expect(JSON.parse(readFileSync('docs/scenario.schema.json', 'utf8'))).toEqual(editorSchema());
  });

  it('docs/measures.md holds the measures table of the registry (run `npm run docs` if not)', () => {
    const doc = readFileSync('docs/measures.md', 'utf8');
    expect(doc).toContain(measuresReference());
    expect(withMeasuresReference(doc)).toBe(doc);
  });

  it('scenarioFormatMarkdown() gives every key a meaning', () => {
    // A key row is "| `key` | type | default | meaning |"; the meaning may end in limits ("(min 1)").
    const rows = scenarioFormatMarkdown().split('\n').filter((l) => l.startsWith('| `'));
    const cells = (row: string) => row.slice(2, -2).split(/(?<!\\)\|/).map((c) => c.trim());
    const empty = rows.filter((r) => cells(r)[3].replace(/^\((min|max|at least) .*\)$/, '') === '');
    expect(rows.length).toBeGreaterThan(100);
    expect(empty).toEqual([]);
  });

  it('scenarioFormatMarkdown() names the key that chooses among a union\'s options', () => {
    const md = scenarioFormatMarkdown();
    expect(md).not.toContain('kind: ?');
    expect(md).toContain('### `algorithm: token-bucket`');
  });

  it('scenarioFormatMarkdown() documents every population key and fault kind', () => {
    const md = scenarioFormatMarkdown();
    for (const key of ['`arrivals`', '`retry`', '`maxAttempts`', '`timeout`', '`backoff`', '`serviceTime`', 'kind: dependency-down', 'kind: capacity-cut', 'kind: diurnal', 'kind: empirical']) {
      expect(md).toContain(key);
    }
  });
});
