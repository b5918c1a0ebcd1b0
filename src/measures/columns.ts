/**
 * The per-bucket time series a run hands to timeseries.csv, populations.csv and the report's
 * charts: each column declared once with its unit and how buckets merge, so no reader guesses
 * a unit from a column's name. The run-level columns are the server's totals and the verdict's
 * users' ratios; the population columns repeat the users' counters for each population.
 */
import { FAILURE_CAUSES } from '../model/series.js';
import { retryShareSeries } from './load.js';
import type { RunView } from './view.js';

/**
 * - count: things counted in the bucket (merged by summing; charts divide by the width for a rate).
 * - level: a time-averaged level in the bucket (queue length, busy slots; merged by averaging).
 * - ms, rate, share, multiple: values of that unit (merged by averaging over the buckets' widths).
 * - slot-seconds: server work done in the bucket (merged by summing).
 * - seconds: the bucket's start time.
 */
export type ColumnUnit = 'seconds' | 'count' | 'level' | 'ms' | 'rate' | 'share' | 'multiple' | 'slot-seconds';

export interface ColumnInfo {
  name: string;
  unit: ColumnUnit;
  doc: string;
}

interface Column extends ColumnInfo {
  values(v: RunView): ArrayLike<number>;
}

const ms = (xs: Float64Array) => Float64Array.from(xs, (x) => x * 1000);

/** The failure causes as columns: fail_timeout, fail_queue_full, … */
export const failureColumn = (cause: string) => `fail_${cause.replace(/-/g, '_')}`;

const RUN_COLUMNS: Column[] = [
  { name: 't_s', unit: 'seconds', doc: 'Start of the bucket (s from the start of the run).', values: (v) => Float64Array.from({ length: v.n }, (_, i) => i * v.bucketS) },
  { name: 'attempts', unit: 'count', doc: 'Attempts sent to the server (every population).', values: (v) => v.record.series.attempts },
  { name: 'first_tries', unit: 'count', doc: 'Attempts that were their action\'s first try.', values: (v) => v.record.series.firstTries },
  { name: 'retries', unit: 'count', doc: 'Attempts that were retries.', values: (v) => v.record.series.retries },
  { name: 'attempts_ok', unit: 'count', doc: 'Attempts answered with success.', values: (v) => v.record.series.attemptsOk },
  ...FAILURE_CAUSES.map((c, i): Column => ({ name: failureColumn(c), unit: 'count', doc: `Failed attempts whose cause was ${c}.`, values: (v) => v.record.series.failures[i] })),
  { name: 'actions_started', unit: 'count', doc: 'User actions started (every population).', values: (v) => v.record.series.actionsStarted },
  { name: 'actions_ok', unit: 'count', doc: 'User actions that succeeded (every population).', values: (v) => v.record.series.actionsOk },
  { name: 'actions_failed', unit: 'count', doc: 'User actions that failed (every population).', values: (v) => v.record.series.actionsFailed },
  { name: 'actions_abandoned', unit: 'count', doc: 'User actions their user gave up on (also counted as failed).', values: (v) => v.record.series.actionsAbandoned },
  { name: 'dead_lettered', unit: 'count', doc: 'Calls a dead-lettering layer moved to its dead-letter queue.', values: (v) => v.record.series.deadLettered },
  { name: 'people_left', unit: 'count', doc: 'People who left the service after a failed action (behaviour.leave).', values: (v) => v.record.series.peopleLeft },
  { name: 'actions_stayed_away', unit: 'count', doc: 'Actions not started because their person had left after a failure and was not back yet.', values: (v) => v.record.series.actionsStayedAway },
  { name: 'queue_len', unit: 'level', doc: 'Attempts waiting in the server\'s queue (time-averaged).', values: (v) => v.record.series.queueLen },
  { name: 'busy_slots', unit: 'level', doc: 'Busy server slots (time-averaged).', values: (v) => v.record.series.busySlots },
  { name: 'slots', unit: 'level', doc: 'Available server slots (time-averaged).', values: (v) => v.record.series.slots },
  { name: 'latency_p50_ms', unit: 'ms', doc: 'Median latency of the attempts answered in the bucket (every population); empty when none.', values: (v) => ms(v.record.series.latencyP50S) },
  { name: 'latency_p99_ms', unit: 'ms', doc: '99th percentile latency of the attempts answered in the bucket; empty when none.', values: (v) => ms(v.record.series.latencyP99S) },
  { name: 'action_latency_p50_ms', unit: 'ms', doc: 'Median latency of the verdict\'s users\' actions that ended in the bucket, from start to final outcome (success or failure; backoff, queueing and retries included); empty when none ended.', values: (v) => ms(v.record.series.actionLatencyP50S) },
  { name: 'action_latency_p99_ms', unit: 'ms', doc: '99th percentile latency of the verdict\'s users\' actions that ended in the bucket, from start to final outcome; empty when none ended.', values: (v) => ms(v.record.series.actionLatencyP99S) },
  { name: 'goodput_per_s', unit: 'rate', doc: 'The verdict\'s users\' actions that succeeded, per second.', values: (v) => Float64Array.from(v.users.actionsOk, (x, i) => (v.widths[i] > 0 ? x / v.widths[i] : NaN)) },
  { name: 'success_ratio', unit: 'share', doc: 'The verdict\'s users\' actions that succeeded ÷ those that ended; empty when none ended.', values: (v) => v.successRatio },
  { name: 'load_multiple', unit: 'multiple', doc: 'Attempts per second ÷ the 1x baseline rate.', values: (v) => v.loadMultiple },
  { name: 'retry_share', unit: 'share', doc: 'Retries ÷ attempts; empty below the minimum attempts for a share.', values: (v) => retryShareSeries(v) },
  { name: 'wasted_work_s', unit: 'slot-seconds', doc: 'Server work done for callers who had already left.', values: (v) => v.record.series.wastedWorkS },
  { name: 'lost_attempts', unit: 'count', doc: 'Attempts lost when an instance crashed or was restarted (in service, queued, or held by one of its stages).', values: (v) => v.record.series.lostAttempts },
];

