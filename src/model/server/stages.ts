/**
 * The stages of the server's pipeline, each a policy with one hook — SimPy's resource
 * idea: `check(request, now)` answers PASS, a delay before the request may go on, or a
 * refusal with its outcome. Stages run in the order the scenario lists them, before the
 * queue, and a refusal costs the server nothing but the answer.
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { Actions } from '../records.js';
import type { RequestView, Identities } from './request.js';
import type { Instance } from './instance.js';
import { OUTCOME_SHED, OUTCOME_RATE_LIMITED, OUTCOME_UNSUPPORTED_VERSION, OUTCOME_CHALLENGED } from '../outcomes.js';
import { compareVersions } from '../version.js';
import { makeRateLimiter, FixedWindowByServerClock, type RateLimiter, type RateLimiterSpec } from './rate-limiters.js';
import { makeConcurrencyLimit, type ConcurrencyLimit } from './concurrency-limits.js';
import { stream } from '../../engine/rng.js';
import { mix } from './hash.js';
import { Sightings } from './sightings.js';
import { SharedStore } from './rate-limit-store.js';
import { KeyCounts, keyName } from './key-counts.js';
import type { RateLimitReport, TopKey } from './rate-limit-report.js';
import type { z } from 'zod';
import type { stageSchema } from '../../scenario/schema-server.js';

export type StageSpec = z.output<typeof stageSchema>;

export const PASS = 0;

export interface Stage {
  /** PASS (0), a delay > 0 before going on, or -outcome to refuse (after req.refusalDelay, when the stage sets it). */
  check(req: RequestView, now: number): number;
}

/**
 * Retry detection as story 000 describes it: a fingerprint of client + route +
 * idempotency key (or body hash) remembered for a window, plus the attempt number a
 * client declares. Two different actions with the same body inside the window are a false
 * positive. The table's peak size is what a real server would have to hold.
 */
export class RetryDetection implements Stage {
  private readonly sightings: Sightings;
  // Bodies per (client, route): the widest population's, so body keys of two populations never overlap.
  private readonly bodies: number;

  constructor(
    private readonly window: number,
    private readonly useHeader: boolean,
    private readonly ids: Identities,
    private readonly actions: Actions,
    private readonly rec: Recorder,
  ) {
    this.sightings = new Sightings(window);
    this.bodies = Math.max(1, ...ids.pops.map((p) => p.distinctBodies));
  }

  /** The most fingerprints held at once. */
  get peakEntries(): number {
    return this.sightings.peak;
  }

  check(req: RequestView, now: number): number {
    const last = this.sightings.see(this.fingerprint(req), now);
    let detected = last >= 0 && now - last <= this.window;
    if (this.useHeader && req.declaredAttempt > 1) detected = true;
    if (detected) {
      req.detectedRetry = true;
      this.rec.detectedRetry(now, !req.isRetry);
    }
    return PASS;
  }

  private fingerprint(req: RequestView): number {
    const id = this.ids.pops[req.population];
    const act = req.action;
    const gen = this.actions.gen[act];
    if (id.idempotencyKeys) return -1 - (act * 1048576 + (gen & 0xfffff)); // one key per action
    // Without a key, the body identifies the request: a hash of the action picks one of the client's bodies.
    const body = mix(act * 65599 + gen) % id.distinctBodies;
    // Exact (no two bodies share a key) while it fits in 2^53; above (10^7 clients x 10^9
    // bodies), a 53-bit hash. Multiplying by large primes instead lost the low bits for
    // client ids above ~9,000 and merged neighbouring bodies into one key.
    const exact = (req.client * this.ids.routes.length + req.route) * this.bodies + body;
    if (exact <= Number.MAX_SAFE_INTEGER) return exact;
    const h = mix(req.client ^ mix(req.route + 1));
    return h * 2097152 + (mix(body ^ mix(h + 1)) & 0x1fffff);
  }
}

