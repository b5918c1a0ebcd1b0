/**
 * Simulates one run and reduces it to what the outputs need: the summary measures and the
 * per-bucket series as plain arrays (what crosses a worker-thread boundary, and what the
 * CSV and report draw). Pure: the result depends only on (scenario, variant, seed).
 */
import type { Scenario } from '../scenario/schema.js';
import { simulate } from '../model/simulate.js';
import { summarize, derivedSeries, baseline, type RunSummary } from '../measures/measures.js';
import { FAILURE_CAUSES, type FaultWindow, type FiredAction } from '../model/series.js';
import { measureSettings } from './settings.js';

/** Per-bucket columns of one run, in CSV order. */
export interface RunColumns {
  t_s: number[];
  attempts: number[];
  first_tries: number[];
  retries: number[];
  attempts_ok: number[];
  [failure: `fail_${string}`]: number[];
  actions_started: number[];
  actions_ok: number[];
  actions_failed: number[];
  queue_len: number[];
  busy_slots: number[];
  slots: number[];
  latency_p50_ms: number[];
  latency_p99_ms: number[];
  goodput_per_s: number[];
  success_ratio: number[];
  load_multiple: number[];
  retry_share: number[];
  wasted_work_s: number[];
  /** Attempts lost when an instance crashed or was restarted (in service or queued). */
  lost_attempts: number[];
}

export interface RunResult {
  variant: string;
  /** Index of the sweep point (0 without a sweep). */
  point: number;
  seed: number;
  bucketS: number;
  summary: RunSummary;
  columns: RunColumns;
  /** Fault windows of this run's scenario (they can differ across sweep points). */
  faults: FaultWindow[];
  /**
   * Operator actions and automation decisions that took effect, in time order, as plain
   * data: name, effect kind, time (s), what triggered it (a time, or the signal, threshold
   * and the time it held), and a note when it changed nothing.
   */
  actions: FiredAction[];
  eventsProcessed: number;
  /** Wall-clock seconds; for progress lines only, never written to result files. */
  wallS: number;
}

export function runOne(scenario: Scenario, variant: string, point: number, seed: number, shouldStop?: () => boolean): RunResult {
  const started = performance.now();
  const record = simulate(scenario, seed, { shouldStop });
  const settings = measureSettings(scenario);
  const summary = summarize(record, settings);
  const s = record.series;
  const base = baseline(record, settings);
  const d = derivedSeries(s, { horizonS: record.horizonS, baselineRate: base.rate, minAttemptsForShare: settings.minAttemptsForShare });
  const arr = (a: Float64Array) => Array.from(a);
  const ms = (a: Float64Array) => Array.from(a, (x) => x * 1000);
  const columns = {
    t_s: Array.from({ length: s.n }, (_, i) => i * s.bucketS),
    attempts: arr(s.attempts),
    first_tries: arr(s.firstTries),
    retries: arr(s.retries),
    attempts_ok: arr(s.attemptsOk),
    ...Object.fromEntries(FAILURE_CAUSES.map((c, i) => [`fail_${c.replace(/-/g, '_')}`, arr(s.failures[i])])),
    actions_started: arr(s.actionsStarted),
    actions_ok: arr(s.actionsOk),
    actions_failed: arr(s.actionsFailed),
    queue_len: arr(s.queueLen),
    busy_slots: arr(s.busySlots),
    slots: arr(s.slots),
    latency_p50_ms: ms(s.latencyP50S),
    latency_p99_ms: ms(s.latencyP99S),
    goodput_per_s: arr(d.goodput),
    success_ratio: arr(d.successRatio),
    load_multiple: arr(d.offeredLoadMultiple),
    retry_share: arr(d.retryShare),
    wasted_work_s: arr(s.wastedWorkS),
    lost_attempts: arr(s.lostAttempts),
  } as RunColumns;
  return {
    variant,
    point,
    seed,
    bucketS: s.bucketS,
    summary,
    columns,
    faults: record.faults,
    actions: record.actions,
    eventsProcessed: record.totals.eventsProcessed,
    wallS: (performance.now() - started) / 1000,
  };
}
