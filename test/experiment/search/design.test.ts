/**
 * The cliff search against curves whose crossing is known by construction: its interval must
 * cover the truth (at least 90% of 50 repetitions, the bar), it must spend fewer runs
 * than a grid reaching the same precision, and it must give the same answer whoever runs its
 * batches and in whatever order they finish.
 */
import { describe, expect, it } from 'vitest';
import { searchTippingPoint, settingsProblem, DEFAULT_DESIGN, type RunBatch, type Trial } from '../../../src/experiment/search/design.js';
import { fittedCrossing, isotonicFit } from '../../../src/experiment/search/isotonic.js';
import { wilsonInterval } from '../../../src/experiment/stats.js';
import { logistic, syntheticCliff, trueCrossing, uniform } from './synthetic.js';

const RANGE = { from: 60, to: 1800 };

describe('the cliff search on a synthetic cliff', () => {
  it('covers the true 50% crossing in at least 90% of 50 repetitions, each within the precision asked', async () => {
    let covered = 0, runs = 0;
    for (let rep = 0; rep < 50; rep++) {
      const centre = 200 + rep * 23; // crossings spread over 200..1327 s, off the coarse grid
      const r = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 400 }, syntheticCliff(rep, centre, 10));
      expect(r.crossing).toBe('within');
      expect(r.stoppedBy).toBe('precision');
      expect(r.interval.hi! - r.interval.lo!).toBeLessThanOrEqual(60);
      expect(r.estimate).toBeGreaterThanOrEqual(r.interval.lo!);
      expect(r.estimate).toBeLessThanOrEqual(r.interval.hi!);
      if (r.interval.lo! <= centre && centre <= r.interval.hi!) covered++;
      runs += r.runs;
    }
    expect(covered).toBeGreaterThanOrEqual(45);
    // Recorded in docs/search.md: 50 of 50 covered, about 79 runs each.
    expect(runs / 50).toBeLessThan(120);
  });

  it('covers the crossing of another level on a gentle curve, where values near it stay open', async () => {
    let covered = 0;
    for (let rep = 0; rep < 50; rep++) {
      const centre = 300 + rep * 17;
      const truth = trueCrossing(centre, 40, 0.8);
      const r = await searchTippingPoint({ ...RANGE, level: 0.8, precision: 120, budget: 600 }, syntheticCliff(1000 + rep, centre, 40));
      if (r.crossing === 'within' && (r.interval.lo ?? RANGE.from) <= truth && truth <= (r.interval.hi ?? RANGE.to)) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(45);
  });

  it('spends fewer runs than a grid reaching the same precision with the same per-value rule', async () => {
    // The grid: a value every `precision` seconds, each given looks of seeds until its side of
    // the level is decided at the same confidence, or it has the most seeds a value may get.
    const precision = 60;
    let searchRuns = 0, gridRuns = 0;
    for (let rep = 0; rep < 10; rep++) {
      const centre = 250 + rep * 97;
      const batch = syntheticCliff(rep, centre, 10);
      searchRuns += (await searchTippingPoint({ ...RANGE, level: 0.5, precision, budget: 400 }, batch)).runs;
      for (let x = RANGE.from; x <= RANGE.to; x += precision) {
        let k = 0, n = 0;
        while (n < DEFAULT_DESIGN.maxSeedsPerValue) {
          const outcomes = await batch(Array.from({ length: DEFAULT_DESIGN.seedsPerLook }, (_, i) => ({ value: x, seedIndex: n + i })));
          k += outcomes.filter(Boolean).length;
          n += outcomes.length;
          const w = wilsonInterval(k, n, DEFAULT_DESIGN.decisionConfidence);
          if (w.lo > 0.5 || w.hi < 0.5) break;
        }
        gridRuns += n;
      }
    }
    // Measured: about 78 runs a search against about 257 for the grid (30 values, most decided in 2 looks).
    expect(searchRuns).toBeLessThan(gridRuns / 2);
  });

  it('gives the same search whatever order the batch\'s runs finish in', async () => {
    const straight: Trial[][] = [];
    const a = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 30, budget: 300 }, syntheticCliff(7, 700, 20, straight));
    // The same trials answered in reverse completion order, each after its own delay.
    const shuffled: RunBatch = async (trials) => {
      const answers = new Array<boolean>(trials.length);
      await Promise.all(trials.map((t, i) => new Promise<void>((done) => setTimeout(() => {
        answers[i] = uniform(`7/${t.value}/${t.seedIndex}`) < logistic(t.value, 700, 20);
        done();
      }, (trials.length - i) % 3))));
      return answers;
    };
    const b = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 30, budget: 300 }, shuffled);
    expect(b).toEqual(a);
    // Every value's seeds are 0, 1, 2, … in order, never skipped nor repeated.
    const seen = new Map<number, number>();
    for (const t of straight.flat()) {
      expect(t.seedIndex).toBe(seen.get(t.value) ?? 0);
      seen.set(t.value, t.seedIndex + 1);
    }
    expect(a.tried.reduce((s, t) => s + t.runs, 0)).toBe(a.runs);
  });

  it('says when the crossing lies outside the range, and on which side', async () => {
    const survives = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 200 }, syntheticCliff(1, 5000, 10));
    expect(survives).toMatchObject({ crossing: 'above-range', estimate: null, interval: { lo: 1800, hi: null }, stoppedBy: 'range' });
    const fails = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 200 }, syntheticCliff(1, 10, 10));
    expect(fails).toMatchObject({ crossing: 'below-range', estimate: null, interval: { lo: null, hi: 60 }, stoppedBy: 'range' });
    // Both cost the coarse pass (5 values x 4 seeds) and one more look at the end that decides it.
    expect([survives.runs, fails.runs]).toEqual([24, 24]);
    expect(survives.tried.find((t) => t.value === 1800)).toMatchObject({ runs: 8, recovered: 8, side: 'before' });
  });

  it('finds a rising curve (more capacity, more recoveries) and reads its direction from the coarse pass', async () => {
    const rising: RunBatch = async (trials) => trials.map((t) => uniform(`r/${t.value}/${t.seedIndex}`) < 1 - logistic(t.value, 900, 10));
    const r = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 400 }, rising);
    expect(r.direction).toBe('rising');
    expect(r.interval.lo!).toBeLessThanOrEqual(900);
    expect(r.interval.hi!).toBeGreaterThanOrEqual(900);
  });

  it('asks directionFrom after the coarse pass, with the tallies at both ends, and searches in the direction it answers', async () => {
    // A variant that recovers everywhere shows no direction of its own; read alone it was
    // falling, and "recovers at every value up to the top" turned a rising parameter around.
    const always: RunBatch = async (trials) => trials.map(() => true);
    const asked: Array<[number, number, number, number]> = [];
    const r = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 200, directionFrom: async (bottom, top) => {
      asked.push([bottom.value, bottom.runs, top.value, top.runs]);
      return 'rising';
    } }, always);
    expect(asked).toEqual([[60, 4, 1800, 4]]);
    expect(r).toMatchObject({ direction: 'rising', crossing: 'below-range', interval: { lo: null, hi: 60 } });
    // Without it, the same runs read as falling: recovering at every value up to the top.
    const alone = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 200 }, always);
    expect(alone).toMatchObject({ direction: 'falling', crossing: 'above-range' });
  });

  it('stops at its budget, and reports the bracket it had', async () => {
    const r = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 1, budget: 60 }, syntheticCliff(3, 640, 40));
    expect(r.stoppedBy).toBe('budget');
    expect(r.runs).toBe(60);
    expect(r.interval.hi! - r.interval.lo!).toBeGreaterThan(1);
  });

  it('gives no estimate when the budget ends before any value is decided and the fit never crosses the level', async () => {
    // Every run recovers, and the least budget (the coarse pass) decides no value: the
    // estimate was the middle of the range, a tipping point no run showed.
    const always: RunBatch = async (trials) => trials.map(() => true);
    const r = await searchTippingPoint({ ...RANGE, level: 0.5, precision: 60, budget: 20 }, always);
    expect(r).toMatchObject({ crossing: 'within', estimate: null, interval: { lo: null, hi: null }, stoppedBy: 'budget' });
    expect(r.tried.every((t) => t.recovered === t.runs)).toBe(true);
  });

  it('refuses settings it cannot honour, saying what would be right', () => {
    expect(settingsProblem({ from: 10, to: 5, level: 0.5, precision: 1, budget: 100 })).toMatch(/smaller value to a larger/);
    expect(settingsProblem({ from: 0, to: 5, level: 1, precision: 1, budget: 100 })).toMatch(/strictly between 0 and 1/);
    expect(settingsProblem({ from: 0, to: 5, level: 0.5, precision: 0, budget: 100 })).toMatch(/precision must be above 0/);
    expect(settingsProblem({ from: 0, to: 5, level: 0.5, precision: 1, budget: 10 })).toMatch(/at least 20 \(the coarse pass/);
    expect(settingsProblem({ from: 0, to: 5, level: 0.5, precision: 1, budget: 20 })).toBeUndefined();
  });
});

