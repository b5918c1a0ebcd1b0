/**
 * Results folders written by hand, for report tests that must not wait for a simulation:
 * `oldShape` is summary.json as the first release wrote it (no intervals, sweep, faults,
 * expectations or ranking; no `point` column), `fullShape` has every optional field the adapter knows,
 * plus CSV columns no chart knows yet, so both ends of the format's history are rendered.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh temporary folder, removed by cleanupFixtures. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made; call from afterAll. */
export function cleanupFixtures(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const BASE_COLUMNS = [
  'attempts', 'first_tries', 'retries', 'attempts_ok', 'fail_timeout', 'fail_dependency', 'fail_queue_full', 'actions_started', 'actions_ok',
  'actions_failed', 'queue_len', 'busy_slots', 'slots', 'latency_p50_ms', 'latency_p99_ms', 'goodput_per_s', 'success_ratio', 'load_multiple',
  'retry_share', 'wasted_work_s',
];

export const SCENARIO_YAML = `# a fixture
name: fixture
question: Does it come back?
description: Two variants, one fault.
horizon: 20m
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 10/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 5, queue: unbounded, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - kind: dependency-down
    at: 5m
    duration: 2m
variants:
  retries:
    description: As shipped.
  no-retries:
    description: Never retry.
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
`;

function measures(storm: boolean) {
  return {
    baselineRate: 10,
    recovered: !storm,
    recoveryTimeS: storm ? null : 30,
    perceivedOutageS: storm ? 780 : 120,
    peakLoadMultiple: storm ? 3.5 : 1.02,
    peakRetryShare: storm ? 0.71 : 0,
    attemptsPerAction: { mean: storm ? 2.6 : 1, p99: storm ? 3 : 1, max: storm ? 3 : 1 },
    wastedWorkS: storm ? 5400 : 12,
    wastedWorkShare: storm ? 0.8 : 0.01,
    successRatio: storm ? 0.4 : 0.9,
  };
}

/** A CSV with `seeds` seeds per variant over `horizonS`, a storm in "retries" after 300 s. */
/** `point`: the sweep point index written in a `point` column, or null for a file without one (before sweeps). */
function csv(variants: string[], seeds: number, horizonS: number, bucketS: number, extra: string[], point: number | null): string {
  const cols = [...BASE_COLUMNS, ...extra];
  const lines = [['variant', ...(point !== null ? ['point'] : []), 'seed', 't_s', ...cols].join(',')];
  for (const v of variants) {
    for (let s = 1; s <= seeds; s++) {
      for (let t = 0; t < horizonS; t += bucketS) {
        const storm = v === 'retries' && t >= 300;
        const load = storm ? 3 + 0.5 * Math.sin(t / 50) + s * 0.01 : 1;
        const row: Record<string, number | ''> = Object.fromEntries(cols.map((c) => [c, 1]));
        Object.assign(row, {
          first_tries: 10 * bucketS, retries: storm ? 20 * bucketS : 0, load_multiple: load, success_ratio: storm ? 0.4 : 1,
          latency_p50_ms: storm ? '' : 100, latency_p99_ms: storm ? 1000 : 300, queue_len: storm ? 1000 : 0, busy_slots: storm ? 5 : 1, slots: 5,
        });
        lines.push([v, ...(point !== null ? [point] : []), s, t, ...cols.map((c) => row[c])].join(','));
      }
    }
  }
  return lines.join('\n') + '\n';
}

export function oldShape(): string {
  const dir = tempDir('rs-old-');
  const variants = ['retries', 'no-retries'];
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({
    scenario: 'fixture', question: 'Does it come back?', partial: false, horizonS: 1200, bucketS: 1, seeds: [1],
    measureSettings: { warmupS: 60, holdS: 120, successRatioDrop: 0.02, loadExcess: 0.2, perceivedOutageThreshold: 0.9 },
    variants: variants.map((name) => ({ name, runs: 1, recoveredFraction: name === 'retries' ? 0 : 1, ...measures(name === 'retries'), perSeed: [] })),
  }));
  writeFileSync(join(dir, 'timeseries.csv'), csv(variants, 1, 1200, 1, [], null));
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO_YAML);
  return dir;
}

