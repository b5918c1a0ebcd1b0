/**
 * The client side of the scenario format: populations, their layered retries (queue,
 * app, HTTP library, proxy…), the limits shared across a client's or a process's requests
 * (retry budgets, throttles, circuit breakers) and how the people behind them behave.
 *
 * Layer fields have no schema defaults on purpose: a layer may name a preset (the
 * documented defaults of a real library), and only the fields the scenario writes override
 * it. The values used when neither says anything are in src/model/client/layer-spec.ts and
 * in each field's description.
 */
import { z } from 'zod';
import { durationSchema, durationOrNone, positiveInt, versionSchema, name, routeName } from './schema-primitives.js';
import { LIMITS, MAX_HEDGES } from './limits.js';
import { IDENTITY_DEFAULTS } from './server-defaults.js';
import { closest } from './problems.js';
import { arrivalsSchema } from './schema-arrivals.js';
import { distributionSchema } from './schema-distributions.js';
import { PRESET_NAMES, PRESET_REF_PATTERN, parsePresetRef } from './preset-names.js';
import { parseDuration } from './units.js';

/** A hedge delay: a duration ("50ms"), or a percentile of the layer's observed latency ("p95"), as { percentile: 0.95 }. */
const hedgeDelaySchema = z
  .union([z.string(), z.number()], { error: () => 'expected a duration such as "50ms", or a latency percentile such as "p95"' })
  .transform((text, ctx): number | { percentile: number } => {
    const m = typeof text === 'string' ? /^p(\d{1,2}(?:\.\d+)?)$/.exec(text) : null;
    if (m) {
      const p = Number(m[1]);
      if (p >= 50 && p < 100) return { percentile: p / 100 };
      ctx.addIssue({ code: 'custom', message: `a hedge percentile is between p50 and p99.9 (got ${text}): hedging below the median would send most requests twice` });
      return z.NEVER;
    }
    const r = parseDuration(text);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: `${r.message}; or a latency percentile such as "p95"` });
      return z.NEVER;
    }
    return r.value;
  })
  .meta({
    description: 'How long a try waits before a hedge is sent: a duration ("50ms"), or a percentile of the latency of this layer\'s answered attempts ("p95", tracked over its last 1,000 answers; no hedge is sent before 100 answers have been seen).',
    // For editors: a duration or a percentile (the JSON Schema's duration unit would refuse "p95").
    pattern: '^\\s*((\\d+(\\.\\d+)?(ms|s|m|h|d))+|p\\d{1,2}(\\.\\d+)?)\\s*$',
  });

export const hedgeSchema = z
  .strictObject({
    delay: hedgeDelaySchema,
    maxHedges: z.number().int().min(1).max(MAX_HEDGES).default(1).meta({ description: `Hedges per try at most, sent \`delay\` apart while no attempt of the try has answered (at most ${MAX_HEDGES}, as gRPC's maxAttempts of 5).` }),
    budget: z.number().min(0).max(1).default(0.05).meta({
      description: 'Hedges as a share of tries at most: every try adds this many tokens (up to 10), a hedge spends one; without a token the hedge is not sent (Dean and Barroso\'s "a few percent" of extra load).',
    }),
  })
  .meta({
    description: 'Hedged requests (Dean and Barroso, "The Tail at Scale", 2013; gRPC\'s hedgingPolicy, Envoy\'s hedge_policy): while a try\'s attempt is still out after `delay`, send another attempt of the same try; the first success wins and the others are cancelled (the client stops waiting; the server may still do their work, counted as wasted). A failed attempt waits for the others; the try fails when all have failed, and the layer may then retry it. Only on the innermost layer (the one that sends attempts). The per-try timeout covers all of a try\'s attempts.',
  });

const fraction = (what: string) => z.number().min(0).max(1).meta({ description: what });
const scope = z
  .enum(['client', 'population'])
  .optional()
  .meta({ description: 'Whose requests share the state: each client its own ("client", default), or every client of the population, like one proxy or process ("population").' });

