/**
 * The `calibrate:` block: which values of the world `retrystorm calibrate` may move, between
 * which bounds, to make the simulated incident match the observed one (the `observed:` block).
 * Values are written as in the scenario ("200ms", "800/s", 12); what each path accepts is
 * checked by calibrate-apply.ts, as a search's parameter is. How the fit is made and what its
 * intervals mean: docs/calibrate.md.
 */
import { z } from 'zod';

const value = z.union([z.string(), z.number()], { error: () => 'expected a value written as in the scenario: a duration such as "200ms", a rate such as "800/s", or a number' });

const range = z
  .strictObject({
    from: value.meta({ description: 'The smallest value the fit may try, written as in the scenario ("100ms", "20/s", 4).' }),
    to: value.meta({ description: 'The largest value the fit may try, in the same kind of unit as `from`.' }),
  })
  .meta({ description: 'The values the parameter may take; a fitted value at one end says the range should be wider.' });

export const MAX_CALIBRATED = 6;

export const calibrateSchema = z
  .strictObject({
    parameters: z
      .record(z.string(), range)
      .refine((r) => Object.keys(r).length > 0, 'name at least one parameter to fit, e.g. server.slots: { from: 5, to: 40 }')
      .refine((r) => Object.keys(r).length <= MAX_CALIBRATED, `fit at most ${MAX_CALIBRATED} parameters at once (each needs its own runs, and an incident's few series cannot tell more apart)`)
      .meta({ description: 'The values to fit, by path (as a sweep names them: server.slots, server.serviceTime.mean, clients.app.retry.timeout…), each with the range it may take. The scenario must already set each one: the written value is where the fit starts.', minProperties: 1, maxProperties: MAX_CALIBRATED }),
    variant: z.string().optional().meta({ description: 'The variant whose world lived the incident (the policies in force that day). Default: the first variant (or the base when there are none).' }),
    series: z.array(z.string()).min(1, 'name at least one observed series, or leave series out to fit them all').optional().meta({ description: 'Which series of the `observed:` block the fit matches, by name. Default: all of them, each weighing the same.' }),
    seeds: z
      .number({ error: 'expected a whole number of seeds, 1 to 64' })
      .int('expected a whole number of seeds, 1 to 64')
      .min(1, 'at least 1 seed')
      .max(64, 'at most 64 seeds per evaluation')
      .default(4)
      .meta({ description: 'Runs averaged for each trial of the parameters (the same seeds at every trial, so two trials differ by their parameters, not by luck).' }),
    budget: z
      .number({ error: 'expected a whole number of trials, 10 to 10,000' })
      .int('expected a whole number of trials, 10 to 10,000')
      .min(10, 'the search needs at least 10 trials')
      .max(10_000, 'at most 10,000 trials (a simulator limit)')
      .default(80)
      .meta({ description: 'The most trials (each `seeds` runs) the search spends before it stops with the best it found.' }),
    intervalSeeds: z
      .number({ error: 'expected a whole number of runs, 8 to 400' })
      .int('expected a whole number of runs, 8 to 400')
      .min(8, 'at least 8 runs: the interval reads the seed noise from them')
      .max(400, 'at most 400 runs')
      .default(24)
      .meta({ description: 'Runs at the fitted values, on seeds the search did not use, from which the seed noise of each series (and so each parameter\'s interval) is measured.' }),
    level: z
      .number({ error: 'expected a confidence level such as 0.95' })
      .gt(0.5, 'the level is a probability between 0.5 and 1, e.g. 0.95')
      .lt(1, 'the level is a probability between 0.5 and 1, e.g. 0.95')
      .default(0.95)
      .meta({ description: 'The confidence level of each parameter\'s interval.' }),
  })
  .meta({ description: 'What `retrystorm calibrate` may change to make this scenario\'s incident match the observed one (docs/calibrate.md).' });

export type CalibrateSpec = z.output<typeof calibrateSchema>;
