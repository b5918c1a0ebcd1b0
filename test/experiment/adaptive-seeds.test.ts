/**
 * `seeds: auto`: the looks (start, doubling, capped at max), the confidence each judges at,
 * where a look puts its seeds (only the pairs the ranking left undecided, the best-ranked
 * first, within the budget), the error rate the rule states (measured over many draws with
 * no real difference), and whole experiments: determinism whatever the workers, fewer runs
 * than fixed seeds, and why each cell got its seeds.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { SeedPlan, lookConfidence, seedLevels, seedingOf } from '../../src/experiment/adaptive-seeds.js';
import { judge, PAIRED_CONFIDENCE } from '../../src/experiment/paired.js';
import type { PointAggregate } from '../../src/experiment/aggregate.js';
import type { Ranking, RankedPoint } from '../../src/experiment/ranking.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { buildResults } from '../../src/results/build.js';
import { aggregatePoint } from '../helpers/aggregates.js';
import { summaryText } from '../helpers/outputs.js';
import { writeOutputs } from '../../src/report/write.js';
import { mergeDirs } from '../../src/experiment/merge.js';
import { JournalWriter, parseJournal } from '../../src/experiment/runs-journal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEASURES, type MeasureValues } from '../../src/measures/registry.js';

describe('the looks of seeds: auto', () => {
  it('double from the start up to the max, and each judges at 1 - 5% / looks', () => {
    expect(seedLevels({ start: 2, max: 8 })).toEqual([2, 4, 8]);
    expect(seedLevels({ start: 3, max: 10 })).toEqual([3, 6, 10]);
    expect(seedLevels({ start: 5, max: 5 })).toEqual([5]);
    expect(lookConfidence({ start: 2, max: 8 })).toBeCloseTo(1 - 0.05 / 3, 12);
    expect(lookConfidence({ start: 5, max: 5 })).toBe(PAIRED_CONFIDENCE);
  });
});

/** A ranked point with its entries in order and the given undecided pairs. */
function rankedPoint(point: number, order: string[], undecided: RankedPoint['undecided']): RankedPoint {
  return { point, values: {}, pairedSeeds: 2, undecided, entries: order.map((variant, i) => ({ variant, rank: i + 1, gate: null }) as RankedPoint['entries'][number]) };
}
const ranking = (...points: RankedPoint[]): Ranking => ({ baseline: 'a', objectives: [], weights: [], confidence: 0.95, points });