/** Admission control: refuse above capacity, and refuse detected retries above the originals' reserve. */
export class Admission implements Stage {
  private readonly retryLimit: number;
  constructor(private readonly capacity: number, reserve: number, private readonly instances: Instance[]) {
    // Rounded up to whole requests, with a tolerance: 100 x (1 - 0.7) is 30.000000000000004
    // in floats, which let a 31st retry in.
    this.retryLimit = Math.ceil(capacity * (1 - reserve) - 1e-9);
  }
  check(req: RequestView): number {
    const inFlight = this.instances[req.instance].outstanding;
    if (inFlight >= this.capacity) return -OUTCOME_SHED;
    if (req.detectedRetry && inFlight >= this.retryLimit) return -OUTCOME_SHED;
    return PASS;
  }
}

/**
 * A rate limit keyed by IP, client, route or globally, with one limiter per tier. Local:
 * each instance counts on its own (so N instances let N times the limit through), on its own
 * clock (clockSkew: offset from true time, so its windows start when its clock says); a
 * shared fixed window's key too is named on the sending instance's clock.
 * Shared: one store for all (rate-limit-store.ts), with its round trip, and its queue when
 * it has a capacity, added to each request; while it is unreachable, or when a check times
 * out, fail-open, fail-closed or a local fallback. The store's answer takes its time
 * whatever it says: a refused request gets its 429 after it too. It counts what each key
 * sent and had refused, for the top consumers (rate-limit-report.ts).
 */
export class RateLimit implements Stage {
  /** limiters[instance or 0][tier index] */
  private readonly shared: RateLimiter[];
  private readonly local: RateLimiter[][];
  private readonly tierOf: number[];
  private readonly storeDown: Array<[number, number]>;
  /** appliesTo[route index]: is this route limited? */
  private readonly appliesTo: Uint8Array;
  /** The shared store's queue and timeout (null for a local store). */
  readonly store: SharedStore | null;
  /** Each instance's clock offset from true time (s), read by its own limiters and by a shared fixed window's key. */
  readonly skew: Float64Array;
  /** Per tier: does the shared limiter read the sending server's clock (a fixed window with clockSkew)? */
  private readonly byServerClock: boolean[];
  /** Requests seen and refused per key, for the top consumers (null with topKeys 0: no memory spent). */
  readonly counts: KeyCounts | null;
  private checked = 0;
  private refused = 0;

  constructor(
    readonly spec: Extract<StageSpec, { kind: 'rate-limit' }>,
    instances: number,
    private readonly ids: Identities,
    seed = 0,
  ) {
    const tiers = spec.tiers ? Object.entries(spec.tiers) : [['*', spec.limit!] as const];
    const keys = spec.key === 'client' ? ids.clients : spec.key === 'ip' ? ids.ips : spec.key === 'route' ? ids.routes.length : 1;
    const make = () => tiers.map(([, t]) => makeRateLimiter(t as RateLimiterSpec, keys));
    const isShared = spec.store === 'shared';
    // A shared fixed window's key names the window on the sending server's clock (story 001's
    // rate-limit:<user>:<minute>): with clocks out of step it is counted as such.
    this.byServerClock = tiers.map(([, t]) => isShared && spec.clockSkew !== undefined && t.algorithm === 'fixed-window');
    this.shared = isShared
      ? tiers.map(([, t], i) => (this.byServerClock[i] && t.algorithm === 'fixed-window' ? new FixedWindowByServerClock(keys, t.limit, t.window) : makeRateLimiter(t as RateLimiterSpec, keys)))
      : [];
    const needLocal = !isShared || spec.onStoreFailure === 'local';
    this.local = needLocal ? Array.from({ length: instances }, make) : [];
    // A population without a tier (or with an unknown one) falls under the first tier.
    this.tierOf = ids.pops.map((p) => Math.max(0, tiers.findIndex(([name]) => name === p.tier)));
    this.storeDown = (spec.storeOutages ?? []).map((w) => [w.at, w.at + w.duration]);
    this.appliesTo = Uint8Array.from(ids.routes, (r) => (!spec.routes || spec.routes.includes(r) ? 1 : 0));
    this.store = isShared ? new SharedStore(spec.storeCapacity, spec.storeLatency, spec.storeTimeout ?? Infinity, spec.storeLoad ?? 0, stream(seed, 'server/rate-limit-store')) : null;
    this.skew = clockSkews(spec.clockSkew, instances, seed);
    this.counts = (spec.topKeys ?? DEFAULT_TOP_KEYS) > 0 ? new KeyCounts(keys) : null;
  }

