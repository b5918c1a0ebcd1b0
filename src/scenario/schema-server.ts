/**
 * The server side of the scenario format: instances behind a load balancer, each with
 * slots and a queue, a pipeline of stages that may refuse a request before any expensive
 * work (retry detection, rate limits, admission control), and the response contract
 * (status, Retry-After, retryable flag) of what it refuses.
 */
import { z } from 'zod';
import { durationSchema, durationOrNone, positiveInt, rateSchema, versionSchema, name, routeName } from './schema-primitives.js';
import { LIMITS } from './limits.js';
import { CODEL_DEFAULTS } from './server-defaults.js';
import { formatDuration, parseDuration } from './units.js';
import { distributionSchema } from './schema-distributions.js';
import { routeServiceCalls } from './schema-services.js';

const window = z.strictObject({ at: durationSchema('Start (offset from the start of the run).'), duration: durationSchema('How long.') });

/** A clock offset, which may be negative: "-1.5s", "+2s", "0s". */
const signedDuration = z
  .string({ error: () => 'expected a clock offset such as "-1.5s", "0s" or "+2s"' })
  .transform((text, ctx) => {
    const t = text.trim();
    const sign = t.startsWith('-') ? -1 : 1;
    const r = parseDuration(t.replace(/^[-+]/, ''));
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.message });
      return z.NEVER;
    }
    return sign * r.value;
  })
  .meta({ description: 'A clock offset: a duration with a unit, with a sign ("-1.5s", "+2s"); ahead of true time when positive.', 'x-unit': 'duration' });

export const clockSkewSchema = z
  .strictObject({
    max: durationSchema('Largest offset: each instance\'s clock is offset by a value drawn uniformly in [-max, max] from the seed.').optional(),
    offsets: z.array(signedDuration).min(1).optional().meta({ description: 'Each instance\'s clock offset, instance i taking offsets[i mod n] (an instance added by the autoscaler too).' }),
  })
  .refine((c) => (c.max === undefined) !== (c.offsets === undefined), 'give either max (offsets drawn per instance from the seed, e.g. { max: 2s }) or offsets (given per instance, e.g. { offsets: [-1s, 0s, +1s] }), not both and not neither')
  .meta({ 'x-exactly-one-of': [['max'], ['offsets']], description: 'Clocks of the instances out of step (story 001: "a significant desynchronisation between the servers can lead to imprecise counts; NTP is essential"). Each instance reads the time as true time + its offset when it uses its own, in-memory limiter (store: local, and the local fallback of a shared store), so its fixed windows start and end at different true times from the other instances\'; in a shared store a fixed window\'s key is named by the sending instance\'s clock (rate-limit:<key>:<minute>), so around each boundary two windows\' keys are written at once. Limiters without windows (token bucket, GCRA, sliding log, leaky bucket) decide the same under a constant offset, and in a shared store the other algorithms keep the store\'s one clock.' });

/** The refusal of a shared store's setting on a local one. */
const sharedOnly = (field: string) => `${field} describes a shared store: write store: shared, or leave it out (a local limiter, in each instance's memory, has no store to wait for)`;

