/**
 * How user actions arrive: the rate profile of a population's Poisson process.
 */
import { z } from 'zod';
import { durationSchema, rateSchema } from './schema-primitives.js';

export const arrivalsSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('constant'), rate: rateSchema('User actions per unit of time, for the whole population.') }),
    z.strictObject({
      kind: z.literal('steps'),
      steps: z
        .array(z.strictObject({ at: durationSchema('When this rate starts (offset from the start).'), rate: rateSchema('Rate from then on.') }))
        .min(1)
        .meta({ description: 'Piecewise-constant rate; before the first step the rate is 0.' }),
    }),
    z.strictObject({
      kind: z.literal('ramp'),
      from: rateSchema('Rate before and at the start of the ramp.'),
      to: rateSchema('Rate at the end of the ramp and after it.'),
      start: durationSchema('When the ramp begins.'),
      end: durationSchema('When the ramp ends.'),
    }),
    z.strictObject({
      kind: z.literal('diurnal'),
      mean: rateSchema('Average rate over a period.'),
      amplitude: z.number().min(0).max(1).meta({ description: 'Relative swing: the rate goes from mean*(1-amplitude) to mean*(1+amplitude).' }),
      period: durationSchema('Length of one cycle.').prefault('24h'),
      peakAt: durationSchema('Offset of the first peak from the start.').prefault('0s'),
    }),
  ], { error: () => 'expected kind: constant, steps, ramp or diurnal' })
  .meta({ description: 'How user actions arrive (a Poisson process whose rate follows this profile).' });