export const JITTERS = ['none', 'full', 'equal', 'decorrelated', 'decorrelated-v2', 'proportional', 'scaled'] as const;

export const backoffSchema = z
  .strictObject({
    kind: z.enum(['none', 'constant', 'linear', 'exponential', 'visibility']).optional().meta({
      description: 'none: retry at once; constant: base; linear: base*n; exponential: base*multiplier^(n-1); visibility: when the failed try\'s timeout (a queue\'s visibility timeout) expires. Default exponential.',
    }),
    base: durationSchema('Wait before the first retry, before jitter (default 100ms); for decorrelated jitters, the minimum and the median first delay.').optional(),
    multiplier: z.number().min(1).optional().meta({ description: 'Growth per retry for exponential (default 2).' }),
    max: durationSchema('Upper bound on linear and exponential waits, and on decorrelated jitter (default 10s).').optional(),
    jitter: z.enum(JITTERS).optional().meta({
      description: 'none; full: uniform(0, cap); equal: cap/2 + uniform(0, cap/2); decorrelated (AWS): min(max, uniform(base, 3*previous)); decorrelated-v2 (Polly): median first retry ≈ base; proportional: cap * (1 ± jitterFactor); scaled: cap * uniform(jitterMin, jitterMax), which may exceed max (gRPC since gRFC A6 was updated in 2024: 0.8 to 1.2). Default full.',
    }),
    jitterFactor: fraction('For proportional jitter: the relative spread, e.g. 0.2 = ±20% (default 0.2).').optional(),
    jitterMin: z.number().min(0).optional().meta({ description: 'For scaled jitter: the smallest factor applied to the wait (default 0.8).' }),
    jitterMax: z.number().min(0).optional().meta({ description: 'For scaled jitter: the largest factor applied to the wait (default 1.2); not below jitterMin.' }),
  })
  .refine((b) => b.jitterMin === undefined || b.jitterMax === undefined || b.jitterMin <= b.jitterMax, {
    message: 'jitterMax must not be below jitterMin',
    path: ['jitterMax'],
  })
  .meta({ description: 'Wait before a retry (n = the retry\'s number, from 1).' });

const retryOnItem = z.union([z.enum(['timeout', 'reset', '5xx', '4xx']), z.number().int().min(400).max(599)]);