export const rateLimitAlgorithmSchema = z
  .discriminatedUnion('algorithm', [
    z.strictObject({ algorithm: z.literal('fixed-window'), limit: positiveInt(1e9, 'requests').meta({ description: 'Requests allowed per window (per key).' }), window: durationSchema('Window length; windows are aligned to multiples of it.', { positive: true }) }),
    z.strictObject({ algorithm: z.literal('sliding-log'), limit: positiveInt(1e9, 'requests').meta({ description: 'Requests allowed in any span of `window` (per key); the log keeps this many timestamps per key.' }), window: durationSchema('Window length.', { positive: true }) }),
    z.strictObject({ algorithm: z.literal('sliding-window-counter'), limit: positiveInt(1e9, 'requests').meta({ description: 'Requests allowed in the last `window` (per key), estimated from the current and previous windows\' counts.' }), window: durationSchema('Window length.', { positive: true }) }),
    z.strictObject({ algorithm: z.literal('token-bucket'), rate: rateSchema('Refill rate.', { positive: true }), burst: positiveInt(1e9, 'tokens').meta({ description: 'Tokens the bucket holds at most: the most requests let through at once.' }) }),
    z.strictObject({ algorithm: z.literal('gcra'), rate: rateSchema('Sustained rate.', { positive: true }), burst: positiveInt(1e9, 'requests').meta({ description: 'The most requests let through at once (the same decisions as a token bucket of this size).' }) }),
    z.strictObject({ algorithm: z.literal('leaky-bucket-queue'), rate: rateSchema('Drain rate.', { positive: true }), capacity: positiveInt(1e9, 'queued requests').meta({ description: 'Requests that may wait in the queue; a request that finds it full is refused.' }) }),
  ], { error: () => 'expected algorithm: fixed-window, sliding-log, sliding-window-counter, token-bucket, gcra or leaky-bucket-queue' })
  .meta({ description: 'A rate-limiting algorithm and its limit (see docs/rate-limiters.md).' });

