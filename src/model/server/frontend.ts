/**
 * The server as clients meet it: a load balancer in front of instances, and the pipeline
 * of stages every request goes through before an instance's queue. It also writes the
 * response contract: the Retry-After on each 503 and 429 (none, fixed, spread per client
 * as base + hash(client) mod window, or random), or the rate limiter's own reset time.
 */
import type { Engine } from '../../engine/engine.js';
import { stream, type Rng } from '../../engine/rng.js';
import { sampler } from '../../engine/distributions.js';
import type { Scenario } from '../../scenario/schema.js';
import type { Recorder } from '../recorder.js';
import type { Actions, Attempts } from '../records.js';
import { ATTEMPT_INVALID } from '../records.js';
import { OUTCOME_INVALID, OUTCOME_OK, OUTCOME_RATE_LIMITED, statusOf, type Wire } from '../outcomes.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import { Instance, type RouteHandler } from './instance.js';
import { Dependency } from './dependencies.js';
import { RequestView, type Identities } from './request.js';
import { makeStage, mix, RetryDetection, type Stage } from './stages.js';

/** The clients' side of an answer. */
export type AnswerSink = (attempt: number, outcome: number, retryAfter: number) => void;

export class Frontend {
  readonly instances: Instance[];
  readonly ids: Identities;
  readonly dependencies: Dependency[];
  private readonly stages: Stage[];
  private readonly req: RequestView;
  private readonly lbRng: Rng;
  private readonly raRng: Rng;
  private nextInstance = 0;
  /** Server time spent refusing requests in the pipeline (rejectionCost each). */
  rejectionWorkS = 0;
  private readonly kResume: number;
  // Requests held by a stage's delay (a shared store's round trip, a leaky-bucket queue).
  private readonly held: Array<[number, number, number, number, boolean]> = []; // attempt, gen, next stage, instance, detected retry
  private readonly freeHeld: number[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly actions: Actions,
    private readonly rec: Recorder,
    private readonly s: Scenario,
    ids: Identities,
    seed: number,
    private readonly answer: AnswerSink,
    private readonly wire: Wire,
  ) {
    const spec = s.server;
    this.ids = ids;
    const defaultService = sampler(toDistributionSpec(spec.serviceTime), stream(seed, 'server/service'));
    this.dependencies = Object.entries(spec.dependencies ?? {}).map(
      ([name, d], i) => new Dependency(name, i, d, ids.routes, rec, stream(seed, `server/dependencies/${name}`)),
    );
    const routes: RouteHandler[] = ids.routes.map((r) => {
      // Own keys only: a route named "constructor" or "toString" must not find an inherited member.
      const rs = spec.routes && Object.hasOwn(spec.routes, r) ? spec.routes[r] : undefined;
      return {
        serviceTime: rs?.serviceTime ? sampler(toDistributionSpec(rs.serviceTime), stream(seed, `server/routes/${r}/service`)) : defaultService,
        calls: (rs?.calls ?? []).map((name) => this.dependencies.find((d) => d.name === name)!),
      };
    });
    this.instances = Array.from(
      { length: spec.instances },
      () =>
        new Instance(engine, attempts, rec, {
          slots: spec.slots,
          queueCapacity: spec.queue === 'unbounded' ? Infinity : spec.queue,
          lifo: spec.discipline === 'lifo',
          codel:
            spec.codel || spec.discipline === 'adaptive-lifo'
              ? { target: spec.codel?.target ?? 0.005, interval: spec.codel?.interval ?? 0.1, adaptiveLifo: spec.discipline === 'adaptive-lifo' }
              : undefined,
          contention: spec.contention ? { factor: spec.contention.factor, exponent: spec.contention.exponent ?? 1 } : undefined,
          dropAbandoned: spec.dropAbandoned,
          deadline: spec.deadline,
          failFastTime: spec.failFastTime,
          routes,
        }, this.respond),
    );
    rec.slotsChanged(0, spec.slots * spec.instances);
    this.req = new RequestView(this.ids, attempts, actions);
    this.stages = spec.stages.map((st) => makeStage(st, { instances: this.instances, ids: this.ids, actions, rec, engine, seed }));
    this.lbRng = stream(seed, 'server/balancer');
    this.raRng = stream(seed, 'server/retry-after');
    this.kResume = engine.on((h) => this.resume(h));
  }