export const budgetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('grpc-throttle'),
      maxTokens: z.number().positive().meta({ description: 'gRPC retryThrottling.maxTokens.' }),
      tokenRatio: z.number().positive().meta({ description: 'gRPC retryThrottling.tokenRatio: tokens regained per success.' }),
      scope,
    }).meta({ description: 'gRPC retry throttling: tokens start at maxTokens; a failure costs 1, a success adds tokenRatio; retries are allowed while tokens > maxTokens/2.' }),
    z.strictObject({
      kind: z.literal('aws-quota'),
      capacity: z.number().positive().default(500).meta({ description: 'Initial retry quota.' }),
      transientCost: z.number().positive().default(10).meta({ description: 'Quota a retry after a transient failure takes: a timeout, a reset or a 5xx (14 with the SDKs\' 2026 defaults).' }),
      throttlingCost: z.number().positive().default(5).meta({ description: 'Quota a retry after a throttling answer (429) takes.' }),
      successRefund: z.number().min(0).default(1).meta({ description: 'Quota a success without retry refunds.' }),
      refill: z.enum(['capped', 'floor']).default('capped').meta({
        description: 'What a success does to the quota: capped: min(capacity, quota + refund), as specified; floor: max(capacity, quota + refund), what @smithy/util-retry did before 4.3.0: a success puts the quota back to at least the capacity, and it grows without limit.',
      }),
      scope,
    }).meta({ description: 'AWS SDK standard retry quota: a retry needs its cost in the bucket; a success returns the retry\'s cost (or successRefund for a first try).' }),
    z.strictObject({
      kind: z.literal('envoy-budget'),
      budgetPercent: z.number().min(0).max(100).default(20).meta({ description: 'Retries in flight allowed, as a percent of requests in flight.' }),
      minRetryConcurrency: z.number().int().min(0).default(3).meta({ description: 'Retries in flight always allowed.' }),
      scope,
    }).meta({ description: 'Envoy retry budget (cluster circuit breakers retry_budget).' }),
    z.strictObject({
      kind: z.literal('envoy-max-retries'),
      maxRetries: z.number().int().min(0).default(3).meta({ description: 'Concurrent retries allowed (Envoy circuit breaker max_retries).' }),
      scope,
    }),
    z.strictObject({
      kind: z.literal('finagle'),
      ttl: durationSchema('Window over which deposits count.').prefault('10s'),
      minRetriesPerSec: z.number().min(0).default(10).meta({ description: 'Retries per second always allowed.' }),
      percentCanRetry: z.number().min(0).default(0.2).meta({ description: 'Retries allowed per deposit, as a fraction.' }),
      deposit: z.enum(['success', 'request']).default('success').meta({
        description: 'When a request deposits: success: once it ends with a successful response, an answer the layer does not retry (Finagle\'s RequeueFilter); request: when it starts (the RetryFilter of a RetryPolicy).',
      }),
      perRequest: z.union([z.number().min(0), z.literal('none')]).default(0.2).meta({
        description: 'A request may retry at most ceil(perRequest × balance) times, the balance read when it starts (Finagle\'s MaxRequeuesPerReq); "none" lifts the cap.',
      }),
      scope,
    }).meta({ description: 'Finagle RetryBudget: deposits fund retries, each retry withdraws; a retry is allowed while the balance, minRetriesPerSec*ttl + percentCanRetry*deposits in the last ttl - retries in the last ttl, is at least 1.' }),
    z.strictObject({
      kind: z.literal('sre-throttle'),
      k: z.number().min(1).default(2).meta({ description: 'Multiplier K.' }),
      window: durationSchema('Window of the request and accept counts.').prefault('2m'),
      scope,
    }).meta({ description: 'Google SRE client-side adaptive throttling: a request is refused locally with probability max(0, (requests - K*accepts) / (requests + 1)).' }),
  ], { error: () => 'expected kind: grpc-throttle, aws-quota, envoy-budget, envoy-max-retries, finagle or sre-throttle' })
  .meta({ description: 'A limit on retries shared across requests. Its state is per client unless `scope: population`: with a population\'s 1000 clients (the default), one client sends few requests, so a per-client envoy-budget, envoy-max-retries or finagle budget almost never binds (docs/presets.md). Write `scope: population` for one budget shared by the whole population, like one process or proxy.' });

export const breakerSchema = z
  .strictObject({
    mode: z.enum(['all', 'retries']).optional().meta({
      description: 'all (default): while open it refuses every try (Resilience4j); retries: a retry breaker (Brooker): first tries always go and keep measuring, and the layer retries only while the failure ratio in the window is below the threshold (openFor, halfOpenCalls and whenOpen do not apply).',
    }),
    window: z
      .union([z.strictObject({ calls: positiveInt(1_000_000, 'calls in the window') }), z.strictObject({ time: durationSchema('Sliding time window.') })])
      .default({ calls: 100 })
      .meta({ description: 'Count-based ({calls: 100}) or time-based ({time: 60s}) window.' }),
    failureRateThreshold: fraction('Open when the failure rate in the window reaches this.').default(0.5),
    minimumCalls: positiveInt(1_000_000, 'calls').default(100).meta({ description: 'Calls needed in the window before the rate counts.' }),
    openFor: durationSchema('How long it stays open before half-open (default 60s).').optional(),
    halfOpenCalls: positiveInt(10_000, 'calls').optional().meta({ description: 'Probe calls allowed when half-open (default 10).' }),
    whenOpen: z.enum(['fail', 'wait']).optional().meta({ description: 'What the caller does when the breaker refuses: fail the try at once (default) or wait until it closes.' }),
    scope,
  })
  .meta({ description: 'A circuit breaker in front of this layer\'s tries.' });

