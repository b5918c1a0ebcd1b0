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

// Strict, but for the editor keywords yaml-language-server reads (errorMessage,
// patternErrorMessage), and for "required" inside not/oneOf ("give a or b, not both"),
// which names keys declared by the enclosing object.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, keywords: ['errorMessage', 'patternErrorMessage'] });
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
    const schema = scenarioJsonSchema() as { properties: { horizon: Record<string, unknown> } };
    expect(schema.properties.horizon.patternErrorMessage).toBe('A duration needs a unit, in lowercase: "250ms", "30s", "12m", "1h30m", "1d".');
  });
});