  /** Bytes of limiter state, per key, that a shared store would hold. */
  get bytesPerKey(): number {
    return (this.shared[0] ?? this.local[0]?.[0])?.bytesPerKey ?? 0;
  }

  check(req: RequestView, now: number): number {
    if (!this.appliesTo[req.route]) return PASS;
    const key = this.spec.key === 'client' ? req.client : this.spec.key === 'ip' ? req.ip : this.spec.key === 'route' ? req.route : 0;
    const counts = this.counts;
    this.checked++;
    if (counts) counts.seen[key]++;
    const r = this.decide(req, key, now);
    if (r < 0) {
      this.refused++;
      if (counts) counts.refused[key]++;
    }
    return r;
  }

  private decide(req: RequestView, key: number, now: number): number {
    const tier = this.tierOf[req.population];
    const store = this.store;
    // The store fails when it is down (at once: the connection is refused) or when the check
    // times out (after the timeout); the fallback then decides, after that delay.
    let failedAfter = -1;
    if (store) {
      if (this.storeIsDown(now)) failedAfter = 0;
      else {
        const start = store.admit(now);
        if (start < 0) failedAfter = store.timeout;
        else {
          // Counted at the store, in order; the window is named by the server's clock when it is its key.
          const at = this.byServerClock[tier] ? now + this.skew[req.instance] : start;
          return this.answer(req, this.shared[tier], key, at, store.answerDelay(start, now));
        }
      }
      const mode = this.spec.onStoreFailure;
      if (mode === 'open') return failedAfter > 0 ? failedAfter : PASS;
      if (mode === 'closed') {
        req.refusalDelay = failedAfter;
        return -OUTCOME_RATE_LIMITED;
      }
    }
    // Local: the instance's own limiter, on the instance's own clock.
    return this.answer(req, this.local[req.instance][tier], key, now + this.skew[req.instance], Math.max(0, failedAfter));
  }

  /** The limiter's decision at time `at` (its clock), answered `latency` after now. */
  private answer(req: RequestView, limiter: RateLimiter, key: number, at: number, latency: number): number {
    const d = limiter.check(key, at);
    if (d < 0) {
      req.retryAfter = limiter.retryAfter(key, at);
      req.refusalDelay = latency; // the store's "no" takes its round trip too
      return -OUTCOME_RATE_LIMITED;
    }
    const total = d + latency;
    return total > 0 ? total : PASS;
  }

  private storeIsDown(now: number): boolean {
    for (const [a, b] of this.storeDown) if (now >= a && now < b) return true;
    return false;
  }

  /** What the stage saw over the run, its top `topKeys` consumers named for people. */
  report(stage: number, populations: readonly string[]): RateLimitReport {
    const n = this.spec.topKeys ?? DEFAULT_TOP_KEYS;
    const c = this.counts;
    const named = (k: number): TopKey => ({ key: keyName(this.spec.key, k, this.ids, populations), seen: c!.seen[k], refused: c!.refused[k] });
    const s = this.store;
    return {
      stage,
      key: this.spec.key,
      store: this.spec.store,
      checked: this.checked,
      refused: this.refused,
      sharedStore: s ? { checks: s.checks, waitS: s.waitS, waitMaxS: s.waitMaxS, timeouts: s.timeouts } : null,
      topBySeen: c ? c.top(n, c.seen, c.refused).map(named) : [],
      topByRefused: c ? c.top(n, c.refused, c.seen).map(named) : [],
    };
  }
}

/** Top consumers listed per rate-limit stage when the scenario does not say (topKeys). */
export const DEFAULT_TOP_KEYS = 5;