export const stageSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('retry-detection'),
      window: durationSchema('How long a fingerprint is remembered.').prefault('60s'),
      useHeader: z.boolean().default(true).meta({ description: 'Also trust the attempt number a client declares in a header.' }),
    }).meta({ description: 'Marks requests as retries: a fingerprint of client + route + idempotency key (or body hash) seen within the window, or a declared attempt number above 1.' }),
    z.strictObject({
      kind: z.literal('rate-limit'),
      key: z.enum(['ip', 'client', 'route', 'global']).meta({ description: 'What the limit is per.' }),
      limit: rateLimitAlgorithmSchema.optional(),
      tiers: z.record(z.string(), rateLimitAlgorithmSchema).optional().meta({ description: 'Limits by API-key tier (e.g. free, premium), chosen by the population\'s tier.' }),
      store: z.enum(['local', 'shared']).default('local').meta({ description: 'local: each instance counts on its own; shared: one store (e.g. Redis) for all instances.' }),
      storeLatency: durationSchema('Round trip to the shared store, paid by every request it checks: a refused request gets its 429 after it too.').prefault('0s'),
      storeOutages: z.array(window).optional().meta({ description: 'When the shared store is unreachable.' }),
      onStoreFailure: z.enum(['open', 'closed', 'local']).default('open').meta({ description: 'While the store is unreachable, and for a check that timed out (storeTimeout): let everything through (open), refuse everything (closed), or count locally per instance (local).' }),
      storeCapacity: rateSchema('Checks per second the shared store serves, one at a time in arrival order (Redis runs one command, or one Lua script, at a time): a check that finds it busy waits, and its latency is the round trip plus that wait plus 1/storeCapacity (an M/D/1 queue, docs/rate-limiters.md). One check is one operation: write the store\'s operations per second divided by the commands per check (2 for INCR then EXPIRE sent apart, 1 for a Lua script or MULTI/EXEC). Default: unlimited (no wait).', { positive: true }).optional(),
      storeLoad: rateSchema('Other operations the shared store serves besides this stage\'s checks (other limiters, other services), Poisson arrivals of one operation each that share its queue and its timeout; needs storeCapacity. Default 0: the store is this stage\'s alone.').optional(),
      storeTimeout: durationOrNone('How long an instance waits for the shared store\'s answer: a check whose round trip, wait and service would take longer is a store failure after this long, handled by onStoreFailure, and never runs at the store (its connection is closed before the store reads it); "none" (default) waits for ever.').optional(),
      clockSkew: clockSkewSchema.optional(),
      topKeys: z.number().int().min(0).max(100).optional().meta({ description: 'How many of the busiest keys (by requests seen, and by requests refused) the results list for this stage (default 5; 0: none).' }),
      routes: z.array(z.string()).optional().meta({ description: 'Only requests to these routes are limited (default: all).' }),
    }).refine((s) => (s.limit === undefined) !== (s.tiers === undefined), 'give either limit (one limit for everyone) or tiers (a limit per API-key tier), not both and not neither')
      .refine((s) => s.storeLoad === undefined || s.storeCapacity !== undefined, { path: ['storeLoad'], message: 'storeLoad shares the store\'s capacity: give storeCapacity too (e.g. storeCapacity: 50000/s)' })
      .refine((s) => s.store === 'shared' || s.storeCapacity === undefined, { path: ['storeCapacity'], message: sharedOnly('storeCapacity') })
      .refine((s) => s.store === 'shared' || s.storeLoad === undefined, { path: ['storeLoad'], message: sharedOnly('storeLoad') })
      .refine((s) => s.store === 'shared' || s.storeTimeout === undefined, { path: ['storeTimeout'], message: sharedOnly('storeTimeout') })
      .meta({ 'x-exactly-one-of': [['limit'], ['tiers']] }),
    z.strictObject({
      kind: z.literal('admission'),
      capacity: positiveInt(LIMITS.queue, 'requests in flight').meta({ description: 'Requests in flight (in service or queued) per instance above which everything is refused.' }),
      reserveForOriginals: z.number().min(0).max(1).default(0).meta({ description: 'Top share of the capacity only original requests may use: requests detected as retries are refused above (1 - this) of it.' }),
    }).meta({ description: 'Admission control: refuse early and cheaply (cause "shed") before the queue fills.' }),
    z.strictObject({
      kind: z.literal('adaptive-concurrency'),
      algorithm: z.enum(['aimd', 'vegas', 'gradient2']).meta({ description: 'Netflix concurrency-limits algorithm (see docs/concurrency-limits.md).' }),
      initialLimit: z.number().positive().optional().meta({ description: 'The limit (requests in flight) at the start (default 20, as in Netflix\'s library).' }),
      minLimit: z.number().positive().optional().meta({ description: 'The limit never falls below this (default: 20 for aimd and gradient2, 1 for vegas).' }),
      maxLimit: z.number().positive().optional().meta({ description: 'The limit never rises above this (default: 200 for aimd and gradient2, 1000 for vegas).' }),
    }).meta({ description: 'An adaptive concurrency limit per instance: requests beyond the current limit in flight are refused (cause "shed"); the limit follows the latency of completed requests.' }),
    z.strictObject({
      kind: z.literal('shed'),
      queueAbove: z.number().int().min(0).optional().meta({ description: 'Shed while the instance\'s queue holds more than this many attempts.' }),
      waitAbove: durationSchema('Shed while the oldest attempt queued at the instance has waited longer than this (a latency signal).').optional(),
      share: z.number().gt(0).max(1).default(1).meta({ description: 'Share of the requests refused while the signal is above its threshold, drawn at random (1: all).' }),
      retriesOnly: z.boolean().default(false).meta({ description: 'Only shed requests detected as retries (needs a retry-detection stage before this one).' }),
    })
      .refine((st) => (st.queueAbove === undefined) !== (st.waitAbove === undefined), 'give either queueAbove (queue length) or waitAbove (queueing delay) as the signal')
      .meta({ description: 'Load shedding on a signal of the instance the request is routed to: while its queue is longer than queueAbove, or its oldest queued attempt has waited longer than waitAbove, refuse a share of requests (cause "shed") before they queue.' }),
    z.strictObject({
      kind: z.literal('min-version'),
      minimum: versionSchema('The oldest client version still served (e.g. "4.3.0", quoted); versions are compared number by number, a missing part counting as 0.'),
    }).meta({ description: 'A minimum supported client version: requests from a population whose identity.version is below it are refused before any work with 426 Upgrade Required, not retryable (cause "unsupported-version"). A population without a version passes.' }),
    z.strictObject({
      kind: z.literal('challenge'),
      routes: z.array(z.string()).optional().meta({ description: 'Only requests to these routes are challenged (default: all).' }),
      people: z.number().min(0).max(1).default(0.05).meta({ description: 'Share of people\'s actions shown a challenge to solve on their first try (the rest pass an invisible one); default 0.05.' }),
      solveTime: durationSchema('The least time a person takes to solve a challenge and send the request again: a try of the same action sooner (a library\'s automatic retry) is challenged again.').prefault('5s'),
      bots: z.number().min(0).max(1).default(0).meta({ description: 'Share of the automated clients\' requests (role attacker) that pass: solving services, browsers that pass as people; default 0.' }),
    }).meta({ description: 'A bot challenge at the edge (a CAPTCHA, or an invisible challenge), before anything else is spent: requests of automated clients (role attacker) are answered 403 with a challenge (cause "challenged") unless they pass (share `bots`); a share `people` of people\'s actions get a challenge on their first try, and pass when they send it again at least `solveTime` later, which their population does with a layer that retries 403 (docs/traffic-policies.md).' }),
  ], { error: () => 'expected kind: retry-detection, rate-limit, admission, adaptive-concurrency, shed, min-version or challenge' });

