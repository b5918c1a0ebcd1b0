/**
 * Simulates one run and reduces it to what the outputs need: the summary measures and the
 * per-bucket series as plain arrays (what crosses a worker-thread boundary, and what the
 * CSV and report draw). Pure: the result depends only on (scenario, variant, seed).
 */
import type { Scenario } from '../scenario/schema.js';
import { simulate, type RunBudget } from '../model/simulate.js';
import { RunBudgetExceeded } from '../engine/budget.js';
import { summarize, derivedSeries, baseline, type RunSummary } from '../measures/measures.js';
import { FAILURE_CAUSES, type FaultWindow, type RunRecord } from '../model/series.js';
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
  eventsProcessed: number;
  /** Wall-clock seconds; for progress lines only, never written to result files. */
  wallS: number;
}

export interface RunOptions {
  /** Polled now and then; true interrupts the run (it then throws RunInterrupted). */
  shouldStop?: () => boolean;
  /** What the run may use (model/simulate.ts, DEFAULT_RUN_BUDGET); past it the run fails with a message saying what grew. */
  budget?: Partial<RunBudget>;
}

/** What a user can do about a run stopped by its budget, added to the model's account of it. */
const BUDGET_ADVICE =
  'A bounded queue, a backoff, fewer tries or a shorter horizon keep a run smaller; ' +
  '--max-run-memory gives each run more (docs/experiments.md, "Runs that would not fit").';

export function runOne(scenario: Scenario, variant: string, point: number, seed: number, opts: RunOptions = {}): RunResult {
  const started = performance.now();
  let record: RunRecord;
  try {
    record = simulate(scenario, seed, opts);
  } catch (e) {
    // Thrown as a plain Error so that its whole message survives the worker-thread boundary.
    if (e instanceof RunBudgetExceeded) throw new Error(`${e.message}. ${BUDGET_ADVICE}`);
    throw e;
  }
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
  } as RunColumns;
  return {
    variant,
    point,
    seed,
    bucketS: s.bucketS,
    summary,
    columns,
    faults: record.faults,
    eventsProcessed: record.totals.eventsProcessed,
    wallS: (performance.now() - started) / 1000,
  };
}
