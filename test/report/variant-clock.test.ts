/**
 * A variant whose overlay sets its own horizon and bucket width (signup-flood's
 * manual-switch-4h: 4h30m in 1m buckets beside the others' 1h in 10s): its time series, its
 * fault windows and the settings are read on its own clock. The report read every variant on
 * the scenario's: the long variant's counts were divided by 10 s buckets (6x too high), only
 * its first hour was drawn, five points in six were gaps, and its settings said 1h.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentFolder, cleanupFixtures, type Fixture } from './fixtures.js';
import { prepareSeries } from '../../src/report/html/series.js';
import { planReport } from '../../src/report/html/plan.js';
import { keySettings } from '../../src/report/html/settings.js';
import { summaryMarkdown } from '../../src/report/markdown.js';

const YAML = `
name: clocks
horizon: 10m
measures: { bucket: 10s }
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 1 }
server: { slots: 10, serviceTime: { kind: constant, value: 10ms } }
faults:
  - { kind: capacity-cut, at: 2m, duration: 1m, slots: 5 }
variants:
  short: {}
  long:
    overlay:
      horizon: 30m
      measures: { bucket: 1m, hold: 3m }
      faults: [{ kind: capacity-cut, at: 2m, duration: 25m, slots: 5 }]
`;

let f: Fixture;
beforeAll(async () => {
  f = await experimentFolder(YAML, 'rs-clocks-');
});
afterAll(cleanupFixtures);

describe('a variant with a horizon and buckets of its own', () => {
  it('is recorded in summary.json only where it differs from the scenario', () => {
    const [short, long] = f.bundle.results.variants;
    expect([short.horizonS, short.bucketS]).toEqual([undefined, undefined]);
    expect([long.horizonS, long.bucketS]).toEqual([1800, 60]);
    // Its own hold too, which the verdict reads beside its horizon (src/report/verdict.ts).
    expect([short.holdS, long.holdS]).toEqual([undefined, 180]);
  });

  it('draws its series over its own horizon, its counts per second of its own buckets', () => {
    const s = prepareSeries(f.bundle, 0)!;
    const long = s.variants.find((v) => v.variant === 'long')!;
    const short = s.variants.find((v) => v.variant === 'short')!;
    // 30 one-minute points, every one with a value; the short variant's 60 ten-second points.
    expect(long.data.t).toHaveLength(30);
    expect(long.data.t[29]).toBe(29 * 60);
    expect(long.data.first_tries.every((x) => x !== null)).toBe(true);
    expect(short.data.t).toHaveLength(60);
    // About 20 first tries a second over the first 2 minutes in both, not 120 in the long one (60 s of them over 10 s).
    const mean = (xs: Array<number | null>) => xs.reduce((a: number, x) => a + (x ?? 0), 0) / xs.length;
    expect(mean(long.data.first_tries.slice(0, 2))).toBeGreaterThan(18.5);
    expect(mean(long.data.first_tries.slice(0, 2))).toBeLessThan(21.5);
    expect(mean(short.data.first_tries.slice(0, 12))).toBeGreaterThan(18.5);
    expect(mean(short.data.first_tries.slice(0, 12))).toBeLessThan(21.5);
  });

  it('spans the longest horizon on the time axis, with each variant\'s fault window to its own end', () => {
    const plan = planReport(f.bundle);
    const faults = plan.datasets.faults as Array<{ variant: string; start: number; end: number }>;
    const long = faults.find((x) => x.variant === 'long')!;
    const time = plan.ctx.time;
    expect(long.end * time.divisor).toBe(27 * 60);
    expect(time.domain[1] * time.divisor).toBe(30 * 60);
  });

  it('says its own horizon in the settings and in summary.md', () => {
    const settings = keySettings(f.bundle.results);
    expect(settings).toContainEqual({ label: 'horizon', value: '10m simulated per run, in 10s buckets' });
    expect(settings).toContainEqual({ label: 'horizon (long)', value: '30m simulated per run, in 1m buckets' });
    expect(summaryMarkdown(f.bundle)).toContain('10m simulated per run (long: 30m),');
  });
});
