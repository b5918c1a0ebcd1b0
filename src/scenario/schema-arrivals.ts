/**
 * How user actions arrive: the rate profile of a population's Poisson process (open loop),
 * or a fixed number of users who each wait for their answer and think before acting again
 * (closed loop).
 */
import { z } from 'zod';
import { durationSchema, rateSchema, positiveInt, name } from './schema-primitives.js';
import { distributionSchema } from './schema-distributions.js';
import { LIMITS } from './limits.js';

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
    z.strictObject({
      kind: z.literal('closed'),
      users: positiveInt(LIMITS.clients, 'users').meta({
        description: 'How many users there are. Each has one action at a time: it waits for the answer (success, or failure after its retry layers give up, or its own giveUpAfter), thinks, then acts again. User u is client u mod `clients`.',
      }),
      thinkTime: distributionSchema.meta({ description: 'Think time between the end of a user\'s action and the start of the next (also drawn once before each user\'s first action, so they start spread out).' }),
    }).meta({
      description: 'A closed loop (the interactive users of a terminal system): the load follows the answers. Throughput is N / (R + Z) with R the response time and Z the mean think time, so slow answers slow the users down; at most `users` actions are in progress at once. Surge faults do not reach a closed population.',
    }),
    z.strictObject({
      kind: z.literal('after'),
      population: name.meta({ description: 'The population whose successful actions start these: the previous step of a journey.' }),
      delay: durationSchema('How long after the previous step succeeded this one starts: the person reading and typing, or a session\'s refresh period.').prefault('0s'),
      repeat: positiveInt(100_000, 'times').default(1).meta({ description: 'How many times in a row this step runs, each `delay` after the one before succeeded: a session revalidated every 30 minutes for four hours is delay 30m, repeat 8. A failure ends the journey there.' }),
    }).meta({
      description: 'A step of a journey (signup, then login, then session refreshes): each action of `population` that succeeds starts one here, for the same person (client c there is client c mod `clients` here), `delay` later. The next step starts only after the previous one succeeded, so a failing step stops the journey and the steps after it see less traffic. A journey starts with an action of a population that is not a step, and completes when its last step has succeeded `repeat` times; journeyCompletion and journeyTimeMean measure it.',
    }),
  ], { error: () => 'expected kind: constant, steps, ramp, diurnal, closed or after' })
  .meta({ description: 'How user actions arrive: a Poisson process whose rate follows a profile (open loop: users come whatever the service does), closed: a fixed number of users who wait and think, or after: the next step of a journey, started when a step of another population succeeds.' });