export function fullShape(): string {
  const dir = tempDir('rs-full-');
  mkdirSync(dir, { recursive: true });
  const variants = ['retries', 'no-retries', 'short-queue'];
  const durations = ['1m', '5m', '10m'];
  const point = (name: string, i: number) => {
    const storm = name === 'retries' && i > 0;
    return {
      point: i, values: { 'faults[0].duration': durations[i] }, runs: 4, recoveredFraction: storm ? 0.25 : 1, ...measures(storm),
      recoveryTimeS: storm ? null : 30 * (i + 1),
      attemptsPerAction: { mean: storm ? 2.6 : 1.2, p99: 3, max: 3, histogram: [0, 700, 200, 100] },
      relapses: storm ? 1.5 : 0,
      retryWaves: storm ? 3 : 0,
      originalSuccessAfterFault: storm ? 0.12 : 0.97,
      retryShareAtPeak: storm ? 0.85 : 0.05,
      intervals: { recoveryTimeS: [20 * (i + 1), 40 * (i + 1)], perceivedOutageS: [100, 140], peakLoadMultiple: [1, 1.1] },
      faults: [{ kind: 'dependency-down', startS: 300, endS: 300 + 60 * [1, 5, 10][i] }],
      perSeed: [],
    };
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({
    scenario: 'fixture', question: 'Does it come back?', partial: true, runsPlanned: 40, runsFinished: 36, failedRuns: [],
    horizonS: 7200, bucketS: 5, seeds: [1, 2, 3, 4],
    sweep: { parameters: ['faults[0].duration'], points: durations.map((d, index) => ({ index, values: { 'faults[0].duration': d } })) },
    measureSettings: { warmupS: 60, holdS: 120, successRatioDrop: 0.02, loadExcess: 0.2, perceivedOutageThreshold: 0.9 },
    expectations: [
      { name: 'retries: recovery time at most 5m', variant: 'retries', at: { 'faults[0].duration': '5m' }, passed: false, actual: 'not recovered in 3 of 4 seed(s)' },
      { name: 'no-retries: recovered in at least 95% of seeds', variant: 'no-retries', at: {}, passed: true, actual: 'recovered in 100% of 4 seed(s)' },
    ],
    // As rankVariants would write it for `compare: { baseline: retries, at: { faults[0].duration: 5m } }`:
    // no-retries and short-queue tie on every key and share rank 1.
    ranking: {
      baseline: 'retries', at: { 'faults[0].duration': '5m' }, longestRecoveredParameter: 'faults[0].duration',
      points: [{
        point: 1, values: { 'faults[0].duration': '5m' },
        entries: [
          { rank: 1, variant: 'no-retries', runs: 4, recoveredFraction: 1, recoveryTimeS: 60, perceivedOutageS: 120, outageSavedS: 660, outageSavedRatio: 0.846154, successRatio: 0.9, peakLoadMultiple: 1.02, retryShareAtPeak: 0.05, originalSuccessAfterFault: 0.97, relapses: 0, retryWaves: 0, longestRecovered: '10m' },
          { rank: 1, variant: 'short-queue', runs: 4, recoveredFraction: 1, recoveryTimeS: 60, perceivedOutageS: 120, outageSavedS: 660, outageSavedRatio: 0.846154, successRatio: 0.9, peakLoadMultiple: 1.02, retryShareAtPeak: 0.05, originalSuccessAfterFault: 0.97, relapses: 0, retryWaves: 0, longestRecovered: '10m' },
          { rank: 3, variant: 'retries', runs: 4, recoveredFraction: 0.25, recoveryTimeS: null, perceivedOutageS: 780, outageSavedS: 0, outageSavedRatio: 0, successRatio: 0.4, peakLoadMultiple: 3.5, retryShareAtPeak: 0.85, originalSuccessAfterFault: 0.12, relapses: 1.5, retryWaves: 3, longestRecovered: '1m' },
        ],
      }],
    },
    variants: variants.map((name) => ({ name, description: `${name} policy`, points: durations.map((_, i) => point(name, i)) })),
  }));
  // Every point's series would be in the CSV; the report draws only the point the ranking
  // reads (5m, index 1), so that one is enough here.
  writeFileSync(join(dir, 'timeseries.csv'), csv(variants, 4, 7200, 5, ['rejected_rate_limit', 'dependency_use'], 1));
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO_YAML);
  return dir;
}
