/**
 * The `observed:` block: files of a real incident's per-interval series, each compared with one
 * column of the simulated time series (timeseries.csv). It says which simulated column a file
 * stands beside, the unit its numbers are in, and which moment of the file is the run's t = 0;
 * the loader reads the files (observed-read.ts, with the trace readers) and hands the numbers
 * forward in `data`, which no one writes. The fit is measured in the results
 * (src/results/observed-fit.ts). An experiment block: a variant cannot change what happened.
 */
import { z } from 'zod';
import { closest } from './problems.js';
import { durationSchema } from './schema-primitives.js';

/**
 * The simulated columns an observed series can stand beside, and the kind of number each is.
 * These are names of timeseries.csv's columns (src/measures/columns.ts; a test checks they
 * are and that the kinds match their units); the scenario layer cannot import the measures.
 */
export const OBSERVED_SERIES = {
  attempts: 'count',
  first_tries: 'count',
  retries: 'count',
  attempts_ok: 'count',
  actions_started: 'count',
  actions_ok: 'count',
  actions_failed: 'count',
  fail_timeout: 'count',
  fail_queue_full: 'count',
  goodput_per_s: 'rate',
  success_ratio: 'share',
  retry_share: 'share',
  latency_p50_ms: 'ms',
  latency_p99_ms: 'ms',
  action_latency_p50_ms: 'ms',
  action_latency_p99_ms: 'ms',
  queue_len: 'level',
  busy_slots: 'level',
} as const;
export type ObservedColumn = keyof typeof OBSERVED_SERIES;
export type ObservedKind = (typeof OBSERVED_SERIES)[ObservedColumn];
const COLUMNS = Object.keys(OBSERVED_SERIES) as ObservedColumn[];

/** The units an observed file may be written in, for each kind of simulated column. */
export const OBSERVED_UNITS: Record<ObservedKind, readonly string[]> = {
  count: ['per-second', 'per-step'],
  rate: ['per-second', 'per-step'],
  share: ['ratio', 'percent'],
  ms: ['ms', 's'],
  level: ['level'],
};

/** The numbers the loader read: one per step, on the run's clock. */
export interface ObservedData {
  /** The values as the file wrote them, one per step (a row, or a Prometheus value). */
  values: Float64Array;
  stepS: number;
  /** When the first step starts on the run's clock (t0 applied): negative when the file starts before the run. */
  startS: number;
  file: string;
  sha256: string;
}

export function isObservedData(x: unknown): x is ObservedData {
  if (x === null || typeof x !== 'object') return false;
  const d = x as Partial<ObservedData>;
  return d.values instanceof Float64Array && typeof d.stepS === 'number' && typeof d.startS === 'number';
}

const column = (what: string) => z.string().min(1, 'a column name cannot be empty').optional().meta({ description: what });

export const observedSeriesSchema = z.strictObject({
  file: z.string().min(1, 'give the path of the observed series\' file').meta({ description: 'The observed series: a path relative to the scenario file\'s folder (a CSV of one value per interval, or the JSON of a Prometheus range query).' }),
  format: z.enum(['csv', 'prometheus']).meta({ description: 'csv: a header row and one row per interval (its start time and its value). prometheus: the JSON of /api/v1/query_range (resultType matrix); a value stands for the interval that ends at its time.' }),
  series: z.string().superRefine((s, ctx) => {
    if ((COLUMNS as string[]).includes(s)) return;
    const guess = closest(s, COLUMNS);
    ctx.addIssue({ code: 'custom', message: `"${s}" is not a simulated series an observed one can be compared with${guess ? `: did you mean "${guess}"?` : ''} (one of ${COLUMNS.join(', ')}; the columns of timeseries.csv)` });
  }).meta({ description: 'The simulated column (of timeseries.csv) this series is compared with: attempts, first_tries, retries, attempts_ok, actions_started, actions_ok, actions_failed, fail_timeout, fail_queue_full (counts), goodput_per_s, success_ratio, retry_share, latency_p50_ms, latency_p99_ms, action_latency_p50_ms, action_latency_p99_ms, queue_len, busy_slots.', enum: COLUMNS }),
  unit: z.string().meta({ description: 'What the file\'s numbers are: per-second or per-step for counts and goodput (requests per second, or per interval of the file), ratio (0 to 1) or percent for success_ratio and retry_share, ms or s for latencies, level for queue_len and busy_slots.' }),
  columns: z.strictObject({
    time: column('The column of interval start times, as seconds (see timeUnit) or RFC 3339 timestamps with a zone. Default "time".'),
    value: column('The column of values. Default "value".'),
  }).optional().meta({ description: 'CSV: which columns hold what, by their names in the header row.' }),
  timeUnit: z.enum(['s', 'ms']).default('s').meta({ description: 'CSV: the unit of numeric times (and of a numeric t0).' }),
  select: z.record(z.string(), z.string()).optional().meta({ description: 'prometheus: the labels of the one series to read, when the result holds several.' }),
  t0: z.union([z.number(), z.string()]).optional().meta({ description: 'The moment of the file that is the run\'s t = 0: an RFC 3339 timestamp with a zone (2026-12-07T10:32:00Z), or a number in the file\'s time unit. Default: the start of the file\'s first interval. A t0 after the file\'s start puts the file\'s start before the run (those intervals are not compared).' }),
  step: durationSchema('The length of each interval (default: the smallest spacing between two rows or values; every spacing must be a whole number of steps).', { positive: true }).optional(),
  data: z.custom<ObservedData>((v) => isObservedData(v), { error: 'is read by the loader from `file`, not written' }).optional().meta({ 'x-loaded': true }),
}).superRefine((o, ctx) => {
  const kind = (OBSERVED_SERIES as Record<string, ObservedKind>)[o.series];
  if (kind && !OBSERVED_UNITS[kind].includes(o.unit)) {
    ctx.addIssue({ code: 'custom', path: ['unit'], message: `"${o.unit}" is not a unit of ${o.series}: write ${OBSERVED_UNITS[kind].join(' or ')}` });
  }
  if (o.format !== 'csv' && o.columns !== undefined) ctx.addIssue({ code: 'custom', path: ['columns'], message: `columns is for format: csv (this file's format is ${o.format})` });
  if (o.format !== 'prometheus' && o.select !== undefined) ctx.addIssue({ code: 'custom', path: ['select'], message: `select is for format: prometheus (this file's format is ${o.format})` });
}).meta({ description: 'A series of a real incident, compared with a simulated one (docs/traces.md, "Comparing with what happened").' });

export const observedSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a name of letters, digits, _ . -'), observedSeriesSchema)
  .optional()
  .meta({ description: 'What happened in a real incident, per interval, beside the simulated series: each file compared with one column of timeseries.csv; the fit (normalised RMSE, time of recovery) is in summary.json and the report (docs/traces.md, "Comparing with what happened").' });

export type ObservedSpec = z.output<typeof observedSeriesSchema>;
