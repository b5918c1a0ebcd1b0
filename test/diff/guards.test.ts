// Guards on change as a scenario writes them: read with the expectations, refused with a
// positioned message when they cannot mean anything, and judged against a base's values.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { resolveMeasureReferences } from '../../src/experiment/expectations.js';
import { MEASURES } from '../../src/measures/registry.js';
import { checkGuards, guardStatus } from '../../src/results/diff/guards.js';
import type { Results } from '../../src/results/results.js';

const scenario = (expectation: string) => `name: s
horizon: 10m
clients:
  app: { arrivals: { kind: constant, rate: 10/s } }
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
expectations:
  - ${expectation}
`;

function problems(expectation: string): string[] {
  try {
    resolveMeasureReferences(loadScenario(scenario(expectation), 's.yaml'), MEASURES);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

const resolved = (expectation: string) => resolveMeasureReferences(loadScenario(scenario(expectation), 's.yaml'), MEASURES).expectations;

describe('guards on change in a scenario', () => {
  it('reads a percentage (unquoted 10% is a YAML string) and an amount in the measure\'s unit', () => {
    const [e] = resolved('{ variant: base, recoveryTimeS: { worsenBy: { atMost: 10% } }, successRatio: { worsenBy: { atMost: 0.02 } }, perceivedOutageS: { atMost: 5m, worsenBy: { atMost: 30s } } }');
    expect(e.guards.map((g) => [g.measure.key, g.relative, g.absolute])).toEqual([
      ['recoveryTimeS', 0.1, undefined], ['successRatio', undefined, 0.02], ['perceivedOutageS', undefined, 30],
    ]);
    expect(e.bounds).toHaveLength(1);
  });

  it('refuses what cannot be a guard, at its position', () => {
    expect(problems('{ variant: base, recoveryTimeS: { worsenBy: { atMost: ten% } } }')).toEqual([
      's.yaml:7:51 expectations[0].recoveryTimeS.worsenBy.atMost: expected a percentage of 0% or more, such as "10%" (got "ten%")',
    ]);
    expect(problems('{ variant: base, recoveryTimeS: { worsenBy: { atMost: 30 } } }')).toEqual([
      's.yaml:7:51 expectations[0].recoveryTimeS.worsenBy.atMost: recoveryTimeS is in seconds: write the bound with a unit, e.g. "30s", or a percentage of the base\'s value such as "10%"',
    ]);
    expect(problems('{ variant: base, attempts: { worsenBy: { atMost: 10% } } }')[0]).toMatch(/^s\.yaml:7:\d+ expectations\[0\]\.attempts\.worsenBy\.atMost: attempts has no better direction/);
    expect(problems('{ variant: base, recoveryTimeS: { worsenBy: { atLeast: 10% } } }')[0]).toMatch(/^s\.yaml:7:\d+ expectations\[0\]\.recoveryTimeS\.worsenBy/);
  });
});

/** Results with one variant and point, whose recovery time and success ratio are given. */
function results(recovery: number | null, success: number): Results {
  const m = (value: number | null) => ({ value, lo: null, hi: null });
  return {
    variants: [{ name: 'base', description: null, points: [{ point: 0, values: {}, runs: 3, measures: { recoveryTimeS: m(recovery), successRatio: m(success) }, attemptsHistogram: [], populations: [], routes: [], quotas: [], faults: [], perSeed: [] }] }],
  } as unknown as Results;
}

describe('a guard judged against the base', () => {
  const guards = resolved('{ variant: base, recoveryTimeS: { worsenBy: { atMost: 10% } }, successRatio: { worsenBy: { atMost: 0.02 } } }');
  const judge = (b: Results, h: Results) => checkGuards(guards, b, h).map((g) => [g.measure, g.passed, g.actual]);

  it('passes up to the stated amount and fails beyond it, in the measure\'s better direction', () => {
    expect(judge(results(100, 0.9), results(110, 0.88))).toEqual([
      ['recoveryTimeS', true, '1m40s -> 1m50s: 10s worse (+10.0% worse)'],
      ['successRatio', true, '90% -> 88%: 2 percentage points worse (+2.2% worse)'],
    ]);
    expect(judge(results(100, 0.9), results(111, 0.87)).map((x) => x[1])).toEqual([false, false]);
    expect(judge(results(100, 0.9), results(50, 0.99)).map((x) => x.slice(1))).toEqual([[true, '1m40s -> 50s: better'], [true, '90% -> 99%: better']]);
  });

  it('says a share\'s amounts in percentage points, and its percentages as of the base\'s value (both read "2%")', () => {
    const points = resolved('{ variant: base, successRatio: { worsenBy: { atMost: 0.02 } } }');
    const percent = resolved('{ variant: base, successRatio: { worsenBy: { atMost: 2% } } }');
    expect(checkGuards(points, results(100, 0.9), results(100, 0.88))[0].name).toBe('base: success worsens by at most 2 percentage points');
    expect(checkGuards(percent, results(100, 0.9), results(100, 0.88))[0].name).toBe('base: success worsens by at most 2% of the base\'s value');
  });

  it('says a guard the base cannot be compared on is not compared, not that it passed (it does not fail the check)', () => {
    const other = { variants: [{ ...results(100, 0.9).variants[0], name: 'other' }] } as unknown as Results;
    const [g] = checkGuards(guards, other, results(100, 0.9));
    expect([g.compared, g.passed, guardStatus(g), g.actual]).toEqual([false, true, 'NOT COMPARED', 'the base has no variant base']);
    expect(guardStatus(checkGuards(guards, results(100, 0.9), results(100, 0.9))[0])).toBe('PASS');
  });

  it('fails when the head stops recovering, and passes when it starts', () => {
    expect(judge(results(100, 0.9), results(null, 0.9))[0]).toEqual(['recoveryTimeS', false, '1m40s -> not recovered: got worse without bound']);
    expect(judge(results(null, 0.9), results(100, 0.9))[0]).toEqual(['recoveryTimeS', true, 'not recovered -> 1m40s: better']);
  });
});
