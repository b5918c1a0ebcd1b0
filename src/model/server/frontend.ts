/**
 * The server as clients meet it: a request passes the edge (edge.ts), the load balancer
 * (balancer.ts) and the pipeline of stages (pipeline.ts, stages.ts), which may hold it a while
 * (held-requests.ts), to an instance's queue (instance.ts). Answers come back through here, so
 * each 503 and 429 carries the contract's Retry-After (retry-after.ts) or the rate limiter's
 * reset time, and a reset fault may drop it. What operators and faults change during a run
 * (src/model/operator/, src/model/faults.ts) comes in here too and goes on to the part that owns
 * it: the edge, the pipeline, the Retry-After, the capacity (capacity.ts), crashes, warm-ups and
 * pauses (lifecycle.ts); each change returns its undo. This file wires the parts and runs the path.
 */
import type { Engine } from '../../engine/engine.js';
import { stream, type Rng } from '../../engine/rng.js';
import type { Scenario } from '../../scenario/schema.js';
import type { Recorder } from '../recorder.js';
import type { Actions, Attempts } from '../records.js';
import { ATTEMPT_INVALID } from '../records.js';
import { OUTCOME_INVALID, OUTCOME_OK, OUTCOME_RATE_LIMITED, OUTCOME_RESET, carriesRetryAfter, type ResponseContract } from '../outcomes.js';
import { Instance } from './instance.js';
import { fairQueueOptionsOf, instanceOptionsOf, routeHandlers, type SharedInstanceOptions } from './instance-options.js';
import type { ServiceCalls } from '../graph/waiting-jobs.js';
import { Dependency } from './dependencies.js';
import { RequestView, type Identities } from './request.js';
import type { Stage, StageSpec } from './stages.js';
import type { RateLimitReport } from './rate-limit-report.js';
import { Edge, EDGE_DROP, EDGE_PASS } from './edge.js';
import { HeldRequests } from './held-requests.js';
import { RetryAfter, type RetryAfterPolicy } from './retry-after.js';
import { Balancer } from './balancer.js';
import { Capacity } from './capacity.js';
import { Lifecycle, type CrashOptions } from './lifecycle.js';
import { Pipeline } from './pipeline.js';

/** What the run may ask of the server beyond its scenario's own size (scale actions, the autoscaler). */
export interface FrontendOptions {
  /** Most instances the run can have at once (default: server.instances). */
  maxInstances?: number;
  /** Most slots per instance the run can set (default: server.slots). */
  maxSlots?: number;
  /** A route's calls to other services of the graph (src/model/graph/), by route name. */
  serviceCalls?: (route: string) => ServiceCalls | undefined;
  /** The deadline each attempt carries, when its callers send one: queued work past it is dropped. */
  deadlineOf?: (attempt: number) => number;
  /** Drop queued work nobody waits for even when the spec does not say so (every caller cancels: deadlines travel). */
  dropAbandoned?: boolean;
}

/** The clients' side of an answer. */
export type AnswerSink = (attempt: number, outcome: number, retryAfter: number) => void;