const POPULATION_COLUMNS: Column[] = [
  { name: 't_s', unit: 'seconds', doc: 'Start of the bucket (s from the start of the run).', values: (v) => Float64Array.from({ length: v.n }, (_, i) => i * v.bucketS) },
  { name: 'actions_started', unit: 'count', doc: 'The population\'s user actions started.', values: (v) => v.users.actionsStarted },
  { name: 'actions_ok', unit: 'count', doc: 'The population\'s user actions that succeeded.', values: (v) => v.users.actionsOk },
  { name: 'actions_failed', unit: 'count', doc: 'The population\'s user actions that failed.', values: (v) => v.users.actionsFailed },
  { name: 'actions_abandoned', unit: 'count', doc: 'The population\'s user actions its users gave up on.', values: (v) => v.users.actionsAbandoned },
  { name: 'dead_lettered', unit: 'count', doc: 'The population\'s calls moved to a dead-letter queue.', values: (v) => v.users.deadLettered },
  { name: 'people_left', unit: 'count', doc: 'The population\'s people who left the service after a failed action.', values: (v) => v.users.peopleLeft },
  { name: 'actions_stayed_away', unit: 'count', doc: 'The population\'s actions not started because their person was away.', values: (v) => v.users.actionsStayedAway },
  { name: 'attempts', unit: 'count', doc: 'The population\'s attempts.', values: (v) => v.users.attempts },
  { name: 'retries', unit: 'count', doc: 'The population\'s retries.', values: (v) => v.users.retries },
  ...(['invalid', 'unsupported-version', 'rate-limited', 'blocked', 'challenged'] as const).map((c): Column => {
    const i = FAILURE_CAUSES.indexOf(c);
    return { name: failureColumn(c), unit: 'count', doc: `The population's attempts that failed with ${c}.`, values: (v) => v.users.failures[i] };
  }),
];

/** What timeseries.csv holds per bucket, in order. */
export const RUN_COLUMN_INFO: readonly ColumnInfo[] = RUN_COLUMNS.map(({ name, unit, doc }) => ({ name, unit, doc }));
/** What populations.csv holds per population and bucket, in order. */
export const POPULATION_COLUMN_INFO: readonly ColumnInfo[] = POPULATION_COLUMNS.map(({ name, unit, doc }) => ({ name, unit, doc }));

/** Columns by name, as plain arrays (what crosses a worker-thread boundary). */
export type Columns = Record<string, number[]>;

const take = (cols: Column[], v: RunView): Columns => Object.fromEntries(cols.map((c) => [c.name, Array.from(c.values(v))]));

/** The run's columns, from the verdict's view (its ratios) and the server's totals. */
export function runColumns(subject: RunView): Columns {
  return take(RUN_COLUMNS, subject);
}

/** One population's columns. */
export function populationColumns(population: RunView): Columns {
  return take(POPULATION_COLUMNS, population);
}
