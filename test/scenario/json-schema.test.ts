// The JSON Schema is as strict as the loader where JSON Schema can say it: an independent
// validator (ajv) rejects every file of a corpus the loader rejects (overlay typos, sweep
// shapes, units, "either … or" rules), and accepts what the loader accepts (the shipped
// scenarios and a corpus of overlays that lean on merging: partial mappings, null removals).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { editorSchema as scenarioJsonSchema } from '../../src/cli/docs.js';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';

const CORPUS = join(import.meta.dirname, 'schema-corpus');
const files = (dir: string) => readdirSync(join(CORPUS, dir)).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(CORPUS, dir, f));
const shipped = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).map((f) => join('scenarios', f));

// ajv's strict mode, whole (strictTypes and strictRequired too), with the two editor keywords
// yaml-language-server reads (errorMessage, patternErrorMessage) declared, as strict mode asks
// of any keyword it does not know.
const EDITOR_KEYWORDS = ['errorMessage', 'patternErrorMessage'];
const ajv = new Ajv2020({ allErrors: true, strict: true, keywords: EDITOR_KEYWORDS });
const validate = ajv.compile(scenarioJsonSchema());

function loaderProblems(file: string): string[] {
  try {
    loadScenario(readFileSync(file, 'utf8'), file);
    return [];
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => p.message);
    throw e;
  }
}

describe('the JSON Schema against the loader', () => {
  it('has a corpus of at least 30 files the loader rejects', () => {
    expect(files('rejected').length).toBeGreaterThanOrEqual(30);
  });

  it.each(files('rejected').map((f) => [f.split('/').pop()!, f]))('rejects %s, as the loader does', (_name, file) => {
    expect(loaderProblems(file), 'the loader accepts it: it does not belong in rejected/').not.toEqual([]);
    expect(validate(parse(readFileSync(file, 'utf8')))).toBe(false);
  });

  it.each([...files('accepted'), ...shipped].map((f) => [f.split('/').pop()!, f]))('accepts %s, as the loader does', (_name, file) => {
    expect(loaderProblems(file)).toEqual([]);
    const ok = validate(parse(readFileSync(file, 'utf8')));
    expect(ok, JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('gives editors a readable message for a duration or a rate, not the regular expression', () => {
    const schema = scenarioJsonSchema() as { properties: { horizon: Record<string, unknown> }; $defs: Record<string, Record<string, unknown>> };
    const ref = schema.properties.horizon.$ref;
    const horizon = typeof ref === 'string' ? schema.$defs[ref.replace('#/$defs/', '')] : schema.properties.horizon;
    expect(horizon.patternErrorMessage).toBe('A duration needs a unit, in lowercase: "250ms", "30s", "12m", "1h30m", "1d".');
  });
});

describe('the published JSON Schema (docs/scenario.schema.json)', () => {
  const published = JSON.parse(readFileSync('docs/scenario.schema.json', 'utf8')) as Record<string, unknown>;

  it('compiles in ajv\'s strict mode, every strict check on (a refusal throws)', () => {
    const strict = new Ajv2020({ strict: true, keywords: EDITOR_KEYWORDS });
    expect(() => strict.compile(published)).not.toThrow();
    // The same with nothing declared fails only on the editor keywords, which strict mode asks to declare.
    expect(() => new Ajv2020({ strict: true }).compile(published)).toThrow(/unknown keyword: "(errorMessage|patternErrorMessage)"/);
  });

  it('writes each repeated part once, under $defs, and stays well under 1 MB', () => {
    const text = JSON.stringify(published);
    expect(text.length).toBeLessThan(300_000);
    // No subschema of 300 characters or more appears twice: every such part is a $ref to its definition.
    const seen = new Map<string, number>();
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      if (!Array.isArray(node)) {
        const t = JSON.stringify(node);
        if (t.length >= 300 && (node as Record<string, unknown>).type !== undefined) seen.set(t, (seen.get(t) ?? 0) + 1);
      }
      for (const v of Object.values(node)) visit(v);
    };
    visit(published);
    expect([...seen.values()].filter((n) => n > 1)).toEqual([]);
    expect(Object.keys(published.$defs as object).length).toBeGreaterThan(10);
  });
});
