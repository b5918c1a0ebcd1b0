/**
 * Downstream services the server's routes call — above all a third-party provider with a
 * quota shared by every route that calls it (story 003: signup, login and session
 * revalidation all spend one auth provider's calls per minute). In front of the quota, our
 * own defences: a budget below it with shares reserved for critical routes, bulkheads per
 * route, and a breaker that fails routes over to local validation when the provider
 * answers 429. Quota use is recorded per bucket, with the time each alert threshold is
 * first crossed.
 */
import { SecondBuckets } from '../client/second-buckets.js';
import type { z } from 'zod';
import type { dependencySchema } from '../../scenario/schema-server.js';
import type { Recorder } from '../recorder.js';
import type { QuotaReport } from '../series.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_RATE_LIMITED } from '../outcomes.js';
import type { Rng } from '../../engine/rng.js';
import { sampler } from '../../engine/distributions.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import type { ServiceFaults } from './service-faults.js';

type DependencySpec = z.output<typeof dependencySchema>;


export class Dependency {
  private windowIndex = -1;
  private used = 0;
  private readonly usedBy: Float64Array;
  private readonly bulkhead: Float64Array;
  /** Calls per window held for each reserved route (its share x the budget); 0 for the others. */
  private readonly reserve: Float64Array;
  /** The routes with a reserve, whose unused part the others may not take. */
  private readonly reservedRoutes: Int32Array;
  /** The budget in calls per window: the guard's share of the quota. */
  private readonly pool: number;
  private readonly failover: Uint8Array;
  private failoverUntil = -Infinity;
  /** With failover.when: calls to the provider (a) and its refusals (b) per second over the window. */
  private readonly refusals: SecondBuckets | undefined;
  /** forced[route] > 0: an operator switched the route to local validation (a count, so two switches need two undos). */
  private readonly forced: Uint8Array;
  private readonly latency?: () => number;
  /** Without a guard, every call goes to the provider, which alone decides. */
  private readonly guarded: boolean;
  private readonly alerts: Array<{ threshold: number; firstS: number | null }>;
  peakUsed = 0;
  providerRefused = 0;
  guardRefused = 0;
  failedOver = 0;
  /** Extra slot time of the last successful call. */
  lastLatency = 0;
  /**
   * Whether the last call that went through holds one of the dependency's `capacity` units,
   * to give back with release(): one validated locally (a failover, an operator's fallback)
   * made no call and holds none.
   */
  lastHeld = false;
  /** An error rate or a slowdown while a fault on this dependency is active (src/model/faults.ts). */
  faults: ServiceFaults | undefined;
  /** Calls in progress, and calls refused because capacity was full. */
  private inflight = 0;
  capacityRefused = 0;

  constructor(
    readonly name: string,
    readonly index: number,
    private readonly spec: DependencySpec,
    routes: string[],
    private readonly rec: Recorder,
    rng: Rng,
  ) {
    const limit = spec.quota?.limit ?? Infinity;
    const g = spec.guard;
    this.guarded = g !== undefined;
    // Without a guard the whole quota is ours.
    this.pool = (g ? g.budget : 1) * limit;
    const reserves = g?.reserve ?? {};
    this.usedBy = new Float64Array(routes.length);
    // Own keys only: a route named "constructor" has no bulkhead just because objects inherit one.
    const bulkheads = g?.bulkheads ?? {};
    this.bulkhead = Float64Array.from(routes, (r) => (Object.hasOwn(bulkheads, r) ? bulkheads[r] * limit : Infinity));
    // A reserve beyond the route's bulkhead could never be used: only what the route may use is held.
    this.reserve = Float64Array.from(routes, (r, i) => (Object.hasOwn(reserves, r) ? Math.min(reserves[r] * this.pool, this.bulkhead[i]) : 0));
    this.reservedRoutes = Int32Array.from(routes.flatMap((r, i) => (Object.hasOwn(reserves, r) ? [i] : [])));
    this.failover = Uint8Array.from(routes, (r) => (spec.failover?.routes.includes(r) ? 1 : 0));
    if (spec.failover?.when) this.refusals = new SecondBuckets(1, spec.failover.when.window);
    this.forced = new Uint8Array(routes.length);
    this.routeNames = routes;
    if (spec.latency) this.latency = sampler(toDistributionSpec(spec.latency), rng);
    this.alerts = (spec.alertAt ?? []).map((threshold) => ({ threshold, firstS: null }));
  }

  private readonly routeNames: string[];

  /**
   * An operator switches these routes to the fallback (story 003: local JWT validation): they
   * stop calling the provider until the returned undo runs. Default: the failover's routes,
   * or else every route (a route that never calls this dependency is not affected anyway).
   */
  forceFallback(routes?: readonly string[]): () => void {
    const names = routes ?? this.spec.failover?.routes ?? this.routeNames;
    const idx = names.map((r) => this.routeNames.indexOf(r)).filter((i) => i >= 0);
    for (const i of idx) this.forced[i]++;
    return () => { for (const i of idx) this.forced[i]--; };
  }