describe('a look', () => {
  it('raises both cells of each undecided pair to the next level, and nothing else', () => {
    const plan = new SeedPlan({ start: 2, max: 8 }, ['a', 'b', 'c', 'd'], [0]);
    const raised = plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c', 'd'], [{ above: 'b', below: 'd', on: ['recoveryTimeS'] }])));
    expect([...raised.values()]).toEqual([{ variant: 'b', point: 0, from: 2, to: 4 }, { variant: 'd', point: 0, from: 2, to: 4 }]);
    expect(['a', 'b', 'c', 'd'].map((v) => plan.seedsOf(v, 0))).toEqual([2, 4, 2, 4]);
    expect(plan.runs).toBe(12);
  });

  it('judges a pair at the level above the seeds it had in common when the look began', () => {
    // b is raised to 4 for its pair with a; its pair with c (2 in common) goes to 4, not 8.
    const plan = new SeedPlan({ start: 2, max: 8 }, ['a', 'b', 'c'], [0]);
    plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c'], [{ above: 'a', below: 'b', on: ['x'] }, { above: 'b', below: 'c', on: ['x'] }])));
    expect(['a', 'b', 'c'].map((v) => plan.seedsOf(v, 0))).toEqual([4, 4, 4]);
    // Next look: the pair still undecided goes to 8; at 8 (the max) nothing more is added.
    plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c'], [{ above: 'b', below: 'c', on: ['x'] }])));
    expect(['a', 'b', 'c'].map((v) => plan.seedsOf(v, 0))).toEqual([4, 8, 8]);
    expect(plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c'], [{ above: 'b', below: 'c', on: ['x'] }]))).size).toBe(0);
  });

  it('pays for the best-ranked pairs first and stops at the budget', () => {
    // 4 cells x 2 = 8 runs; a budget of 12 pays for one pair's look (4 runs), not two.
    const plan = new SeedPlan({ start: 2, max: 8, budget: 12 }, ['a', 'b', 'c', 'd'], [0]);
    plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c', 'd'], [{ above: 'c', below: 'd', on: ['x'] }, { above: 'a', below: 'b', on: ['x'] }])));
    expect(['a', 'b', 'c', 'd'].map((v) => plan.seedsOf(v, 0))).toEqual([4, 4, 2, 2]);
    expect(plan.runs).toBe(12);
    expect(plan.nextLook(ranking(rankedPoint(0, ['a', 'b', 'c', 'd'], [{ above: 'c', below: 'd', on: ['x'] }]))).size).toBe(0);
  });
});

describe('below a gate', () => {
  it('adds no seeds to a pair ranked below the top group, and says why', () => {
    const point = rankedPoint(0, ['a', 'b', 'c', 'd'], [{ above: 'c', below: 'd', on: ['x'] }]);
    point.entries[2].gate = 'recovered';
    point.entries[3].gate = 'recovered';
    const plan = new SeedPlan({ start: 2, max: 8 }, ['a', 'b', 'c', 'd'], [0]);
    expect(plan.nextLook(ranking(point)).size).toBe(0);
    const runs = ['a', 'b', 'c', 'd'].flatMap((variant, v) => [1, 2].map((seed) => ({ index: v * 2 + seed - 1, variant, point: 0, seed })));
    const cells = seedingOf({ start: 2, max: 8 }, ['a', 'b', 'c', 'd'], [0], runs, ranking(point), false).cells;
    expect(cells.map((c) => `${c.variant} ${c.seeds} ${c.reason}`)).toEqual(['a 2 decided', 'b 2 decided', 'c 2 gated', 'd 2 gated']);
  });

  it('names the rivals still undecided at the max, or past the budget', () => {
    const point = rankedPoint(0, ['a', 'b', 'c'], [{ above: 'a', below: 'b', on: ['x'] }]);
    const at = (n: number) => ['a', 'b', 'c'].flatMap((variant) => Array.from({ length: n }, (_, i) => ({ index: 0, variant, point: 0, seed: i + 1 })));
    const max = seedingOf({ start: 2, max: 4 }, ['a', 'b', 'c'], [0], at(4), ranking(point), false).cells;
    expect(max.map((c) => [c.reason, c.undecidedAgainst])).toEqual([['max', ['b']], ['max', ['a']], ['decided', []]]);
    const budget = seedingOf({ start: 2, max: 8, budget: 6 }, ['a', 'b', 'c'], [0], at(2), ranking(point), false).cells;
    expect(budget.map((c) => c.reason)).toEqual(['budget', 'budget', 'decided']);
    expect(seedingOf({ start: 2, max: 8 }, ['a', 'b', 'c'], [0], at(2), ranking(point), true).cells[0].reason).toBe('partial');
  });
});

describe('the error rate the rule states', () => {
  /** Two variants with no real difference: per seed a shared seed effect plus each one's own noise. */
  function nullPair(random: () => number, n: number): [PointAggregate, PointAggregate] {
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const seeds = Array.from({ length: n }, () => 100 + 30 * normal());
    const side = () => {
      const xs = seeds.map((s) => s + 5 * normal());
      const p = aggregatePoint({ healthyBeforeTrigger: 1, peakLoadMultiple: xs.reduce((a, b) => a + b, 0) / n }, { runs: n });
      p.perSeed = xs.map((x, i) => ({ seed: i + 1, measures: { peakLoadMultiple: x } as MeasureValues, actions: [] }));
      return p;
    };
    return [side(), side()];
  }
  /** The share of null pairs found different at some look, judging each look at `confidence`. */
  function falseDifferences(confidence: number, levels: number[], trials: number): number {
    const random = seedrandom('auto-seeds-null');
    // A measure with no tie tolerance, so the paired interval alone decides.
    const m = { ...MEASURES.get('peakLoadMultiple')!, tie: { relative: 0, absolute: 0 } };
    let found = 0;
    for (let t = 0; t < trials; t++) {
      const [a, b] = nullPair(random, levels[levels.length - 1]);
      const prefix = (p: PointAggregate, n: number): PointAggregate => {
        const perSeed = p.perSeed.slice(0, n);
        const mean = perSeed.reduce((s, x) => s + (x.measures.peakLoadMultiple as number), 0) / n;
        return { ...p, runs: n, perSeed, measures: { ...p.measures, peakLoadMultiple: { value: mean, lo: null, hi: null } } };
      };
      if (levels.some((n) => judge(m, prefix(a, n), prefix(b, n), confidence).side !== null)) found++;
    }
    return found / trials;
  }

  it('finds a difference that is not there in at most 5% of pairs over all its looks', () => {
    const levels = seedLevels({ start: 2, max: 8 });
    const rate = falseDifferences(lookConfidence({ start: 2, max: 8 }), levels, 4000);
    // 5% at most, with room for the draws' own noise (sd about 0.35 points at 4000 trials).
    expect(rate).toBeLessThan(0.05 + 0.01);
    expect(rate).toBeGreaterThan(0.01); // not a rule that never decides
    // Judging every look at 95% instead would break the stated rate: that is why the looks share it.
    expect(falseDifferences(PAIRED_CONFIDENCE, levels, 4000)).toBeGreaterThan(0.07);
  });
});

const SCENARIO = `
name: auto-seeds
horizon: 20m
seed: 1
seeds: auto
measures: { bucket: 10s, hold: 1m }
clients:
  app:
    clients: 5000
    arrivals: { kind: constant, rate: 20/s }
    layers:
      app: { maxAttempts: 3, timeout: 10s, backoff: { kind: exponential, base: 1s, max: 8s, jitter: full }, retryOn: [timeout, reset, 5xx] }
server:
  slots: 8
  queue: 200
  serviceTime: { kind: lognormal, mean: 250ms, p99: 1s }
faults:
  - kind: dependency-down
    at: 5m
    duration: 3m
variants:
  as-is: {}
  fewer: { overlay: { clients: { app: { layers: { app: { maxAttempts: 2 } } } } } }
  one: { overlay: { clients: { app: { layers: { app: { maxAttempts: 1 } } } } } }
  more-slots: { overlay: { server: { slots: 10 } } }
`;

describe('an experiment with seeds: auto', () => {
  it('adds seeds only where the ranking was undecided, and gives the same runs whatever the workers', async () => {
    const loaded = loadScenario(SCENARIO, 'auto.yaml');
    const one = await runExperiment(loaded, { workers: 0 });
    const two = await runExperiment(loaded, { workers: 2 });
    expect(JSON.stringify(buildResults(two))).toBe(JSON.stringify(buildResults(one)));
    const s = one.seeding!;
    expect(s.levels).toEqual([2, 4, 8]);
    expect(one.ranking!.confidence).toBeCloseTo(1 - 0.05 / 3, 12);
    // Fewer runs than the max everywhere; each cell's seeds are a look's level, and its runs are there.
    expect(one.runs.length).toBeLessThan(4 * 8);
    for (const c of s.cells) {
      expect(s.levels).toContain(c.seeds);
      expect(one.runs.filter((r) => r.variant === c.variant).map((r) => r.seed)).toEqual(Array.from({ length: c.seeds }, (_, i) => 1 + i));
    }
    // A cell got more than the start seeds only for a pair the start seeds left undecided.
    expect(s.cells.some((c) => c.seeds > 2)).toBe(true);
    // The last look left nothing undecided that a look could still pay for.
    for (const c of s.cells) expect(['decided', 'max']).toContain(c.reason);
    expect(one.failures).toEqual([]);

    // merge folds its runs.json into the same result: the plan's settings travel with the runs.
    const dir = mkdtempSync(join(tmpdir(), 'auto-seeds-'));
    try {
      writeOutputs(one, dir);
      expect(summaryText(mergeDirs([dir]))).toBe(summaryText(one));
      // A killed run's journal holds each later look's runs before their results: merge reads them.
      const w = new JournalWriter({ runs: one.runs.slice(0, 8), seedsAuto: { start: 2, max: 8 }, source: loaded.source });
      const written = (line: string) => (w.wrote(line), line);
      const journal = [
        w.header,
        ...one.results.slice(0, 8).map((r, i) => written(w.record(i, r!))),
        written(w.more(one.runs.slice(8))),
        ...one.results.slice(8).map((r, i) => written(w.record(8 + i, r!))),
      ].join('');
      const parsed = parseJournal(journal, 'runs.ndjson');
      expect(parsed.runs).toEqual(one.runs);
      expect(parsed.seedsAuto).toEqual({ start: 2, max: 8 });
      expect(parsed.results.map((r) => r.index)).toEqual(one.runs.map((r) => r.index));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps to a fixed number of seeds when --seeds overrides the file', async () => {
    const x = await runExperiment(loadScenario(SCENARIO, 'auto.yaml'), { seeds: 1, workers: 1 });
    expect(x.runs.length).toBe(4);
    expect(x.seeding).toBeUndefined();
    expect(x.ranking!.confidence).toBe(PAIRED_CONFIDENCE);
  });

  it('refuses a budget that cannot pay for the start seeds, at its place in the file', () => {
    const text = SCENARIO.replace('seeds: auto', 'seeds: { auto: { start: 2, budget: 6 } }');
    expect(() => loadScenario(text, 'auto.yaml')).toThrow(ScenarioError);
    try {
      loadScenario(text, 'auto.yaml');
    } catch (e) {
      expect((e as Error).message).toMatch(/auto\.yaml:5:36 +seeds\.auto\.budget: a budget of 6 runs cannot pay for the start: 4 variant\(s\) x 1 sweep point\(s\) x 2 seed\(s\) = 8 runs/);
    }
  });

  it('refuses max below start, and a word that is not auto', () => {
    expect(() => loadScenario(SCENARIO.replace('seeds: auto', 'seeds: { auto: { start: 4, max: 2 } }'), 'auto.yaml')).toThrow(/max must be at least start/);
    expect(() => loadScenario(SCENARIO.replace('seeds: auto', 'seeds: many'), 'auto.yaml')).toThrow(/expected a whole number of seeds, "auto", or \{ auto: \{ start, max, budget \} \}/);
  });

  it('refuses to run one shard of it', async () => {
    await expect(runExperiment(loadScenario(SCENARIO, 'auto.yaml'), { shard: { index: 1, count: 2 } })).rejects.toThrow(/one shard does not have/);
  });
});
