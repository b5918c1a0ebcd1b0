/**
 * The rate-limit stage: a rate limit keyed by IP, client, route or globally, with one limiter
 * per tier, counted per instance (local) or in one shared store (rate-limit-store.ts), with
 * each instance's clock skew, and what it saw for the results (its top consumers).
 *
 * Why a module of its own: it is the one stage with a store, tiers, clocks and a report of
 * its own, as long as every other stage together; the other stages (stages.ts) are a few
 * lines each.
 */
import { stream } from '../../engine/rng.js';
import { OUTCOME_RATE_LIMITED } from '../outcomes.js';
import type { RequestView, Identities } from './request.js';
import type { RateLimiter, RateLimiterSpec } from './rate-limiters.js';
import { FixedWindowByServerClock } from './window-limiters.js';
import { makeRateLimiter } from './make-rate-limiter.js';
import { SharedStore } from './rate-limit-store.js';
import { KeyCounts, keyName } from './key-counts.js';
import type { RateLimitReport, TopKey } from './rate-limit-report.js';
import { PASS, type Stage, type StageSpec } from './stages.js';

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