const configPath = (what: string) => z.string().min(1).meta({ description: `${what}, relative to the scenario file's folder.` });

export const fromConfigSchema = z
  .union([
    z.strictObject({
      envoy: configPath('An Envoy route configuration, listener or bootstrap file (YAML or JSON)'),
      route: z.string().optional().meta({ description: 'The route\'s name (needed when more than one route has a retry_policy). A virtual host\'s retry_policy applies to its routes that have none.' }),
    }),
    z.strictObject({
      grpc: configPath('A gRPC service config (JSON): methodConfig[].retryPolicy and retryThrottling'),
      service: z.string().optional().meta({ description: 'The service whose methodConfig is read (needed when several have a retryPolicy).' }),
      method: z.string().optional().meta({ description: 'The method, with service.' }),
    }),
    z.strictObject({
      istio: configPath('An Istio VirtualService (YAML): spec.http[].retries and timeout'),
      route: z.string().optional().meta({ description: 'The http route\'s name (needed when the VirtualService has several).' }),
    }),
  ], { error: () => 'expected from: { envoy: FILE, route: NAME }, { grpc: FILE, service: NAME } or { istio: FILE, route: NAME }' })
  .meta({
    description: 'Read this layer from a config the team deploys (docs/real-configs.md has the mapping, field by field): the fields it means are laid under the ones written here, like a preset\'s; a field the simulator cannot express is reported at its file:line:col. Not with preset.',
  });

export const layerSchema = z
  .strictObject({
    from: fromConfigSchema.optional(),
    preset: z
      .string({ error: `expected a preset name: ${PRESET_NAMES.join(', ')}` })
      // Checked by the same reader the model resolves presets with, so the message can name
      // the release lines a version must fall in. The pattern is for editors (JSON Schema).
      .superRefine((text, ctx) => {
        const name = text.split('@')[0];
        if (!(PRESET_NAMES as readonly string[]).includes(name)) {
          const guess = closest(name, PRESET_NAMES);
          ctx.addIssue({ code: 'custom', message: `unknown preset "${name}" ${guess ? `(did you mean "${guess}"?)` : `(expected one of: ${PRESET_NAMES.join(', ')})`}` });
          return;
        }
        const r = parsePresetRef(text);
        if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
      })
      .optional()
      .meta({
        description: `Start from a real library's documented defaults (see docs/presets.md): a name, or name@version for the behaviour of that release (e.g. aws-sdk-js-v3@3.600, grpc-java@1.70; aws-sdk-js-v3@3.800+locked for the packages a release resolved in its day rather than installed today); without a version, the current release. The fields written here override it. Names: ${PRESET_NAMES.join(', ')}.`,
        pattern: PRESET_REF_PATTERN.source,
        examples: [...PRESET_NAMES],
      }),
    maxAttempts: positiveInt(LIMITS.maxAttempts, 'tries per call').optional().meta({ description: 'Tries of this layer per call from the layer above, the first included (default 1: no retries).' }),
    timeout: durationOrNone('Per-try timeout ("none": wait, the default).').optional(),
    deadline: durationOrNone('Overall time for this layer\'s call, retries included; a try never outlives it ("none", the default).').optional(),
    backoff: backoffSchema.optional(),
    retryOn: z.array(retryOnItem).optional().meta({ description: 'What is retried: timeout, reset, 5xx, 4xx or status codes such as 429, 503 (default [timeout, reset, 5xx, 429]).' }),
    retryable: z.enum(['honour', 'ignore']).optional().meta({ description: 'honour (default): never retry an answer the server marked not retryable; ignore: retry by status only (old app versions).' }),
    retryAfter: z
      .strictObject({
        mode: z.enum(['ignore', 'honour', 'cap', 'give-up', 'exact', 'bounded']).meta({
          description: 'ignore; honour: wait max(backoff, Retry-After); cap: honour up to `cap`; give-up: honour, but stop retrying when it is above `max`; exact: wait Retry-After itself, not the backoff (got, go-retryablehttp, urllib3, gRPC pushback), at most `cap`, and stop retrying when it is above `max`; bounded: wait max(backoff, min(Retry-After, backoff + `bound`)) (AWS SDKs, bound 5s).',
        }),
        cap: durationSchema('For cap and exact: the longest wait a Retry-After can ask for (default none).').optional(),
        max: durationSchema('For give-up and exact: above this Retry-After, do not retry (default none).').optional(),
        bound: durationSchema('For bounded: how far past the backoff a Retry-After may push the wait (default none).').optional(),
      })
      .optional()
      .meta({ description: 'How Retry-After is treated (default ignore).' }),
    budget: budgetSchema.optional(),
    breaker: breakerSchema.optional(),
    deadLetter: z.boolean().optional().meta({ description: 'Calls that exhaust this layer go to a dead-letter queue (counted and charted) instead of failing silently (for queue layers).' }),
    hedge: hedgeSchema.optional(),
  })
  .meta({ description: 'One retry layer.' });