  /** Share of the quota used in the current window at `now` (0 without a quota). */
  quotaUse(now: number): number {
    const limit = this.spec.quota?.limit;
    if (limit === undefined) return 0;
    this.roll(now);
    return this.used / limit;
  }

  /** One call from `route` at `now`: OK (lastLatency set), or the outcome of its failure. */
  call(route: number, now: number): number {
    this.lastLatency = 0;
    this.lastHeld = false;
    if (this.forced[route] > 0) {
      this.failedOver++;
      return OUTCOME_OK; // validated locally by an operator's switch: no call, no quota
    }
    const limit = this.spec.quota?.limit ?? Infinity;
    if (limit < Infinity) this.roll(now);
    if (this.spec.capacity !== undefined && this.inflight >= this.spec.capacity) {
      this.capacityRefused++;
      return OUTCOME_DEPENDENCY; // the pool is exhausted: fail at once
    }
    if (this.failover[route] && now < this.failoverUntil) {
      this.failedOver++;
      return OUTCOME_OK; // validated locally: no call, no quota
    }
    // Our guard, before the provider: bulkhead per route, then the budget with its reserves.
    if (this.guarded && (this.usedBy[route] >= this.bulkhead[route] || this.used >= this.allowance(route))) {
      this.guardRefused++;
      return OUTCOME_RATE_LIMITED;
    }
    const f = this.faults;
    if (this.isDown(now) || this.used >= limit || (f !== undefined && f.errorRate > 0 && f.errorRng() < f.errorRate)) {
      this.providerRefused++;
      if (this.failsOver(now, true)) this.failoverUntil = now + this.spec.failover!.openFor;
      this.rec.dependencyCall(this.index, now, false);
      return OUTCOME_DEPENDENCY;
    }
    if (this.refusals) this.failsOver(now, false);
    this.used++;
    this.usedBy[route]++;
    this.rec.dependencyCall(this.index, now, true);
    if (limit < Infinity) {
      const use = this.used / limit;
      if (use > this.peakUsed) this.peakUsed = use;
      for (const a of this.alerts) if (a.firstS === null && use >= a.threshold) a.firstS = now;
    }
    if (this.latency) this.lastLatency = this.latency();
    if (f !== undefined && f.slow) this.lastLatency = this.lastLatency * f.factor + (f.add ? f.add() : 0);
    if (this.spec.capacity !== undefined) {
      this.inflight++;
      this.lastHeld = true;
    }
    return OUTCOME_OK;
  }

  /**
   * Counts a call the provider answered (refused or not) and says whether the failover opens:
   * at any refusal without `when`; with it, at a refusal that brings the refused share of the
   * window's calls to `refusedShare`, once the window holds `minCalls`.
   */
  private failsOver(now: number, refused: boolean): boolean {
    const fo = this.spec.failover;
    if (!fo) return false;
    const w = this.refusals;
    if (!w || !fo.when) return refused;
    const slot = w.slot(0, now);
    w.a[slot]++;
    if (refused) w.b[slot]++;
    if (!refused) return false;
    const calls = w.sumA(0);
    return calls >= fo.when.minCalls && w.sumB(0) >= fo.when.refusedShare * calls;
  }

  /**
   * How much of this window's budget `route` may have been used when it calls: the budget
   * less what the other reserved routes have not yet used of their reserves. A reserve is
   * held for its route, not taken from the others' share: a route without a reserve is
   * refused only where calling would eat into a reserve still unused, and a reserved route
   * may use its own reserve, the unreserved part and what the other reserves have spent.
   * So each reserved route is served up to its reserve in every window whatever came first
   * (the others' calls never touch it), and no route is refused while the budget has room
   * that no reserve is waiting for. (Refusing non-reserved routes once *total* use reached
   * the unreserved part starved signups in story 003 with no attack at all: login and
   * session alone reached it 18 s into every minute.)
   */
  private allowance(route: number): number {
    let held = 0;
    const rs = this.reservedRoutes;
    for (let k = 0; k < rs.length; k++) {
      const r = rs[k];
      if (r !== route) held += Math.max(0, this.reserve[r] - this.usedBy[r]);
    }
    return this.pool - held;
  }

  /** A call that holds a capacity unit (lastHeld) is over: the request holding it finished. */
  release(): void {
    this.inflight--;
  }

  private roll(now: number): void {
    const w = Math.floor(now / this.spec.quota!.window);
    if (w !== this.windowIndex) {
      this.windowIndex = w;
      this.used = 0;
      this.usedBy.fill(0);
    }
  }

  private isDown(now: number): boolean {
    for (const o of this.spec.outages ?? []) if (now >= o.at && now < o.at + o.duration) return true;
    return false;
  }

  report(): QuotaReport {
    return {
      name: this.name,
      limit: this.spec.quota?.limit ?? 0,
      windowS: this.spec.quota?.window ?? 0,
      peakWindowUse: this.peakUsed,
      providerRefused: this.providerRefused,
      guardRefused: this.guardRefused,
      failedOver: this.failedOver,
      alerts: this.alerts.map((a) => ({ ...a })),
    };
  }
}