export const autoscalerSchema = z
  .strictObject({
    metric: z.enum(['utilisation', 'queue']).meta({ description: 'What it tracks: utilisation (busy slots / slots over the evaluation interval) or queue (attempts queued per instance, at the evaluation).' }),
    target: z.number().gt(0).meta({ description: 'The value to hold the metric at: a busy share for utilisation (e.g. 0.6), attempts per instance for queue.' }),
    min: positiveInt(1000, 'instances').optional().meta({ description: 'Fewest instances (default: server.instances).' }),
    max: positiveInt(1000, 'instances').meta({ description: 'Most instances: the headroom it may use.' }),
    every: durationSchema('Evaluation interval: the metric is read and a decision taken at the end of each (a one-minute metric by default).').prefault('1m'),
    provisioning: durationSchema('Time from deciding to add instances to their taking traffic (starting a VM or a pod, warming it up).').prefault('3m'),
    cooldown: durationSchema('After a decision, how long it waits before the next one.').prefault('5m'),
    scaleIn: z.boolean().default(true).meta({ description: 'Also remove instances when the metric is below target (an instance taken out finishes what it holds).' }),
  })
  .meta({ description: 'Target tracking, as cloud autoscalers do it: at each evaluation, desired = ceil(instances x metric / target), between min and max. More instances than running and ordered are ordered, and take traffic after `provisioning`; fewer are removed at once.' });

export const retryAfterSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({ kind: z.literal('fixed'), after: durationSchema('The Retry-After value.') }),
    z.strictObject({
      kind: z.literal('spread'),
      base: durationSchema('Smallest value.'),
      window: durationSchema('Values spread over [base, base + window), by a hash of the client.'),
    }).meta({ description: 'Deterministic per client: base + hash(client) mod window (story 000: 10s + hash mod 50s).' }),
    z.strictObject({ kind: z.literal('random'), min: durationSchema('Smallest value.'), max: durationSchema('Largest value.') }),
  ], { error: () => 'expected kind: none, fixed, spread or random' });


