/**
 * What goes wrong during a run, in the scenario format: each fault is a window [at, at +
 * duration) during which a condition of the world holds. Kept apart from schema.ts because
 * the list of fault kinds grows with every kind of incident the stories need, and each kind
 * is its own small object.
 */
import { z } from 'zod';
import { durationSchema, name, rateSchema } from './schema-primitives.js';
import { distributionSchema } from './schema-distributions.js';

const at = () => durationSchema('Start, as an offset from the start of the run.');
const probability = (what: string) =>
  z.number({ error: 'expected a probability between 0 and 1' }).gt(0, 'a probability above 0 (0 would be no fault at all)').max(1, 'a probability is at most 1').meta({ description: what });
const dependency = z.string().optional().meta({ description: 'A dependency of the server (server.dependencies) instead of the server itself.' });
const service = name.optional().meta({ description: 'A service of the graph (services.<name>) instead of the server users call; its instances, dependencies and slots are the ones meant.' });
const instance = z.number().int().min(0).optional().meta({ description: 'Index of the instance (0 = the first; default: every instance).' });

export const warmupSchema = z
  .strictObject({
    duration: durationSchema('How long the instance takes to reach full capacity after it restarts.'),
    capacity: z.number().min(0).max(1).meta({ description: 'Share of its slots it serves with right after the restart (e.g. 0.25); it grows linearly to all of them over `duration`.' }),
  })
  .meta({ description: 'A cold start: caches, connection pools and JIT warm up, so a restarted instance serves with reduced capacity at first.' });

export const faultSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('dependency-down'),
      at: at(),
      service,
      duration: durationSchema('How long the dependency stays down.'),
    }).meta({ description: 'The server\'s dependency is down: an attempt that reaches a slot fails fast.' }),
    z.strictObject({
      kind: z.literal('capacity-cut'),
      at: at(),
      service,
      duration: durationSchema('How long the cut lasts.'),
      slots: z.number().int().min(0).meta({ description: 'Slots left during the cut.' }),
    }).meta({ description: 'The server loses capacity: attempts in service finish, but no new one starts above the remaining slots.' }),
    z.strictObject({
      kind: z.literal('surge'),
      at: at(),
      duration: durationSchema('How long the surge lasts.'),
      factor: z.number().gt(0, 'a surge multiplies the arrival rate: use a factor above 0 (2 = twice the usual rate, 0.5 = half)').max(1000, 'at most 1,000 times the usual rate (a simulator limit)').optional().meta({ description: 'The arrival rate is multiplied by this during the window (3 = three times the usual rate; below 1 a lull).' }),
      rate: rateSchema('Instead of a factor: the population arrives at this rate during the window, whatever its profile says (a flood from a population that is otherwise silent, such as a botnet). Needs `population`.').optional(),
      population: name.optional().meta({ description: 'The population whose arrivals surge (default: every population).' }),
    })
      // Checked here so both forms stay one object (one table in the docs, one set of keys for
      // "did you mean").
      .superRefine((o, ctx) => {
        if (o.factor !== undefined && o.rate !== undefined) ctx.addIssue({ code: 'custom', path: ['rate'], message: 'give either factor (times the usual rate) or rate (an absolute rate), not both' });
        else if (o.factor === undefined && o.rate === undefined) ctx.addIssue({ code: 'custom', message: 'say how strong the surge is: factor (e.g. 3, three times the usual rate) or rate (e.g. "200/s", with population)' });
        else if (o.rate !== undefined && o.population === undefined) ctx.addIssue({ code: 'custom', path: ['rate'], message: 'a surge to an absolute rate is one population\'s: name it with population' });
      })
      .meta({
        'x-exactly-one-of': [['factor'], ['rate']],
        description: 'A load surge: new user actions arrive `factor` times as fast, or at `rate`, for the window (a marketing push, a partner\'s batch job, a bot, a flood). Overlapping factor surges multiply. Like any fault, it is a trigger: recovery is measured from its end.',
      }),
    z.strictObject({
      kind: z.literal('error-rate'),
      at: at(),
      service,
      duration: durationSchema('How long the errors last.'),
      probability: probability('Each request that reaches a slot (or each call to `dependency`) fails independently with this probability.'),
      status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional().meta({ description: 'The status the failed requests answer (default 500; cause "error"). Not with `dependency`, whose failures are the route\'s dependency failures (503).' }),
      retryable: z.boolean().optional().meta({ description: 'The retryable flag on those answers (default true).' }),
      dependency,
    }).meta({ description: 'A partial failure: a share of requests fails (a bad deploy on some hosts, a flaky database). Failed requests hold their slot for failFastTime.' }),
    z.strictObject({
      kind: z.literal('latency'),
      at: at(),
      service,
      duration: durationSchema('How long the slowdown lasts.'),
      add: distributionSchema.optional().meta({ description: 'Time added to every request that starts service (or to every call to `dependency`) in the window.' }),
      factor: z.number().min(0).optional().meta({ description: 'Service time (or the dependency\'s latency) multiplied by this in the window.' }),
      dependency,
    })
      .refine((f) => f.add !== undefined || f.factor !== undefined, 'give add (a latency added), factor (a multiplier) or both')
      .meta({ description: 'Slowness: the server (or a dependency) takes longer for the window, which holds slots longer.' }),
    z.strictObject({
      kind: z.literal('reset'),
      at: at(),
      service,
      duration: durationSchema('How long connections are being reset.'),
      probability: probability('Share of attempts whose connection is reset.'),
      when: z.enum(['before', 'after']).optional().meta({ description: 'before: the connection drops before the server sees the request (no work done, default); after: the server does the work and the answer is lost.' }),
    }).meta({ description: 'Connection resets (a flaky load balancer or network): the client sees a reset (cause "reset"), which layers with `reset` in retryOn retry, such as a proxy.' }),
    z.strictObject({
      kind: z.literal('crash'),
      at: at(),
      service,
      duration: durationSchema('How long the instance stays down before it restarts (0s: restarts at once).'),
      instance,
      answer: z.enum(['reset', 'none']).optional().meta({ description: 'What callers whose request was lost see: a connection reset (default: the process died and the OS closed its connections) or nothing (the host vanished; they wait for their timeout).' }),
      warmup: warmupSchema.optional(),
    }).meta({ description: 'An instance crashes: the requests it was serving and those queued are lost (counted in lost_attempts); while it is down the balancer sends nothing to it (with every instance down, connections are refused: a reset); then it restarts, with an optional warm-up.' }),
    z.strictObject({
      kind: z.literal('pause'),
      at: at(),
      service,
      duration: durationSchema('How long the pause lasts.'),
      instance,
    }).meta({ description: 'A stop-the-world pause (a long garbage collection): the instance makes no progress and starts nothing, but still accepts requests into its queue; the work in progress resumes afterwards.' }),
  ], { error: () => 'expected kind: dependency-down, capacity-cut, surge, error-rate, latency, reset, crash or pause' });

export type Fault = z.output<typeof faultSchema>;
