/**
 * Expectations on one tier of a service graph (`tier: db` with the per-tier measures of
 * src/measures/tiers.ts): what the keys resolve to, the positioned problems when the tier
 * or the measure does not fit, and the check itself on what a small graph simulated.
 * The runs are on the test's own thread (workers 0): the thread pool is not what is tested
 * here, and under vitest each pool's threads load the sources through tsx (about 1.2 s of CPU).
 */
import { describe, expect, it } from 'vitest';
import { checkExpectations, resolveMeasureReferences } from '../../src/experiment/expectations.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { MEASURES } from '../../src/measures/registry.js';
import { loadScenario } from '../../src/scenario/load.js';
import { measureReferenceProblems } from '../helpers/positioned-problems.js';
import { checkGuards } from '../../src/results/diff/guards.js';
import { bundleOf } from '../../src/results/bundle.js';

// Users -> server -> db; the db fails every call for 20 s and the server's call retries 3
// times, so at the db the peak reaches about 3 attempts per user action; `once` does not retry.
const GRAPH = `
name: t
horizon: 2m
seeds: 1
measures: { bucket: 10s, warmup: 10s }
clients:
  users: { arrivals: { kind: constant, rate: 20/s }, retry: { maxAttempts: 1, timeout: 2s } }
server:
  slots: 100
  serviceTime: { kind: constant, value: 5ms }
  routes:
    default:
      services: [{ service: db, retry: { maxAttempts: 3, timeout: 500ms, backoff: { kind: constant, base: 10ms } } }]
services:
  db: { slots: 20, serviceTime: { kind: constant, value: 5ms } }
faults: [{ kind: dependency-down, service: db, at: 40s, duration: 20s }]
variants:
  retrying: {}
  once: { overlay: { server: { routes: { default: { services: [{ service: db, retry: { maxAttempts: 1, timeout: 500ms } }] } } } } }
`;

const SINGLE = `
name: s
horizon: 1m
clients: { users: { arrivals: { kind: constant, rate: 5/s } } }
server: { slots: 4, serviceTime: { kind: constant, value: 10ms } }
variants: { v: {} }
`;

const problems = (source: string, lines: string) => measureReferenceProblems(source + 'expectations:\n' + lines, 't.yaml');

