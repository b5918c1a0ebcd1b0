/**
 * Distributions of durations (service times, latencies), as scenario files write them.
 */
import { z } from 'zod';
import { durationSchema } from './schema-primitives.js';
import { isLatencyData, type LatencyData } from './trace/latency-data.js';
import { csvShape } from './trace/latency-options.js';

const percentileKey = /^p(100|\d{1,2}(\.\d+)?)$/;
const column = (what: string) => z.string().min(1, 'a column name cannot be empty').optional().meta({ description: what });

/**
 * A distribution measured rather than chosen: percentiles written in the scenario, or observed
 * latency read from a file (docs/traces.md, "Service times from observed latency"). One kind
 * for both: a table of percentiles, a histogram, samples and a table of quantiles all describe
 * the same thing, a measured distribution drawn by inverse CDF with straight lines between its
 * knots. The loader reads `file` before validation and hands the knots forward in `data`,
 * which no one writes (hidden from the JSON Schema and the format reference, `x-loaded`).
 */
const empiricalSchema = z.strictObject({
  kind: z.literal('empirical'),
  percentiles: z
    .record(z.string().regex(percentileKey, 'percentile keys look like p0, p50, p99.9, p100'), durationSchema('Value at this percentile.'))
    .optional()
    .meta({ description: 'Measured percentiles, e.g. {p0: 5ms, p50: 40ms, p99: 900ms, p100: 3s}; p0 and p100 are required. Values between are interpolated linearly. Give percentiles or file.' }),
  file: z.string().min(1, 'give the path of the latency file').optional().meta({ description: 'Observed latency read from a file beside the scenario (docs/traces.md): a Prometheus histogram (the JSON of an instant or range query of its _bucket series), or a CSV of histogram buckets, of samples or of quantiles. Give percentiles or file.' }),
  format: z.enum(['prometheus', 'csv']).optional().meta({ description: 'file: prometheus, the JSON Prometheus\' HTTP API returns for the buckets of a histogram (an instant query: each bucket\'s count; a range query of the raw counters: each bucket\'s last value minus its first); csv, a header row and the columns `columns` names.' }),
  columns: z.strictObject({
    le: column('Histogram: the column of bucket upper bounds (+Inf allowed), in increasing order.'),
    count: column('Histogram: the column of cumulative counts (observations at or below the bound).'),
    sample: column('Samples: the column of observed durations, one per row.'),
    quantile: column('Quantiles: the column of quantiles, from 0 to 1 (both required), increasing.'),
    value: column('Quantiles: the column of the duration at each quantile.'),
  }).optional().meta({ description: 'csv (required there): which columns hold what, by their names in the header row: le and count (a histogram), sample (samples), or quantile and value (quantiles).' }),
  unit: z.enum(['s', 'ms']).optional().meta({ description: 'file: the unit of the file\'s durations (bucket bounds, samples, values); default s.' }),
  select: z.record(z.string(), z.string()).optional().meta({ description: 'prometheus: the labels of the one histogram to read (besides le), e.g. { route: "/login" }, when the result holds several.' }),
  max: durationSchema('A histogram\'s largest duration: the upper bound the +Inf bucket\'s observations are spread to. Without it, a +Inf bucket holding more than the bucket below it is refused.', { positive: true }).optional(),
  data: z.custom<LatencyData>((v) => isLatencyData(v), {
    error: (iss) => {
      const unread = (iss.input as { unread?: unknown } | undefined)?.unread;
      return typeof unread === 'string' ? unread : 'is read by the loader from `file`, not written';
    },
  }).optional().meta({ 'x-loaded': true }),
}).superRefine((d, ctx) => {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const before = ctx.issues?.length ?? 0;
  if (d.file === undefined) {
    // Said at the distribution itself: at a key it does not have, the message would be "missing required key".
    if (d.percentiles === undefined) issue([], 'give percentiles (e.g. { p0: 5ms, p50: 40ms, p100: 3s }) or file (observed latency: a Prometheus histogram, or a CSV of buckets, samples or quantiles)');
    for (const k of ['format', 'columns', 'unit', 'select', 'max'] as const) {
      if (d[k] !== undefined) issue([k], `${k} is for a distribution read from file (this one gives percentiles)`);
    }
    return;
  }
  if (d.percentiles !== undefined) return issue(['percentiles'], 'give percentiles or file, not both');
  if (d.format === undefined) return issue([], 'say what the file is: format: prometheus (the JSON of a histogram query) or format: csv');
  if (d.format === 'prometheus' && d.columns !== undefined) issue(['columns'], 'columns is for format: csv (a Prometheus histogram\'s buckets are its le label)');
  if (d.format === 'csv') {
    if (d.select !== undefined) issue(['select'], 'select is for format: prometheus');
    const shape = d.columns === undefined ? undefined : csvShape(d.columns);
    if (shape === undefined) issue(d.columns === undefined ? [] : ['columns'], 'name the columns of one of: { le, count } (histogram buckets: upper bound and cumulative count), { sample } (one duration per row), { quantile, value } (the duration at each quantile)');
    else if (shape !== 'buckets' && d.max !== undefined) issue(['max'], 'max is for a histogram (the +Inf bucket\'s upper bound): samples and quantiles carry their own largest value');
  }
  if (!isLatencyData(d.data) && (ctx.issues?.length ?? 0) === before) issue(['data'], 'was not read: a latency file is read by the scenario loader, from file');
}).meta({ 'x-exactly-one-of': [['percentiles'], ['file']] });

export const distributionSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('constant'), value: durationSchema('The fixed value.') }),
    z.strictObject({
      kind: z.literal('uniform'),
      min: durationSchema('Smallest value.'),
      max: durationSchema('Largest value.'),
    }),
    z.strictObject({ kind: z.literal('exponential'), mean: durationSchema('Mean (1 / rate).') }),
    z.strictObject({
      kind: z.literal('lognormal'),
      mean: durationSchema('Mean of the distribution.'),
      p99: durationSchema('99th percentile; must be above the mean and at most ~15x it.'),
    }),
    z.strictObject({
      kind: z.literal('lognormal-params'),
      mu: z.number().meta({ description: 'Mean of ln(seconds).' }),
      sigma: z.number().positive().meta({ description: 'Standard deviation of ln(seconds).' }),
    }),
    empiricalSchema,
  ], { error: () => 'expected kind: constant, uniform, exponential, lognormal, lognormal-params or empirical' })
  .meta({ description: 'A distribution of durations.' });