export const dependencySchema = z
  .strictObject({
    quota: z
      .strictObject({ limit: positiveInt(1e12, 'calls').meta({ description: 'Calls the provider accepts per window.' }), window: durationSchema('The provider\'s quota window (fixed windows, aligned to multiples of it).', { positive: true }) })
      .optional()
      .meta({ description: 'The provider\'s quota: calls allowed per window; beyond it the provider answers 429.' }),
    latency: distributionSchema.optional().meta({ description: 'Time a call adds to the slot time of the request that makes it.' }),
    capacity: positiveInt(1e9, 'concurrent calls').optional().meta({ description: 'Calls it serves at once (a database\'s connection pool): a call beyond it fails at once.' }),
    outages: z.array(window).optional().meta({ description: 'When the provider is down: calls fail.' }),
    alertAt: z.array(z.number().gt(0).max(1)).optional().meta({ description: 'Quota-usage alert thresholds (e.g. [0.7]); the report gives the time each is first crossed.' }),
    guard: z
      .strictObject({
        budget: z.number().gt(0).max(1).default(1).meta({ description: 'Our own budget: use at most this share of the provider\'s quota per window.' }),
        reserve: z.record(routeName, z.number().min(0).max(1)).optional().meta({ description: 'Shares of the budget held for these routes (critical flows: login, session) in every quota window. A reserve of r guarantees its route r x budget calls per window whatever the other routes did first; a route without a reserve may call while the window\'s use is below the budget less what the reserved routes have not yet used of their reserves; a reserved route may use the whole budget less what the other reserved routes have not yet used of theirs. A reserve is not a cap: unused, it goes to its own route only, and once used, the rest of the budget is shared. Example: quota 5,000/min, budget 0.9 (4,500), reserve { login: 0.4, session: 0.4 } (1,800 each): 20 s into a minute login has used 400 and session 600, so 1,400 + 1,200 are still held and signups may call until the minute\'s use reaches 4,500 - 2,600 = 1,900; login alone may call until 4,500 - 1,200 = 3,300. A reserve above its route\'s bulkhead holds only up to the bulkhead. Together the reserves are at most 1.' }),
        bulkheads: z.record(routeName, z.number().min(0).max(1)).optional().meta({ description: 'Most of the quota each of these routes may use per window, as a share of the quota (not of the budget); a bulkhead applies whatever the reserves leave the route.' }),
      })
      .optional()
      .meta({ description: 'Defences in front of the quota: calls over the budget or a bulkhead are refused with 429 before reaching the provider.' }),
    failover: z
      .strictObject({
        routes: z.array(routeName).meta({ description: 'Routes that can validate locally (e.g. JWT) instead of calling the provider.' }),
        openFor: durationSchema('How long they keep validating locally after the provider\'s last 429 or failure (with `when`: after the last one while the rate was above it).').prefault('1m'),
        when: z
          .strictObject({
            refusedShare: z.number().gt(0).max(1).meta({ description: 'Open when at least this share of the calls to the provider in the last `window` were refused (429) or failed.' }),
            window: durationSchema('The sliding window the share is measured over, in whole seconds.', { positive: true }).prefault('10s'),
            minCalls: positiveInt(1e9, 'calls').default(20).meta({ description: 'The fewest calls in the window for the share to count: a refusal among a handful of calls opens nothing (default 20).' }),
          })
          .optional()
          .meta({ description: 'Open on a rate of refusals over a window, as a circuit breaker on the provider\'s 429s does ("if the error rate, especially 429s, passes a limit", story 003); without it, the first refusal opens it.' }),
      })
      .optional()
      .meta({ description: 'A circuit breaker that fails over to local validation when the provider answers 429 or fails (at the first refusal, or at a rate given by `when`).' }),
  })
  .meta({ description: 'A downstream service (a database, an auth provider) that routes call.' });