describe('expectations on a tier', () => {
  it('resolve a per-tier measure under tier, in its unit, with the tier as the scope', () => {
    const loaded = loadScenario(GRAPH + 'expectations:\n  - { variant: retrying, tier: db, tierPeakAmplification: { atLeast: 2 }, tierSuccess: { atLeast: 0.5 }, tierQueueWaitS: { atMost: 1s } }\n', 't.yaml');
    const [e] = resolveMeasureReferences(loaded, MEASURES).expectations;
    expect(e.scope).toEqual({ tier: 'db' });
    expect(e.bounds.map((b) => [b.measure.key, b.kind, b.limit])).toEqual([
      ['tierPeakAmplification', 'atLeast', 2],
      ['tierSuccess', 'atLeast', 0.5],
      ['tierQueueWaitS', 'atMost', 1],
    ]);
  });

  it('refuse, positioned, what does not fit: an unknown tier, a users\' measure on a tier, a tier measure without one, two scopes, a single server', () => {
    // The first expectation is on the line after GRAPH's and "expectations:"; a column is where `at` starts in it.
    const line = GRAPH.split('\n').length + 1;
    const where = (text: string, at: string) => `t.yaml:${line}:${text.indexOf(at) + 1}`;
    const unknownTier = '  - { variant: retrying, tier: dbb, tierAmplification: { atMost: 2 } }';
    expect(problems(GRAPH, unknownTier)).toEqual([
      `${where(unknownTier, 'dbb')} expectations[0].tier: variant "retrying" has no tier named "dbb" (did you mean "db"?) (its tiers: server, db; the edge is "server")`,
    ]);
    const usersMeasure = '  - { variant: retrying, tier: db, recoveryTimeS: { atMost: 1m } }';
    expect(problems(GRAPH, usersMeasure)).toEqual([
      `${where(usersMeasure, 'recoveryTimeS')} expectations[0].recoveryTimeS: recoveryTimeS is not measured per tier (those are: tierAmplification, tierPeakAmplification, tierPeakLoadMultiple, tierRetryShare, tierSuccess, tierQueueWaitS, tierWastedWorkShare); without tier it is the users' or the edge server's`,
    ]);
    const typo = '  - { variant: retrying, tier: db, tierAmplificaton: { atMost: 2 } }';
    expect(problems(GRAPH, typo)).toEqual([
      `${where(typo, 'tierAmplificaton')} expectations[0].tierAmplificaton: "tierAmplificaton" is not a measure (did you mean "tierAmplification"?); the per-tier measures are listed in docs/measures.md`,
    ]);
    const noTier = '  - { variant: retrying, tierAmplification: { atMost: 2 } }';
    expect(problems(GRAPH, noTier)).toEqual([
      `${where(noTier, 'tierAmplification')} expectations[0].tierAmplification: tierAmplification is measured per tier of a service graph: add tier: server (the edge) or a service's name`,
    ]);
    expect(problems(GRAPH, '  - { variant: retrying, population: users, tier: db, tierAmplification: { atMost: 2 } }')[0]).toMatch(
      /expectations\[0\]: give one of population, route or tier: a tier is measured whoever calls it$/,
    );
    expect(problems(SINGLE, '  - { variant: v, tier: server, tierAmplification: { atMost: 2 } }')[0]).toMatch(
      /expectations\[0\]\.tier: variant "v" has no services, so no tiers to check/,
    );
  });

  it('check the tier\'s folded value: the retrying call passes its bound at the db and fails the one the single try meets', async () => {
    const expectations = `expectations:
  - { variant: retrying, tier: db, tierPeakAmplification: { atLeast: 2.5 } }
  - { variant: once, tier: db, tierPeakAmplification: { atLeast: 2.5 } }
  - { variant: once, tier: server, tierAmplification: { atMost: 1.5 } }
`;
    const x = await runExperiment(loadScenario(GRAPH + expectations, 't.yaml'), { workers: 0 });
    const peak = (v: string) => x.variants.find((a) => a.name === v)!.points[0].tiers!.find((t) => t.name === 'db')!.measures.tierPeakAmplification.value!;
    // Every call in the outage fails at once, so the server's layer makes all 3 tries within a bucket.
    expect(peak('retrying')).toBeGreaterThan(2.9);
    expect(peak('retrying')).toBeLessThanOrEqual(3);
    expect(peak('once')).toBeCloseTo(1, 6);
    expect(x.expectations.map((r) => [r.name, r.passed])).toEqual([
      ['retrying: peak amplification (tier db) at least 2.5', true],
      ['once: peak amplification (tier db) at least 2.5', false],
      ['once: amplification (tier server) at most 1.5', true],
    ]);
    expect(x.expectations[1].value).toBeCloseTo(peak('once'), 9);
    // The same check, from the aggregates alone (what `diff` and a merge run).
    const again = checkExpectations(resolveMeasureReferences(loadScenario(GRAPH + expectations, 't.yaml'), MEASURES).expectations, x.variants);
    expect(again.map((r) => r.passed)).toEqual([true, false, true]);
  });

  it('guard a tier against a base: the db\'s peak amplification may not grow by more than 10%', async () => {
    const guard = 'expectations:\n  - { variant: retrying, tier: db, tierPeakAmplification: { worsenBy: { atMost: 10% } } }\n';
    const head = loadScenario(GRAPH + guard, 't.yaml');
    // The base: the server's call tried once, as the `once` variant does.
    const base = loadScenario(GRAPH.replace('retry: { maxAttempts: 3, timeout: 500ms', 'retry: { maxAttempts: 1, timeout: 500ms') + guard, 't.yaml');
    const [h, b] = [bundleOf(await runExperiment(head, { workers: 0 })).results, bundleOf(await runExperiment(base, { workers: 0 })).results];
    const { expectations } = resolveMeasureReferences(head, MEASURES);
    const [worse] = checkGuards(expectations, b, h);
    expect(worse.name).toBe('retrying: peak amplification (tier db) worsens by at most 10%');
    expect(worse.base).toBeCloseTo(1, 6);
    expect(worse.head!).toBeGreaterThan(2.9);
    expect(worse.passed).toBe(false);
    expect(checkGuards(expectations, h, h).map((g) => [g.passed, g.worsening])).toEqual([[true, 0]]);
  });
});