  /** Peak size of the retry-detection table, if there is one (entries). */
  get fingerprintPeakEntries(): number {
    const d = this.stages.find((st): st is RetryDetection => st instanceof RetryDetection);
    return d ? d.peakEntries : 0;
  }

  /** A request reaches the load balancer. */
  readonly arrive = (a: number): void => {
    if ((this.attempts.flags[a] & ATTEMPT_INVALID) !== 0) {
      // Validation fails before any work: a fast 400 that will never turn into a 200.
      this.answer(a, OUTCOME_INVALID, NaN);
      return;
    }
    const req = this.stages.length ? this.req.fill(a) : this.req;
    req.instance = this.pick();
    this.run(a, this.attempts.gen[a], 0, req.instance);
  };

  private pick(): number {
    const n = this.instances.length;
    if (n === 1) return 0;
    switch (this.s.server.loadBalancer) {
      case 'round-robin': {
        const i = this.nextInstance;
        this.nextInstance = (i + 1) % n;
        return i;
      }
      case 'random':
        return Math.floor(this.lbRng() * n);
      case 'least-outstanding': {
        let best = 0;
        for (let i = 1; i < n; i++) if (this.instances[i].outstanding < this.instances[best].outstanding) best = i;
        return best;
      }
    }
  }

  /** Runs the pipeline from stage `from`; a delay parks the request and resumes it later. */
  private run(a: number, gen: number, from: number, instance: number): void {
    const now = this.engine.now;
    const stages = this.stages;
    for (let i = from; i < stages.length; i++) {
      const r = stages[i].check(this.req, now);
      if (r === 0) continue;
      if (r < 0) {
        this.refuse(a, -r, this.req.retryAfter);
        return;
      }
      const h = this.freeHeld.length ? this.freeHeld.pop()! : this.held.length;
      this.held[h] = [a, gen, i + 1, instance, this.req.detectedRetry];
      this.engine.after(r, this.kResume, h);
      return;
    }
    this.instances[instance].arrive(a, gen, this.routeOf(a));
  }

  private routeOf(a: number): number {
    return this.ids.pops[this.actions.population[this.attempts.action[a]]].route;
  }

  private resume(h: number): void {
    const [a, gen, next, instance, detected] = this.held[h];
    this.freeHeld.push(h);
    if (!this.attempts.isAwaited(a, gen)) return; // the client gave up meanwhile
    const req = this.req.fill(a);
    req.instance = instance;
    req.detectedRetry = detected; // what a stage before the delay (retry detection) found
    this.run(a, gen, next, instance);
  }

  private refuse(a: number, outcome: number, limiterRetryAfter: number): void {
    const cost = this.s.server.rejectionCost;
    if (cost > 0) {
      this.rec.workDone(this.engine.now, cost, false);
      this.rejectionWorkS += cost;
    }
    this.answer(a, outcome, outcome === OUTCOME_RATE_LIMITED && limiterRetryAfter === limiterRetryAfter ? limiterRetryAfter : this.retryAfter(a, outcome));
  }

  /** Instances answer through here, so every 503 gets the contract's Retry-After. */
  private readonly respond = (a: number, outcome: number): void => {
    this.answer(a, outcome, outcome === OUTCOME_OK ? NaN : this.retryAfter(a, outcome));
  };

  private retryAfter(a: number, outcome: number): number {
    const policy = this.s.server.overload.retryAfter;
    const status = statusOf(outcome, this.wire);
    if (!policy || (status !== 503 && status !== 429)) return NaN;
    switch (policy.kind) {
      case 'none':
        return NaN;
      case 'fixed':
        return policy.after;
      case 'random':
        return policy.min + this.raRng() * (policy.max - policy.min);
      case 'spread': {
        // Deterministic per client: the same client always comes back at the same offset.
        const client = this.req.fill(a).client;
        return policy.base + (mix(client + 0x9e3779b9) % Math.max(1, Math.round(policy.window)));
      }
    }
  }

  setDependencyDown(down: boolean): void {
    for (const i of this.instances) i.setDependencyDown(down);
  }

  setSlots(n: number): void {
    for (const i of this.instances) i.setSlots(n);
  }

  get served(): number {
    return this.instances.reduce((s, i) => s + i.served, 0);
  }

  get queueWaitS(): number {
    return this.instances.reduce((s, i) => s + i.queueWaitS, 0);
  }

  get wastedWorkS(): number {
    return this.instances.reduce((s, i) => s + i.wastedWorkS, 0);
  }
}
