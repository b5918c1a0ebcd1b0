/**
 * The `search:` block: where the cliff is. For each variant, the value of one parameter at
 * which the probability of recovering (within the hold, the `recovered` measure) crosses a
 * level, found by an adaptive search rather than a grid (docs/search.md). The values are
 * written as in the scenario ("1m", "800/s", 0.9); what the path accepts is checked by
 * search-apply.ts, like a sweep's.
 */
import { z } from 'zod';

const searchValue = z.union([z.string(), z.number()], { error: () => 'expected a value written as in the scenario: a duration such as "5m", a rate such as "800/s", or a number' });

export const searchSchema = z
  .strictObject({
    parameter: z.string().meta({ description: 'Path of the value to search, as a sweep takes it: e.g. faults[0].duration, clients.app.arrivals.rate, or "load" (multiplies every arrival rate).' }),
    range: z
      .strictObject({
        from: searchValue.meta({ description: 'The smallest value searched, written as in the scenario ("1m", "800/s", 0.5).' }),
        to: searchValue.meta({ description: 'The largest value searched, in the same unit as `from`.' }),
      })
      .meta({ description: 'The values the tipping point is looked for between. A crossing outside them is reported as "beyond" that end.' }),
    level: z
      .number({ error: 'expected a probability strictly between 0 and 1, e.g. 0.5' })
      .gt(0, 'the level is a probability strictly between 0 and 1, e.g. 0.5')
      .lt(1, 'the level is a probability strictly between 0 and 1, e.g. 0.5')
      .default(0.5)
      .meta({ description: 'The probability of recovering whose crossing is the tipping point.' }),
    precision: searchValue
      .optional()
      .meta({ description: 'Stop once the tipping point is bracketed this tightly, in the parameter\'s unit ("30s", "10/s", 0.05; default: a 20th of the range).' }),
    budget: z
      .number({ error: 'expected a whole number of runs, at least 20' })
      .int('expected a whole number of runs, at least 20')
      .min(20, 'a search needs at least 20 runs (its coarse pass: 5 values x 4 seeds)')
      .max(100_000, 'at most 100,000 runs per variant (a simulator limit)')
      .default(200)
      .meta({ description: 'The most runs the search spends per variant; it stops there with the interval it has.' }),
    direction: z
      .enum(['falling', 'rising'], { error: () => 'expected falling or rising' })
      .optional()
      .meta({
        description:
          'Whether recovering gets less likely as the value grows (falling: a longer outage, more load) or more likely (rising: more slots, instances or budget). Default: read from the coarse pass of every variant together, falling when it shows none.',
      }),
  })
  .meta({ description: 'A search for each variant\'s tipping point: the value of one parameter at which the probability of recovering crosses `level` (docs/search.md).' });

export type SearchSpec = z.output<typeof searchSchema>;