/**
 * Each instance's clock offset (s): none without clockSkew; `max`: drawn uniformly in
 * [-max, max] per instance from the seed's own stream (the same offsets for every stage of
 * a run: the instance has one clock); `offsets`: instance i takes offsets[i mod n].
 */
export function clockSkews(spec: Extract<StageSpec, { kind: 'rate-limit' }>['clockSkew'], instances: number, seed: number): Float64Array {
  const out = new Float64Array(instances);
  if (!spec) return out;
  const { offsets, max = 0 } = spec;
  if (offsets) {
    for (let i = 0; i < instances; i++) out[i] = offsets[i % offsets.length];
    return out;
  }
  const rng = stream(seed, 'server/clock-skew');
  for (let i = 0; i < instances; i++) out[i] = (2 * rng() - 1) * max;
  return out;
}

/**
 * A minimum supported client version (story 000): requests from apps older than the
 * minimum get 426 Upgrade Required, not retryable, before any work. Versions are per
 * population, so the verdict is computed once per population, not per request. A
 * population that sends no version passes: the server cannot refuse what it cannot see.
 */
export class MinVersion implements Stage {
  private readonly refused: Uint8Array;
  constructor(minimum: string, ids: Identities) {
    this.refused = Uint8Array.from(ids.pops, (p) => (p.version !== undefined && compareVersions(p.version, minimum) < 0 ? 1 : 0));
  }
  check(req: RequestView): number {
    return this.refused[req.population] ? -OUTCOME_UNSUPPORTED_VERSION : PASS;
  }
}

/** Netflix-style adaptive concurrency limit, one limiter per instance, fed by its completions. */
export class AdaptiveConcurrency implements Stage {
  readonly limits: ConcurrencyLimit[];
  /** What stops each instance feeding this stage's limiter (empty while detached). */
  private unlisten: Array<() => void> = [];
  constructor(spec: Extract<StageSpec, { kind: 'adaptive-concurrency' }>, private readonly instances: Instance[], rng: () => number) {
    this.limits = instances.map(() => makeConcurrencyLimit(spec, rng));
    this.attach();
  }
  /** Feeds each instance's completions to its limiter (again, after an operator put the stage back). */
  attach(): void {
    this.detach();
    this.unlisten = this.instances.map((inst, i) => {
      const limit = this.limits[i];
      return inst.listenToCompletions((now, rtt, inflight, dropped) => limit.onSample(now, rtt, inflight, dropped));
    });
  }
  /** Stops feeding this stage's limiters, and only them: the stage left the pipeline. */
  detach(): void {
    for (const stop of this.unlisten) stop();
    this.unlisten = [];
  }
  check(req: RequestView): number {
    return this.instances[req.instance].outstanding >= this.limits[req.instance].limit ? -OUTCOME_SHED : PASS;
  }
}

/**
 * Load shedding on a signal of the instance a request is routed to: the length of its
 * queue, or how long its oldest queued attempt has waited (a latency signal, the one users
 * feel). While the signal is above its threshold a share of requests is refused before it
 * queues, optionally only those detected as retries. It is a stage rather than an operator
 * action because shedding has to follow the signal request by request; an alert checked
 * every few seconds is too slow and too coarse for it.
 */
export class Shed implements Stage {
  private readonly queueAbove: number;
  private readonly waitAbove: number;
  private readonly share: number;
  private readonly retriesOnly: boolean;
  constructor(spec: Extract<StageSpec, { kind: 'shed' }>, private readonly instances: Instance[], private readonly rng: () => number) {
    this.queueAbove = spec.queueAbove ?? Infinity;
    this.waitAbove = spec.waitAbove ?? Infinity;
    this.share = spec.share;
    this.retriesOnly = spec.retriesOnly;
  }
  check(req: RequestView, now: number): number {
    const inst = this.instances[req.instance];
    if (!(inst.queued > this.queueAbove || inst.oldestWait(now) > this.waitAbove)) return PASS;
    if (this.retriesOnly && !req.detectedRetry) return PASS;
    if (this.share < 1 && this.rng() >= this.share) return PASS;
    return -OUTCOME_SHED;
  }
}