/** Random early detection on an instance's queue (src/model/server/red.ts, docs/traffic-policies.md). */
export const redSchema = z
  .strictObject({
    minThreshold: z.number().min(0).max(LIMITS.queue).meta({ description: 'min_th: below this average queue length (attempts) nothing is dropped.' }),
    maxThreshold: z.number().gt(0).max(LIMITS.queue).meta({ description: 'max_th: at or above this average queue length every arrival is dropped.' }),
    maxP: z.number().gt(0).max(1).default(0.02).meta({ description: 'max_p: the drop probability as the average reaches maxThreshold (default 0.02, Floyd and Jacobson\'s simulations).' }),
    weight: z.number().gt(0).max(1).default(0.002).meta({ description: 'w_q: the weight of each new queue length in the exponentially weighted average (default 0.002, the paper\'s).' }),
  })
  .refine((r) => r.minThreshold < r.maxThreshold, { message: 'minThreshold must be below maxThreshold (the paper suggests maxThreshold at least twice minThreshold)', path: ['maxThreshold'] })
  .meta({
    description: 'Random early detection on each instance\'s queue (Floyd and Jacobson, "Random Early Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1993): at each arrival an exponentially weighted average of the queue length is updated (decayed while the queue was empty); below minThreshold the attempt is let in, at or above maxThreshold it is dropped, between them it is dropped with pa = pb / (1 - count x pb), pb = maxP x (avg - minThreshold) / (maxThreshold - minThreshold), count the attempts let in since the last drop (the paper\'s uniform spacing of drops). A dropped attempt is refused at once with the overload answer (cause "shed"). The queue bound `queue` still applies behind it.',
  });