export const behaviourSchema = z
  .strictObject({
    giveUpAfter: durationSchema('A user abandons an action still unfinished after this long.').optional(),
    giveUpAfterFailures: positiveInt(1000, 'failures').optional().meta({ description: 'A user abandons an action after this many failed tries seen (by the outermost layer).' }),
    refresh: z
      .strictObject({
        probability: fraction('Chance that a user whose action failed starts it again by hand.'),
        after: durationSchema('How long they wait before refreshing (uniform between 0 and this).'),
        max: positiveInt(100, 'refreshes').default(3).meta({ description: 'Refreshes per action at most.' }),
      })
      .optional()
      .meta({ description: 'Users start a failed action again by hand (a page refresh): the same action starts over from its outermost layer, its attempts counted with the earlier ones.' }),
    leave: z
      .strictObject({
        probability: fraction('Chance that a person whose action ended without success (it failed, or they gave up on it) leaves the service for a while.'),
        comeBackAfter: distributionSchema.meta({ description: 'How long a person who left stays away before acting again, drawn at each departure: { kind: exponential, mean: 45m } is the usual shape (docs/people.md says where such numbers come from).' }),
        never: fraction('Share of those who leave that do not come back within the run (churn).').default(0),
        afterFailures: positiveInt(1000, 'failed actions').default(1).meta({ description: 'A person considers leaving only once this many of their actions in a row have ended without success (a success starts the count again): patience. Each failed action from then on is a chance to leave.' }),
      })
      .optional()
      .meta({
        description:
          'People give up on the service, not only on one action: after a failed action (or `afterFailures` in a row) a person leaves with `probability`, stays away for `comeBackAfter` (or for good, a share `never`), and starts no action meanwhile. ' +
          'The population\'s `clients` are its people: an open population\'s arrivals are spread over them, and an arrival that falls on a person who is away does not happen (counted as stayed away), so the arrival rate falls while the service fails and returns as they come back. ' +
          'A closed population\'s users come back to act when their time away ends. Pressing the button again is `refresh`, a retry by the person; this is the person going away.',
      }),
    invalidShare: fraction('Share of user actions whose request can never succeed (the server answers 400, not retryable).').optional(),
    attemptHeader: z.boolean().optional().meta({ description: 'Clients send their attempt number in a header (what server-side retry detection can read).' }),
    remoteSwitch: z
      .strictObject({
        at: durationSchema('When the switch is flipped.'),
        maxAttempts: positiveInt(LIMITS.maxAttempts, 'tries per call').optional().meta({ description: 'New max attempts of every layer (lowered, never raised).' }),
        minWait: durationSchema('New minimum wait before a retry.').optional(),
      })
      .optional()
      .meta({ description: 'A remote config switch, read by this population from `at` on.' }),
    offline: z
      .strictObject({
        from: durationSchema('Devices go offline at this time; actions queue on the device. Give with `to`, or give `fault` instead.').optional(),
        to: durationSchema('They reconnect at this time.').optional(),
        fault: z.number({ error: 'expected the index of a fault in `faults` (0 = the first)' }).int('expected a whole number (a fault index, 0 = the first)').min(0, 'expected a fault index: 0 = the first fault').optional().meta({
          description: 'Instead of from/to: the index of a fault in `faults` (0 = the first). The devices are offline exactly while that fault is active and flush when it ends, so a sweep of its `at` or `duration` moves the offline window with it.',
        }),
        flush: z
          .union([z.literal('at-once'), z.strictObject({ spreadPerAction: durationSchema('Each queued action adds this much to the flush window.') })])
          .meta({ description: 'at-once: every queued action is sent on reconnect; or spread over a window proportional to the queue.' }),
      })
      // Checked here so both forms stay one object (one table in the docs, one set of keys
      // for "did you mean"); that `fault` names an existing fault is checked in semantics.ts.
      .superRefine((o, ctx) => {
        const fixed = o.from !== undefined || o.to !== undefined;
        if (o.fault !== undefined && fixed) {
          ctx.addIssue({ code: 'custom', path: ['fault'], message: 'give either from and to (a fixed window) or fault (the window of one of the faults), not both' });
        } else if (o.fault === undefined && (o.from === undefined || o.to === undefined)) {
          ctx.addIssue({ code: 'custom', message: `give from and to (a fixed window), or fault (the index of the fault whose window the devices are offline for)${fixed ? `: "${o.from === undefined ? 'from' : 'to'}" is missing` : ''}` });
        }
      })
      .meta({ 'x-exactly-one-of': [['from', 'to'], ['fault']] })
      .optional()
      .meta({ description: 'Devices lose their network: actions started while offline queue on the device (no attempt is sent) and are flushed on reconnect. The window is either fixed (from, to) or that of one of the scenario\'s faults (fault).' }),
  })
  .meta({ description: 'How the people and devices behind the clients behave.' });

