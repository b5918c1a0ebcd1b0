// The shipped retry-after-spread scenario (story 000's 503 contract): after a synchronized
// reconnect burst, a fixed Retry-After brings every refused request back in the same
// instant, a wave every 30 s; spread per client (10s + hash(client) mod 50s) it comes back
// flat.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import { rankVariants } from '../../src/experiment/ranking.js';
import { aggregatePoint } from '../../src/experiment/aggregate.js';
import { MEASURES } from '../../src/measures/registry.js';

const loaded = loadScenarioFile('scenarios/retry-after-spread.yaml');
const run = (name: string): RunResult => {
  const v = loaded.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return runOne(v.scenario, name, 0, 1);
};

const BUCKET_S = 5;
const RECONNECT_S = 180;
const BURST = RECONNECT_S / BUCKET_S; // index of the burst bucket

const sum = (a: number[], from = 0, to = a.length) => a.slice(from, to).reduce((x, y) => x + y, 0);
/** Highest attempts per bucket after the burst bucket. */
const peakAfterBurst = (r: RunResult) => Math.max(...r.columns.attempts.slice(BURST + 1));
const bucketAt = (t: number) => t / BUCKET_S;

describe('scenarios/retry-after-spread.yaml', () => {
  const fixed = run('fixed');
  const spread = run('spread');
  const random = run('random');
  /** Steady traffic: 100/s, ~500 a bucket. */
  const steady = sum(fixed.columns.attempts, 0, bucketAt(120)) / bucketAt(120);

  it('the same burst in every variant: ~6,000 queued actions at once, 200 admitted, the rest 503', () => {
    expect(steady).toBeGreaterThan(450);
    expect(steady).toBeLessThan(550);
    for (const r of [fixed, spread, random]) {
      expect(r.columns.attempts[BURST]).toBe(fixed.columns.attempts[BURST]);
      expect(r.columns.attempts[BURST]).toBeGreaterThan(5500);
      expect(r.columns.fail_shed[BURST]).toBeGreaterThan(5000);
    }
    // The whole-run peak is that burst whatever the contract: it says nothing about the return.
    expect(spread.summary.measures.peakLoadMultiple).toBe(fixed.summary.measures.peakLoadMultiple);
  });

  it('fixed Retry-After: the refused requests return together, a wave every 30 s almost as tall as the burst', () => {
    const refused = fixed.columns.fail_shed[BURST];
    for (const t of [210, 240, 270]) {
      const b = bucketAt(t);
      expect(fixed.columns.attempts[b]).toBeGreaterThan(10 * steady);
      // Each wave is the previous one's refusals (all but ~200 admitted), in one instant.
      expect(fixed.columns.fail_shed[b]).toBeGreaterThan(0.9 * refused);
    }
    expect(fixed.columns.attempts[bucketAt(210)]).toBeGreaterThan(0.9 * (refused + steady));
    // Between waves, only the steady traffic.
    expect(Math.max(...fixed.columns.attempts.slice(BURST + 1, bucketAt(210)))).toBeLessThan(1.2 * steady);
  });

  it('Spread Retry-After turns a synchronized return wave into a flat one: the peak offered load after an outage falls by at least half compared with a fixed Retry-After', () => {
    const pFixed = peakAfterBurst(fixed);
    const pSpread = peakAfterBurst(spread);
    expect(pSpread).toBeLessThanOrEqual(0.5 * pFixed);
    // In fact to under a fifth: ~115/s of returns on top of 100/s, against the burst again.
    expect(pSpread).toBeLessThan(0.2 * pFixed);
    // The same in load multiples (declared baseline 100/s).
    const lm = (r: RunResult) => Math.max(...r.columns.load_multiple.slice(BURST + 1));
    expect(lm(spread)).toBeLessThan(2.5);
    expect(lm(fixed)).toBeGreaterThan(10);
  });

  it('spread: the returns land in [10s, 60s) after the burst, evenly, and are all admitted', () => {
    const refused = spread.columns.fail_shed[BURST];
    const from = bucketAt(RECONNECT_S + 10), to = bucketAt(RECONNECT_S + 60);
    const returned = sum(spread.columns.attempts, from, to) - steady * (to - from);
    expect(returned).toBeGreaterThan(0.95 * refused);
    expect(returned).toBeLessThan(1.05 * refused);
    for (let b = from; b < to; b++) {
      expect(spread.columns.attempts[b] - steady).toBeGreaterThan(0.7 * (refused / (to - from)));
      expect(spread.columns.attempts[b] - steady).toBeLessThan(1.3 * (refused / (to - from)));
    }
    // Nothing is refused after the burst, and the backlog is gone by 4m: steady traffic only.
    expect(sum(spread.columns.fail_shed, BURST + 1)).toBe(0);
    expect(Math.max(...spread.columns.attempts.slice(bucketAt(240)))).toBeLessThan(1.2 * steady);
    // Every refused action took exactly one more attempt.
    expect(spread.summary.measures.attemptsPerActionMax).toBe(2);
  });

  it('random Retry-After over the same range also flattens the return (not stable per client, but no wave)', () => {
    expect(peakAfterBurst(random)).toBeLessThan(0.2 * peakAfterBurst(fixed));
    expect(sum(random.columns.fail_shed, BURST + 1)).toBe(0);
  });

  it('ranks spread above fixed, decided by cost: both recover alike, spread sends far less excess load', () => {
    const variants = [fixed, spread, random].map((r) => ({
      name: r.variant,
      points: [aggregatePoint(MEASURES, 0, {}, [r], loaded.base.horizon)],
    }));
    const entries = rankVariants(variants, MEASURES, { compare: loaded.base.compare, parameters: [] })!.points[0].entries;
    const entry = (name: string) => entries.find((e) => e.variant === name)!;
    expect(entry('spread').rank).toBeLessThan(entry('fixed').rank);
    // Not by recovery: users see the same service either way.
    expect(entry('spread').values.recovered).toBe(entry('fixed').values.recovered);
    // The place below spread says which objective put it there: the users' tail, the first
    // thing users feel that tells them apart (the synchronised wave queues behind itself).
    expect(entry('fixed').decidedBy).toBe('actionLatencyP99S');
    expect(entry('spread').values.actionLatencyP99S!).toBeLessThan(entry('fixed').values.actionLatencyP99S!);
    expect(entry('spread').values.excessAttempts!).toBeLessThan(entry('fixed').values.excessAttempts! / 2);
  });
});