export const serverSchema = z.strictObject({
  routes: z
    .record(routeName, z.strictObject({
      serviceTime: distributionSchema.optional().meta({ description: 'Slot time of this route (default: the server\'s).' }),
      calls: z.array(z.string()).optional().meta({ description: 'Dependencies each request of this route calls, in order.' }),
      ...routeServiceCalls,
    }))
    .optional()
    .meta({ description: 'Per-route settings; populations name their route in identity.route.' }),
  dependencies: z.record(name, dependencySchema).optional().meta({ description: 'Downstream services by name, called by routes (server.routes.<route>.calls).' }),
  instances: positiveInt(1000, 'instances').default(1).meta({ description: 'Server instances behind the load balancer; slots, queue and local state are per instance.' }),
  loadBalancer: z.enum(['round-robin', 'random', 'least-outstanding', 'power-of-two']).default('round-robin').meta({
    description: 'How the balancer picks an instance: round-robin (default); random; least-outstanding: the instance with the fewest attempts in service or queued (a balancer that sees every instance); power-of-two: two instances drawn at random, the one with fewer outstanding attempts (Mitzenmacher, "The Power of Two Choices in Randomized Load Balancing", 2001; Envoy\'s LEAST_REQUEST with choice_count 2), most of least-outstanding\'s gain for two looks instead of all.',
  }),
  slots: positiveInt(LIMITS.slots, 'concurrency slots').meta({ description: 'Attempts served at once, per instance.' }),
  queue: z
    .union([z.literal('unbounded'), z.number().int().min(0).max(LIMITS.queue)])
    .default('unbounded')
    .meta({ description: 'Queue capacity in attempts, per instance; a full queue refuses at once (cause "queue-full"). 0 = no queue.' }),
  discipline: z.enum(['fifo', 'lifo', 'adaptive-lifo']).default('fifo').meta({
    description: 'Which queued attempt a free slot takes: the oldest (fifo), the newest (lifo, which serves callers still waiting first in an overload), or adaptive-lifo: FIFO normally, LIFO while CoDel says the queue is standing (Facebook, "Fail at Scale", 2015).',
  }),
  fairQueue: z
    .strictObject({
      key: z.enum(['population', 'route', 'tier']).default('population').meta({
        description: 'Whose requests share a turn: each client population (default), each route, or each API-key tier (identity.tier; populations without one share the tier "none").',
      }),
      weights: z.record(z.string(), z.number().positive().max(1e6)).optional().meta({
        description: 'Weight of a key (a population, route or tier name): its share of turns while several keys have requests queued (default 1 each). A key of weight 2 gets twice the turns of a key of weight 1.',
      }),
      priority: z
        .union([z.literal('first-tries'), z.array(name).min(1)])
        .optional()
        .meta({
          description: 'Strict priority classes, served before any lower class: "first-tries": first tries before retries (the server reads the attempt number each request carries, like gRPC\'s grpc-previous-rpc-attempts header); or a list of population names, highest first (e.g. [paid]): the populations not listed come last. Within a class the keys share turns by weight.',
        }),
    })
    .optional()
    .meta({
      description: 'Fair queueing in each instance\'s queue instead of one line: a line per key, and a free slot takes from the highest priority class that has anything queued, sharing turns between its keys by deficit round robin (Shreedhar and Varghese, 1995; with a request as the unit, weighted fair queueing of Demers, Keshav and Shenker within one request per key). The discipline applies within a key\'s line (fifo: its oldest first, lifo: its newest). Not with codel or adaptive-lifo.',
    }),
  codel: z
    .strictObject({
      target: durationSchema('M: while the queue is standing, queued attempts older than this are refused.').prefault(formatDuration(CODEL_DEFAULTS.targetS)),
      interval: durationSchema('N: the queue is standing when it has not been empty for this long; otherwise the age limit is N.').prefault(formatDuration(CODEL_DEFAULTS.intervalS)),
    })
    .optional()
    .meta({ description: 'Controlled delay on the queue (CoDel as in "Fail at Scale"): refuses (cause "shed") attempts queued longer than M while the queue stands, N otherwise. On with discipline adaptive-lifo; may be set for fifo too.' }),
  red: redSchema.optional(),
  contention: z
    .strictObject({
      factor: z.number().min(0).meta({ description: 'alpha: how much slower service gets when every slot is busy.' }),
      exponent: z.number().min(0).default(1).meta({ description: 'beta.' }),
    })
    .optional()
    .meta({ description: 'Service slows with load: a service time is multiplied by 1 + alpha * (busy/slots)^beta when it starts (lock and cache contention); busy/slots is at most 1, also when a capacity cut leaves fewer slots than jobs.' }),
  dropAbandoned: z.boolean().default(false).meta({ description: 'Drop queued attempts whose caller has already given up instead of serving them (needs the client to signal it, e.g. a cancelled request).' }),
  serviceTime: distributionSchema.meta({ description: 'Slot time of one attempt.' }),
  failFastTime: durationSchema('Slot time of an attempt that fails fast because the dependency is down.').prefault('0s'),
  deadline: durationOrNone('The server\'s own deadline: an attempt that waited longer than this in the queue is answered 503 without being served ("none", the default).').prefault('none'),
  executionDeadline: durationOrNone('The server\'s execution deadline: a request still running after this long in its slot (waiting for its calls to other services included) is cut, its calls cancelled, its slot freed, and its caller answered 503 (cause "execution-deadline"; "none", the default). Distinct from `deadline`, which bounds the wait in the queue: this bounds the work (the SRE book\'s bimodal latency case).').prefault('none'),
  autoscaler: autoscalerSchema.optional(),
  stages: z.array(stageSchema).default([]).meta({ description: 'The pipeline every request goes through before the queue, in order.' }),
  rejectionCost: durationSchema('Server time a refusal by a stage costs (parsing, the check, the answer): counted as work, without holding a slot (default 0s).').prefault('0s'),
  overload: z
    .strictObject({
      status: z.union([z.literal(503), z.literal(429)]).optional().meta({ description: 'Status of overload refusals (queue full, shed by admission or CoDel); default 503.' }),
      retryable: z.boolean().optional().meta({ description: 'The retryable flag on overload refusals (default true).' }),
      retryAfter: retryAfterSchema.optional().meta({ description: 'Retry-After on every 503 and 429 the server sends (default none).' }),
    })
    .prefault({})
    .meta({ description: 'The response contract: overload refusals answer 503 (or 429) with a retryable flag; dependency failures 503 and rate limits 429, retryable; invalid requests 400 and versions below a min-version stage\'s minimum 426, not retryable; Retry-After as chosen.' }),
});
