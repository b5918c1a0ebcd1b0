/**
 * What goes wrong during a run, in the scenario format: each fault is a window [at, at +
 * duration) during which a condition of the world holds. Kept apart from schema.ts because
 * the list of fault kinds grows with every kind of incident the stories need, and each kind
 * is its own small object.
 */
import { z } from 'zod';
import { durationSchema, name } from './schema-primitives.js';

const at = () => durationSchema('Start, as an offset from the start of the run.');

export const faultSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('dependency-down'),
      at: at(),
      duration: durationSchema('How long the dependency stays down.'),
    }).meta({ description: 'The server\'s dependency is down: an attempt that reaches a slot fails fast.' }),
    z.strictObject({
      kind: z.literal('capacity-cut'),
      at: at(),
      duration: durationSchema('How long the cut lasts.'),
      slots: z.number().int().min(0).meta({ description: 'Slots left during the cut.' }),
    }).meta({ description: 'The server loses capacity: attempts in service finish, but no new one starts above the remaining slots.' }),
    z.strictObject({
      kind: z.literal('surge'),
      at: at(),
      duration: durationSchema('How long the surge lasts.'),
      factor: z.number().gt(0, 'a surge multiplies the arrival rate: use a factor above 0 (2 = twice the usual rate, 0.5 = half)').max(1000, 'at most 1,000 times the usual rate (a simulator limit)').meta({ description: 'The arrival rate is multiplied by this during the window (3 = three times the usual rate; below 1 a lull).' }),
      population: name.optional().meta({ description: 'The population whose arrivals surge (default: every population).' }),
    }).meta({ description: 'A load surge: new user actions arrive `factor` times as fast for the window (a marketing push, a partner\'s batch job, a bot). Overlapping surges multiply. Like any fault, recovery is measured from its end.' }),
  ], { error: () => 'expected kind: dependency-down, capacity-cut or surge' });

export type Fault = z.output<typeof faultSchema>;