/**
 * What a population is for, which decides how its outcomes are judged (docs/measures.md,
 * "Whose numbers"). One list, read by the schema, the subject rule and every writer.
 */
export const ROLES = ['user', 'partner', 'internal', 'attacker'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a partner is entitled to: at most `limit` requests served in any span of `window`.
 * Its own shape rather than the rate-limit stage's algorithm union on purpose: the contract
 * is the promise, the stage is the limiter under test. A contract that named an algorithm
 * (a fixed window) would make the limiter's own flaw (twice the limit across a window
 * boundary) part of the promise, and the partner measures would judge it against itself.
 */
export const contractSchema = z
  .strictObject({
    limit: positiveInt(1e9, 'requests').meta({ description: 'Requests the partner may be served in any span of `window`.' }),
    window: durationSchema('The span the limit counts over (a sliding window: every span of this length, not calendar windows).', { positive: true }),
  })
  .meta({ description: 'What a partner is entitled to: at most `limit` requests served in any span of `window`, e.g. { limit: 100, window: 60s } for 100 a minute. Required for role partner, refused for the other roles.' });
export type Contract = z.output<typeof contractSchema>;

export const populationSchema = z
  .strictObject({
    description: z.string().optional().meta({ description: 'Who these clients are.' }),
    role: z
      .enum(ROLES)
      .default('user')
      .meta({
        description:
          'What this traffic is for, which decides how it is judged. ' +
          'user (default): people using the service; their success and recovery are the verdict. ' +
          'partner: a client held to a contract (an API key with a quota, see `contract`): refusing it above its quota is the policy working, not an outage, so it is left out of the verdict\'s users and judged instead by the partner measures (held to the contract, served up to it). ' +
          'internal: batch or internal traffic: in the verdict\'s users for success and recovery, but latency objectives ignore it. ' +
          'attacker: traffic the service is right to refuse (bots, scrapers, abuse): left out of success, perceived outage and recovery (it still loads the server).',
      }),
    contract: contractSchema.optional(),
    clients: positiveInt(LIMITS.clients, 'clients per population').default(1000).meta({ description: 'Number of distinct clients (each user action belongs to one, drawn uniformly).' }),
    arrivals: arrivalsSchema,
    retry: layerSchema.optional().meta({ description: 'A single retry layer (shorthand for layers: {app: …}).' }),
    layers: z.record(name, layerSchema).refine((r) => Object.keys(r).length <= LIMITS.layers, `at most ${LIMITS.layers} retry layers per population (a simulator limit: a call's state is kept per layer)`).optional().meta({
      maxProperties: LIMITS.layers,
      description: 'Retry layers by name, outermost first (e.g. queue, app, http, proxy); each retries calls to the layer below, the innermost calls the server.',
    }),
    behaviour: behaviourSchema.optional(),
    peopleOf: name.optional().meta({
      description:
        'The people behind these clients are those of another population: client c here belongs to person c there (the other population needs at least as many people: its clients, or users when closed). ' +
        'An action here does not start while its person is away (behaviour.leave of either population), so the sync jobs of an app\'s users stop when those users have left the app.',
    }),
    identity: z
      .strictObject({
        route: routeName.default(IDENTITY_DEFAULTS.route).meta({ description: 'The route these clients call; rate limits and detection key on it.' }),
        tier: z.string().optional().meta({ description: 'API-key tier (e.g. free, premium), for tiered rate limits.' }),
        clientsPerIp: positiveInt(1_000_000, 'clients per IP').default(IDENTITY_DEFAULTS.clientsPerIp).meta({ description: 'Clients sharing one IP address (NAT, a partner\'s egress), for per-IP limits.' }),
        idempotencyKeys: z.boolean().default(IDENTITY_DEFAULTS.idempotencyKeys).meta({ description: 'Requests carry an idempotency key: retry detection then never confuses two actions.' }),
        distinctBodies: positiveInt(1e9, 'bodies').default(IDENTITY_DEFAULTS.distinctBodies).meta({ description: 'Different request bodies a client sends; without idempotency keys two actions with the same body within the detection window look like a retry.' }),
        sendsDeadline: z.boolean().optional().meta({ description: 'Every attempt carries the client\'s remaining deadline (gRPC\'s grpc-timeout): the earliest end of its layers\' current tries and deadlines. A service passes it on to the calls that propagate deadlines (services.<name>.routes.<route>.services[].propagateDeadline; default false).' }),
        version: versionSchema('The app version these clients send with every request (e.g. "4.2.0", quoted); a server min-version stage refuses versions below its minimum. Without it, no version is sent and such a stage lets the requests through.').optional(),
      })
      .prefault({})
      .meta({ description: 'What the server can see of these clients.' }),
  })
  .refine((p) => !(p.retry && p.layers), { message: 'give either retry (one layer) or layers, not both', path: ['retry'] })
  // A partner without a contract would have nothing to be held to; the server's rate limit
  // is not taken instead: it is the policy under comparison, and a variant that raised it
  // would then read as "held" at any level.
  .superRefine((p, ctx) => {
    if (p.role === 'partner' && p.contract === undefined) {
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'a partner needs a contract: what it is entitled to, e.g. contract: { limit: 100, window: 60s } (100 requests in any minute); without one its refusals cannot be told from an outage' });
    } else if (p.role !== 'partner' && p.contract !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['contract'], message: `only a partner has a contract (this population's role is ${p.role}): set role: partner, or remove contract` });
    }
  })
  .meta({ 'x-at-most-one-of': ['retry', 'layers'] });

export type LayerInput = z.output<typeof layerSchema>;
export type Population = z.output<typeof populationSchema>;
export type BudgetSpec = z.output<typeof budgetSchema>;
export type BreakerSpec = z.output<typeof breakerSchema>;
export type Behaviour = z.output<typeof behaviourSchema>;
export type HedgeSpec = z.output<typeof hedgeSchema>;
