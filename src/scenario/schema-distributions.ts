/**
 * Distributions of durations (service times, latencies), as scenario files write them.
 */
import { z } from 'zod';
import { durationSchema } from './schema-primitives.js';

const percentileKey = /^p(100|\d{1,2}(\.\d+)?)$/;

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
    z.strictObject({
      kind: z.literal('empirical'),
      percentiles: z
        .record(z.string().regex(percentileKey, 'percentile keys look like p0, p50, p99.9, p100'), durationSchema('Value at this percentile.'))
        .meta({ description: 'Measured percentiles, e.g. {p0: 5ms, p50: 40ms, p99: 900ms, p100: 3s}; p0 and p100 are required. Values between are interpolated linearly.' }),
    }),
  ], { error: () => 'expected kind: constant, uniform, exponential, lognormal, lognormal-params or empirical' })
  .meta({ description: 'A distribution of durations.' });