describe('the monotone fit', () => {
  it('pools adjacent violators, weighted by runs', () => {
    const tallies = [
      { value: 1, recovered: 9, runs: 10 },
      { value: 2, recovered: 2, runs: 4 },
      { value: 3, recovered: 3, runs: 4 }, // 0.75 after 0.5: pooled with its neighbour to 5/8
      { value: 4, recovered: 0, runs: 10 },
    ];
    expect(isotonicFit(tallies, 'falling')).toEqual([0.9, 0.625, 0.625, 0]);
    expect(isotonicFit(tallies, 'rising')).toEqual([14 / 28, 14 / 28, 14 / 28, 14 / 28]);
  });

  it('crosses the level by linear interpolation between tried values, or not at all', () => {
    const tallies = [{ value: 0, recovered: 8, runs: 10 }, { value: 10, recovered: 2, runs: 10 }];
    expect(fittedCrossing(tallies, 'falling', 0.5)).toBeCloseTo(5, 12);
    expect(fittedCrossing(tallies, 'falling', 0.7)).toBeCloseTo(10 / 6, 12);
    expect(fittedCrossing(tallies, 'falling', 0.1)).toBeNull();
    expect(fittedCrossing([{ value: 0, recovered: 0, runs: 4 }, { value: 1, recovered: 4, runs: 4 }], 'rising', 0.5)).toBeCloseTo(0.5, 12);
  });
});