export class Frontend {
  readonly instances: Instance[];
  readonly ids: Identities;
  readonly dependencies: Dependency[];
  readonly edge: Edge;
  private readonly pipeline: Pipeline;
  /** The pipeline's own array of stages, which it edits in place: read once per request. */
  private readonly stages: Stage[];
  private readonly held: HeldRequests;
  private readonly retryAfter: RetryAfter;
  private readonly balancer: Balancer;
  private readonly capacity: Capacity;
  private readonly lifecycle: Lifecycle;
  /** Connection resets while a reset fault is active: before the server sees a request, or after its work. */
  private resetBefore = 0;
  private resetAfter = 0;
  private readonly resetRng: Rng;
  private readonly req: RequestView;
  /** Server time spent refusing requests in the pipeline (rejectionCost each). */
  rejectionWorkS = 0;
  private readonly kResume: number;

  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly actions: Actions,
    private readonly rec: Recorder,
    private readonly s: Scenario,
    ids: Identities,
    seed: number,
    private readonly answer: AnswerSink,
    contract: ResponseContract,
    opts: FrontendOptions = {},
  ) {
    const spec = s.server;
    this.ids = ids;
    this.dependencies = Object.entries(spec.dependencies ?? {}).map(
      ([name, d], i) => new Dependency(name, i, d, ids.routes, rec, stream(seed, `server/dependencies/${name}`)),
    );
    // Instances a scale action or the autoscaler may add exist from the start with no slots,
    // so per-instance state (local rate limits, concurrency limits) is laid out once.
    const shared: SharedInstanceOptions = {
      maxSlots: Math.max(spec.slots, opts.maxSlots ?? 0),
      routes: routeHandlers(spec, ids.routes, this.dependencies, seed, opts.serviceCalls),
      fair: fairQueueOptionsOf(s, attempts, actions),
      dropAbandoned: opts.dropAbandoned === true,
      deadlineOf: opts.deadlineOf,
    };
    this.instances = Array.from(
      { length: Math.max(spec.instances, opts.maxInstances ?? 0) },
      (_, i) => new Instance(engine, attempts, rec, instanceOptionsOf(spec, i, shared, seed), this.respond),
    );
    rec.slotsChanged(0, spec.slots * spec.instances);
    this.req = new RequestView(this.ids, attempts, actions);
    this.pipeline = new Pipeline(spec.stages, { instances: this.instances, ids: this.ids, actions, rec, engine, seed });
    this.stages = this.pipeline.stages;
    this.edge = new Edge(ids, Object.keys(s.clients));
    this.capacity = new Capacity(engine, this.instances, spec.slots, spec.instances);
    this.balancer = new Balancer(spec.loadBalancer, this.instances, seed);
    this.held = new HeldRequests(attempts, answer);
    this.lifecycle = new Lifecycle(engine, rec, this.instances, this.capacity, this.balancer, this.held);
    this.retryAfter = new RetryAfter(spec.overload.retryAfter, contract, this.req, seed);
    this.resetRng = stream(seed, 'faults/reset');
    this.kResume = engine.on((h) => this.resume(h));
  }

  /** What each rate-limit stage made in this run saw (its store's queue, its top consumers), in the order they were made. */
  rateLimitReports(populations: readonly string[]): RateLimitReport[] {
    return this.pipeline.rateLimitReports(populations);
  }

  /** Peak size of the retry-detection table, if there is one (entries). */
  get fingerprintPeakEntries(): number {
    return this.pipeline.fingerprintPeakEntries;
  }

  /** A request reaches the load balancer. */
  readonly arrive = (a: number): void => {
    if (this.resetBefore > 0 && this.resetRng() < this.resetBefore) {
      // The connection drops before the server sees the request.
      this.answer(a, OUTCOME_RESET, NaN);
      return;
    }
    if (this.edge.active) {
      const r = this.edge.check(this.req.fill(a));
      if (r !== EDGE_PASS) {
        // Refused at the edge: the server never sees it (a 403 carries no Retry-After; a 503 the contract's).
        if (r !== EDGE_DROP) this.answer(a, -r, this.retryAfter.of(a, -r));
        return;
      }
    }
    if ((this.attempts.flags[a] & ATTEMPT_INVALID) !== 0) {
      // Validation fails before any work: a fast 400 that will never turn into a 200.
      this.answer(a, OUTCOME_INVALID, NaN);
      return;
    }
    const req = this.stages.length ? this.req.fill(a) : this.req;
    const instance = this.balancer.pick(this.capacity.instanceCount);
    if (instance < 0) {
      // Every instance is down: the connection is refused.
      this.answer(a, OUTCOME_RESET, NaN);
      return;
    }
    req.instance = instance;
    this.run(a, this.attempts.gen[a], 0, instance);
  };

  /** Runs the pipeline from stage `from`; a delay parks the request and resumes it later. */
  private run(a: number, gen: number, from: number, instance: number): void {
    const now = this.engine.now;
    const stages = this.stages;
    for (let i = from; i < stages.length; i++) {
      const r = stages[i].check(this.req, now);
      if (r === 0) continue;
      if (r < 0 && !(this.req.refusalDelay > 0)) {
        this.refuse(a, -r, this.req.retryAfter);
        return;
      }
      // A delay (r > 0), or a refusal that takes a while to come back: the request is held until then.
      const h = r > 0
        ? this.held.hold(a, gen, i + 1, instance, this.req.detectedRetry, NaN)
        : this.held.hold(a, gen, ~-r, instance, this.req.detectedRetry, this.req.retryAfter);
      this.engine.after(r > 0 ? r : this.req.refusalDelay, this.kResume, h);
      return;
    }
    this.instances[instance].arrive(a, gen, this.routeOf(a));
  }

  private routeOf(a: number): number {
    return this.ids.pops[this.actions.population[this.attempts.action[a]]].route;
  }

  private resume(h: number): void {
    const held = this.held;
    const a = held.attemptOf(h), gen = held.genOf(h), next = held.nextOf(h);
    const instance = held.instanceOf(h), detected = held.detectedOf(h), refusalRetryAfter = held.retryAfterOf(h);
    held.release(h);
    if (a < 0) return; // lost to a crash of its instance meanwhile (lifecycle.ts)
    // A refusal that was on its way back is work done whether or not its client still waits.
    if (next < 0) return this.refuse(a, ~next, refusalRetryAfter, this.attempts.isAwaited(a, gen));
    if (!this.attempts.isAwaited(a, gen)) return; // the client gave up meanwhile
    const req = this.req.fill(a);
    req.instance = instance;
    req.detectedRetry = detected; // what a stage before the delay (retry detection) found
    this.run(a, gen, next, instance);
  }

  private refuse(a: number, outcome: number, limiterRetryAfter: number, awaited = true): void {
    const cost = this.s.server.rejectionCost;
    if (cost > 0) {
      this.rec.workDone(this.engine.now, cost, false);
      this.rejectionWorkS += cost;
    }
    if (!awaited) return; // its client gave up while the refusal was on its way
    this.answer(a, outcome, outcome === OUTCOME_RATE_LIMITED && carriesRetryAfter(limiterRetryAfter) ? limiterRetryAfter : this.retryAfter.of(a, outcome));
  }

  /** Instances answer through here, so every 503 gets the contract's Retry-After. */
  private readonly respond = (a: number, outcome: number): void => {
    if (this.resetAfter > 0 && this.resetRng() < this.resetAfter) {
      // The work was done, but the connection dropped before the answer got out.
      this.answer(a, OUTCOME_RESET, NaN);
      return;
    }
    this.answer(a, outcome, outcome === OUTCOME_OK ? NaN : this.retryAfter.of(a, outcome));
  };

  setDependencyDown(down: boolean): void {
    for (const i of this.instances) i.setDependencyDown(down);
  }

  // ── What faults and operators change, each handed to the part that owns it and documented there ──

  // Capacity (capacity.ts): a cut, scale actions (with their undo), the autoscaler.
  setCut(slots: number): void {
    this.capacity.setCut(slots);
  }

  setBaseSlots(n: number): () => void {
    return this.capacity.setBaseSlots(n);
  }

  setInstances(n: number): () => void {
    return this.capacity.setInstances(n);
  }

  scaleTo(n: number): void {
    this.capacity.scaleTo(n);
  }

  get instanceCount(): number {
    return this.capacity.instanceCount;
  }

  get slotsPerInstance(): number {
    return this.capacity.slotsPerInstance;
  }

  /** Reset probabilities while reset faults are active (0: none). */
  setResets(before: number, after: number): void {
    this.resetBefore = before;
    this.resetAfter = after;
  }

  // Crashes, warm-ups and pauses (lifecycle.ts).
  crash(which: number | undefined, opts: CrashOptions): void {
    this.lifecycle.crash(which, opts);
  }

  get lostAttempts(): number {
    return this.lifecycle.lostAttempts;
  }

  pause(which: number | undefined, paused: boolean): void {
    this.lifecycle.pause(which, paused);
  }

  // Stage editing (pipeline.ts), each with its undo.
  addStage(spec: StageSpec, before?: string): () => void {
    return this.pipeline.add(spec, before);
  }

  removeStage(kind: string): () => void {
    return this.pipeline.remove(kind);
  }

  replaceStage(kind: string, spec: StageSpec): () => void {
    return this.pipeline.replace(kind, spec);
  }

  get stageKinds(): string[] {
    return this.pipeline.kinds;
  }

  /** Changes the Retry-After contract (retry-after.ts); returns the undo. */
  setRetryAfter(policy: RetryAfterPolicy): () => void {
    return this.retryAfter.set(policy);
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
