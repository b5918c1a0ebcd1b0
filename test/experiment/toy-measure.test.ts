/**
 * A measure is one declaration: a toy measure defined here, and added to the registry alone,
 * is computed for every run, folded across seeds, written to summary.json, shown in the
 * terminal table and checked by an expectation that names it, with no other change.
 */
import { describe, expect, it } from 'vitest';
import { defineMeasure } from '../../src/measures/measure.js';
import { MEASURES } from '../../src/measures/registry.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import { summaryJson } from '../../src/results/summary-json.js';
import { summaryTable } from '../../src/report/table.js';

/** The share of the users' attempts that were first tries: 1 − retry share, read straight from the view. */
const firstTryShare = defineMeasure({
  key: 'firstTryShare',
  label: 'first tries',
  doc: "Share of the users' attempts that were first tries over the whole run.",
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  scope: 'users',
  headline: true,
  range: { min: 0, max: 1 },
  compute: (v) => {
    const sum = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0);
    const attempts = sum(v.users.attempts);
    return attempts > 0 ? sum(v.users.firstTries) / attempts : null;
  },
});

const SCENARIO = `
name: toy
horizon: 5m
seeds: 2
clients:
  app:
    arrivals: { kind: constant, rate: 30/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 4, serviceTime: { kind: exponential, mean: 100ms } }
faults: [{ kind: dependency-down, at: 2m, duration: 30s }]
expectations:
  - { variant: base, firstTryShare: { atLeast: 0.5 } }
  - { variant: base, firstTryShare: { atLeast: 0.999 } }
`;

describe('a toy measure added through the registry alone', () => {
  it('is in summary.json, the terminal table and expectations', async () => {
    const measures = MEASURES.with(firstTryShare);
    const x = await runExperiment(loadScenario(SCENARIO, 'toy.yaml'), { workers: 0, measures });
    const results = buildResults(x);

    // Computed for each seed, folded as a share across the two, declared with its unit.
    const p = results.variants[0].points[0];
    const perSeed = p.perSeed.map((s) => s.measures.firstTryShare!);
    expect(perSeed).toHaveLength(2);
    for (const share of perSeed) expect(share).toBeGreaterThan(0.5);
    for (const share of perSeed) expect(share).toBeLessThan(1); // the outage made retries
    expect(p.measures.firstTryShare.value).toBeCloseTo((perSeed[0] + perSeed[1]) / 2, 5);
    expect(p.measures.firstTryShare.lo).toBeLessThanOrEqual(p.measures.firstTryShare.value!);
    const json = JSON.parse(summaryJson(results));
    expect(json.measures.find((m: { key: string }) => m.key === 'firstTryShare')).toMatchObject({ unit: 'share', better: 'higher', headline: true });
    expect(json.variants[0].points[0].measures.firstTryShare.value).toBe(p.measures.firstTryShare.value);

    // A headline column of the table, in its unit.
    const table = summaryTable(results);
    expect(table.split('\n')[0]).toContain('first tries');
    expect(table).toMatch(/\d+(\.\d)?%\s*$/m);

    // Checked by the expectations that name it: one passes, one fails.
    expect(x.expectations.map((e) => [e.measure, e.check, e.passed])).toEqual([
      ['firstTryShare', 'first tries at least 50%', true],
      ['firstTryShare', 'first tries at least 99.9%', false],
    ]);
  });

  it('is refused by name without the registry that declares it', async () => {
    await expect(runExperiment(loadScenario(SCENARIO, 'toy.yaml'), { workers: 0 })).rejects.toThrow(/"firstTryShare" is not a measure/);
  });

  it('cannot go to a worker thread, where only the built-in measures exist', async () => {
    await expect(runExperiment(loadScenario(SCENARIO, 'toy.yaml'), { workers: 1, measures: MEASURES.with(firstTryShare) })).rejects.toThrow(/use workers 0/);
  });
});