/**
 * A bot challenge at the edge, as story 003 asks for ("a barrier against bots, a captcha or
 * an invisible challenge, before any external call: the automated request dies at your edge
 * and spends nobody's quota"). Automated clients (role attacker) are answered 403 with a
 * challenge unless they pass (share `bots`). People pass an invisible challenge, except a
 * share `people` of their actions, challenged on the first try: a person who solves it sends
 * the request again, and a try of that action at least `solveTime` after the challenge passes
 * (the clearance lasts the action); a sooner one, a library retrying on its own, is challenged
 * again. Which actions are challenged is drawn per action from the stage's own stream.
 *
 * The challenged actions are held in a Sightings table that forgets them after CHALLENGE_FORGET_S:
 * someone who has not come back in ten minutes has left.
 */
/** How long a challenged action waits for its person to come back before it is forgotten. */
export const CHALLENGE_FORGET_S = 600;

export class Challenge implements Stage {
  private readonly routes: Uint8Array | null;
  private readonly automated: Uint8Array;
  private readonly waiting = new Sightings(CHALLENGE_FORGET_S);
  private readonly people: number;
  private readonly bots: number;
  private readonly solveTime: number;

  constructor(spec: Extract<StageSpec, { kind: 'challenge' }>, ids: Identities, private readonly actions: Actions, private readonly rng: () => number) {
    this.routes = spec.routes ? Uint8Array.from(ids.routes, (r) => (spec.routes!.includes(r) ? 1 : 0)) : null;
    this.automated = Uint8Array.from(ids.pops, (p) => (p.automated ? 1 : 0));
    this.people = spec.people;
    this.bots = spec.bots;
    this.solveTime = spec.solveTime;
  }

  check(req: RequestView, now: number): number {
    if (this.routes && !this.routes[req.route]) return PASS;
    if (this.automated[req.population]) return this.bots > 0 && this.rng() < this.bots ? PASS : -OUTCOME_CHALLENGED;
    const key = req.action * 1048576 + (this.actions.gen[req.action] & 0xfffff);
    const challenged = this.waiting.last(key, now);
    // Solved: this try came at least solveTime after the challenge (the entry stays, harmless, until forgotten).
    if (challenged >= 0) return now - challenged < this.solveTime ? -OUTCOME_CHALLENGED : PASS;
    // A retry of an action whose first try passed keeps its clearance.
    if (req.isRetry || this.people === 0 || this.rng() >= this.people) return PASS;
    this.waiting.see(key, now);
    return -OUTCOME_CHALLENGED;
  }
}

export function makeStage(spec: StageSpec, ctx: { instances: Instance[]; ids: Identities; actions: Actions; rec: Recorder; engine: Engine; seed: number; rateLimits?: RateLimit[] }): Stage {
  switch (spec.kind) {
    case 'retry-detection':
      return new RetryDetection(spec.window, spec.useHeader, ctx.ids, ctx.actions, ctx.rec);
    case 'admission':
      return new Admission(spec.capacity, spec.reserveForOriginals, ctx.instances);
    case 'rate-limit':
    {
      // Every rate limit made, in order, also one an operator removed later: the results report each.
      const stage = new RateLimit(spec, ctx.instances.length, ctx.ids, ctx.seed);
      ctx.rateLimits?.push(stage);
      return stage;
    }
    case 'adaptive-concurrency':
      return new AdaptiveConcurrency(spec, ctx.instances, stream(ctx.seed, 'server/concurrency-limit'));
    case 'min-version':
      return new MinVersion(spec.minimum, ctx.ids);
    case 'shed':
      return new Shed(spec, ctx.instances, stream(ctx.seed, 'server/shed'));
    case 'challenge':
      return new Challenge(spec, ctx.ids, ctx.actions, stream(ctx.seed, 'server/challenge'));
  }
}
