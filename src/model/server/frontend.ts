/**
 * The server as clients meet it: a load balancer in front of instances, and the pipeline
 * of stages every request goes through before an instance's queue. It also writes the
 * response contract: the Retry-After on each 503 and 429 (none, fixed, spread per client
 * as base + hash(client) mod window, or random), or the rate limiter's own reset time.
 *
 * What operators change during a run goes through here too (src/model/operator/): the
 * edge's blocks and switched-off routes, stages added, removed or replaced, the Retry-After
 * contract, and the capacity (slots per instance, instances behind the balancer). Every
 * such change returns the function that undoes it.
 */
import type { Engine } from '../../engine/engine.js';
import { stream, type Rng } from '../../engine/rng.js';
import { sampler, distributionMean } from '../../engine/distributions.js';
import type { Scenario } from '../../scenario/schema.js';
import type { Recorder } from '../recorder.js';
import type { Actions, Attempts } from '../records.js';
import { ATTEMPT_INVALID } from '../records.js';
import { OUTCOME_INVALID, OUTCOME_OK, OUTCOME_RATE_LIMITED, OUTCOME_RESET, statusOf, carriesRetryAfter, type ResponseContract } from '../outcomes.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import { Instance, type RouteHandler, type ServiceCalls } from './instance.js';
import { Dependency } from './dependencies.js';
import { RequestView, type Identities } from './request.js';
import { mix } from './hash.js';
import { makeStage, AdaptiveConcurrency, RetryDetection, type RateLimit, type Stage, type StageSpec } from './stages.js';
import type { RateLimitReport } from './rate-limit-report.js';
import { Edge, EDGE_DROP, EDGE_PASS } from './edge.js';
import { fairQueueLayout } from '../../scenario/fair-queue-keys.js';
import type { FairQueueOptions } from './fair-queue.js';
import type { z } from 'zod';
import type { retryAfterSchema } from '../../scenario/schema-server.js';
import { CODEL_DEFAULTS } from '../../scenario/server-defaults.js';
import { Overridable } from '../overridable.js';
import { RedDropper } from './red.js';

type RetryAfterPolicy = z.output<typeof retryAfterSchema>;

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
  private readonly stages: Stage[];
  /** Every rate-limit stage made, in order (also those an operator removed): for the results. */
  private readonly rateLimitStages: RateLimit[] = [];
  /** The spec each stage was made from (same order as `stages`), to find a stage by kind. */
  private readonly stageSpecs: StageSpec[];
  private readonly stageCtx: Parameters<typeof makeStage>[1];
  /** Stages an undone add-stage put in, replaced or removed by a later action meanwhile: that action's undo leaves them out. */
  private readonly withdrawn = new WeakSet<Stage>();
  private retryAfterPolicy: RetryAfterPolicy | undefined;
  /** Capacity: slots per instance as set, the slots a capacity cut leaves, and instances in the balancer. */
  private baseSlots: number;
  private cutSlots = Infinity;
  private active: number;
  /** What operator actions change and undo (overridable.ts): each writes its field above when it changes hands. */
  private readonly slotsSetting: Overridable<number>;
  private readonly instancesSetting: Overridable<number>;
  private readonly retryAfterSetting: Overridable<RetryAfterPolicy | undefined>;
  private readonly kDrain: number;
  private drainScheduled = false;
  /** Per instance: the share of its slots it may use (0 while down after a crash, rising during a warm-up). */
  private readonly capacityShare: Float64Array;
  /** Per instance: a token that a new crash changes, so a restart or warm-up step it outdated does nothing. */
  private readonly lifeToken: Int32Array;
  private downCount = 0;
  private readonly kRestart: number;
  private readonly kWarm: number;
  private readonly warmups: Array<{ from: number; durationS: number; startS: number }> = [];
  /** Connection resets while a reset fault is active: before the server sees a request, or after its work. */
  private resetBefore = 0;
  private resetAfter = 0;
  private readonly resetRng: Rng;
  private readonly req: RequestView;
  private readonly lbRng: Rng;
  private readonly raRng: Rng;
  private nextInstance = 0;
  /** Server time spent refusing requests in the pipeline (rejectionCost each). */
  rejectionWorkS = 0;
  private readonly kResume: number;
  // Requests held by a stage's delay (a shared store's round trip, a leaky-bucket queue).
  // Its attempt is -1 once it resumed or was lost to a crash of its instance (its resume event then does nothing).
  // attempt, gen, next stage (or ~outcome: a refusal on its way back), instance, detected retry, the refusal's Retry-After
  private readonly held: Array<[number, number, number, number, boolean, number]> = [];
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
    private readonly contract: ResponseContract,
    opts: FrontendOptions = {},
  ) {
    const spec = s.server;
    this.baseSlots = spec.slots;
    this.active = spec.instances;
    this.retryAfterPolicy = spec.overload.retryAfter;
    this.slotsSetting = new Overridable(this.baseSlots, (n) => { this.baseSlots = n; this.applyCapacity(); });
    this.instancesSetting = new Overridable(this.active, (n) => { this.active = n; this.applyCapacity(); });
    this.retryAfterSetting = new Overridable(this.retryAfterPolicy, (policy) => { this.retryAfterPolicy = policy; });
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
        services: opts.serviceCalls?.(r),
      };
    });
    // Instances a scale action or the autoscaler may add exist from the start with no slots,
    // so per-instance state (local rate limits, concurrency limits) is laid out once.
    const maxSlots = Math.max(spec.slots, opts.maxSlots ?? 0);
    const fair = this.fairQueueOptions();
    this.instances = Array.from(
      { length: Math.max(spec.instances, opts.maxInstances ?? 0) },
      (_, i) =>
        new Instance(engine, attempts, rec, {
          slots: i < spec.instances ? spec.slots : 0,
          maxSlots,
          queueCapacity: spec.queue === 'unbounded' ? Infinity : spec.queue,
          lifo: spec.discipline === 'lifo',
          codel:
            spec.codel || spec.discipline === 'adaptive-lifo'
              ? { ...(spec.codel ?? { target: CODEL_DEFAULTS.targetS, interval: CODEL_DEFAULTS.intervalS }), adaptiveLifo: spec.discipline === 'adaptive-lifo' }
              : undefined,
          contention: spec.contention,
          dropAbandoned: spec.dropAbandoned || opts.dropAbandoned === true,
          deadlineOf: opts.deadlineOf,
          deadline: spec.deadline,
          executionDeadline: spec.executionDeadline,
          failFastTime: spec.failFastTime,
          routes,
          fair,
          // Each instance averages its own queue, with its own draws.
          red: spec.red ? new RedDropper({ ...spec.red, departureS: distributionMean(toDistributionSpec(spec.serviceTime)) / spec.slots }, stream(seed, `server/red/${i}`)) : undefined,
        }, this.respond),
    );
    rec.slotsChanged(0, spec.slots * spec.instances);
    this.req = new RequestView(this.ids, attempts, actions);
    this.stageCtx = { instances: this.instances, ids: this.ids, actions, rec, engine, seed, rateLimits: this.rateLimitStages };
    this.stageSpecs = [...spec.stages];
    this.stages = spec.stages.map((st) => makeStage(st, this.stageCtx));
    this.edge = new Edge(ids, Object.keys(s.clients));
    this.kDrain = engine.on(() => this.drainCheck());
    this.capacityShare = new Float64Array(this.instances.length).fill(1);
    this.lifeToken = new Int32Array(this.instances.length);
    this.kRestart = engine.on((i, token) => this.restart(i, token));
    this.kWarm = engine.on((i, token) => this.warmStep(i, token));
    this.resetRng = stream(seed, 'faults/reset');
    this.lbRng = stream(seed, 'server/balancer');
    this.raRng = stream(seed, 'server/retry-after');
    this.kResume = engine.on((h) => this.resume(h));
  }

  /** How each instance's fair queue keys and classes an attempt (server.fairQueue), or undefined for one line. */
  private fairQueueOptions(): FairQueueOptions | undefined {
    const layout = fairQueueLayout(this.s);
    if (!layout) return undefined;
    const { attempts, actions } = this;
    const keyOfPop = Int32Array.from(layout.keyOfPopulation);
    const classOfPop = Int32Array.from(layout.classOfPopulation);
    return {
      keys: layout.keys.length,
      classes: layout.classes,
      weights: layout.weights,
      keyOf: (a) => keyOfPop[actions.population[attempts.action[a]]],
      classOf: layout.retriesLast ? (a) => (attempts.number[a] > 1 ? 1 : 0) : (a) => classOfPop[actions.population[attempts.action[a]]],
    };
  }

  /** What each rate-limit stage made in this run saw (its store's queue, its top consumers), in the order they were made. */
  rateLimitReports(populations: readonly string[]): RateLimitReport[] {
    return this.rateLimitStages.map((st, i) => st.report(i, populations));
  }

  /** Peak size of the retry-detection table, if there is one (entries). */
  get fingerprintPeakEntries(): number {
    const d = this.stages.find((st): st is RetryDetection => st instanceof RetryDetection);
    return d ? d.peakEntries : 0;
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
        if (r !== EDGE_DROP) this.answer(a, -r, this.retryAfter(a, -r));
        return;
      }
    }
    if ((this.attempts.flags[a] & ATTEMPT_INVALID) !== 0) {
      // Validation fails before any work: a fast 400 that will never turn into a 200.
      this.answer(a, OUTCOME_INVALID, NaN);
      return;
    }
    const req = this.stages.length ? this.req.fill(a) : this.req;
    const instance = this.pick();
    if (instance < 0) {
      // Every instance is down: the connection is refused.
      this.answer(a, OUTCOME_RESET, NaN);
      return;
    }
    req.instance = instance;
    this.run(a, this.attempts.gen[a], 0, instance);
  };

  /**
   * The instance the balancer sends a request to, or -1 when every instance is down. Its
   * health check keeps crashed instances out: each policy chooses among the instances that
   * are up. (A crashed instance has nothing outstanding: least-outstanding chose it every
   * time, and its neighbour took all its traffic while the others idled.) With every
   * instance up, the choice and the random draws are what they always were.
   */
  private pick(): number {
    const n = this.active;
    if (n === 1) return this.isUp(0) ? 0 : -1;
    const someDown = this.downCount > 0;
    switch (this.s.server.loadBalancer) {
      case 'round-robin': {
        for (let k = 0; k < n; k++) {
          const i = this.nextInstance < n ? this.nextInstance : 0;
          this.nextInstance = (i + 1) % n;
          if (this.isUp(i)) return i;
        }
        return -1;
      }
      case 'random': {
        const m = someDown ? this.upCount() : n;
        return m === 0 ? -1 : this.nthUp(Math.floor(this.lbRng() * m));
      }
      case 'least-outstanding': {
        let best = -1;
        for (let i = 0; i < n; i++) {
          if (this.isUp(i) && (best < 0 || this.instances[i].outstanding < this.instances[best].outstanding)) best = i;
        }
        return best;
      }
      case 'power-of-two': {
        // Two distinct instances at random; the less loaded wins, the first drawn on a tie.
        const m = someDown ? this.upCount() : n;
        if (m <= 1) return m === 0 ? -1 : this.nthUp(0);
        const i = Math.floor(this.lbRng() * m);
        let j = Math.floor(this.lbRng() * (m - 1));
        if (j >= i) j++;
        const a = this.nthUp(i), b = this.nthUp(j);
        return this.instances[b].outstanding < this.instances[a].outstanding ? b : a;
      }
    }
  }

  private isUp(i: number): boolean {
    return this.downCount === 0 || !this.instances[i].down;
  }

  /** How many of the active instances are up. */
  private upCount(): number {
    let m = 0;
    for (let i = 0; i < this.active; i++) if (!this.instances[i].down) m++;
    return m;
  }

  /** The k-th active instance that is up (k itself when none is down). */
  private nthUp(k: number): number {
    if (this.downCount === 0) return k;
    for (let i = 0; i < this.active; i++) if (!this.instances[i].down && k-- === 0) return i;
    return -1;
  }

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
      const h = this.freeHeld.length ? this.freeHeld.pop()! : this.held.length;
      this.held[h] = r > 0 ? [a, gen, i + 1, instance, this.req.detectedRetry, NaN] : [a, gen, ~-r, instance, this.req.detectedRetry, this.req.retryAfter];
      this.engine.after(r > 0 ? r : this.req.refusalDelay, this.kResume, h);
      return;
    }
    this.instances[instance].arrive(a, gen, this.routeOf(a));
  }

  private routeOf(a: number): number {
    return this.ids.pops[this.actions.population[this.attempts.action[a]]].route;
  }

  private resume(h: number): void {
    const [a, gen, next, instance, detected, refusalRetryAfter] = this.held[h];
    this.held[h][0] = -1;
    this.freeHeld.push(h);
    if (a < 0) return; // lost to a crash of its instance meanwhile (crash)
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
    this.answer(a, outcome, outcome === OUTCOME_RATE_LIMITED && carriesRetryAfter(limiterRetryAfter) ? limiterRetryAfter : this.retryAfter(a, outcome));
  }

  /** Instances answer through here, so every 503 gets the contract's Retry-After. */
  private readonly respond = (a: number, outcome: number): void => {
    if (this.resetAfter > 0 && this.resetRng() < this.resetAfter) {
      // The work was done, but the connection dropped before the answer got out.
      this.answer(a, OUTCOME_RESET, NaN);
      return;
    }
    this.answer(a, outcome, outcome === OUTCOME_OK ? NaN : this.retryAfter(a, outcome));
  };

  private retryAfter(a: number, outcome: number): number {
    const policy = this.retryAfterPolicy;
    const status = statusOf(outcome, this.contract);
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

  // ── What faults and operators change ────────────────────────────────────────

  /** The slots per instance a capacity cut leaves (Infinity: no cut). */
  setCut(slots: number): void {
    this.cutSlots = slots;
    this.applyCapacity();
  }

  /** Slots per instance, as a scale action sets them; returns the undo. */
  setBaseSlots(n: number): () => void {
    return this.slotsSetting.override(Math.min(n, this.instances[0].maxSlots));
  }

  /** Instances behind the balancer, as a scale action sets them; returns the undo. */
  setInstances(n: number): () => void {
    return this.instancesSetting.override(this.instanceCountFor(n));
  }

  /** Instances behind the balancer, as the autoscaler decides them: no undo, and it supersedes the actions before it. */
  scaleTo(n: number): void {
    this.instancesSetting.set(this.instanceCountFor(n));
  }

  private instanceCountFor(n: number): number {
    return Math.max(1, Math.min(n, this.instances.length));
  }

  get instanceCount(): number {
    return this.active;
  }

  get slotsPerInstance(): number {
    return Math.min(this.baseSlots, this.cutSlots);
  }

  /**
   * Sets every instance's slots from the capacity state. An instance taken out of the
   * balancer keeps its slots until it has finished what it holds (connection draining),
   * checked every second.
   */
  private applyCapacity(): void {
    const slots = this.slotsPerInstance;
    let draining = false;
    this.instances.forEach((inst, i) => {
      if (i < this.active) inst.setSlots(Math.floor(slots * this.capacityShare[i] + 1e-9));
      else if (inst.outstanding === 0) inst.setSlots(0);
      else draining = true;
    });
    if (draining && !this.drainScheduled) {
      this.drainScheduled = true;
      this.engine.after(1, this.kDrain);
    }
  }

  private drainCheck(): void {
    this.drainScheduled = false;
    this.applyCapacity();
  }

  // ── Partial failures ───────────────────────────────────────────────────────

  /** Reset probabilities while reset faults are active (0: none). */
  setResets(before: number, after: number): void {
    this.resetBefore = before;
    this.resetAfter = after;
  }

  /** Instances `which` (every instance when undefined) crash now, stay down `downS`, then restart with an optional warm-up. */
  crash(which: number | undefined, opts: { reset: boolean; downS: number; warmup?: { duration: number; capacity: number } }): void {
    const now = this.engine.now;
    for (const i of this.indices(which)) {
      const inst = this.instances[i];
      const lost = inst.crash(opts.reset) + this.loseHeld(i, opts.reset);
      this.rec.lost(now, lost);
      this.lostAttempts += lost;
      const token = ++this.lifeToken[i];
      if (!inst.down) this.downCount++;
      inst.down = true;
      this.capacityShare[i] = 0;
      this.warmups[i] = { from: opts.warmup?.capacity ?? 1, durationS: opts.warmup?.duration ?? 0, startS: now + opts.downS };
      this.engine.at(now + opts.downS, this.kRestart, i, token);
    }
    this.applyCapacity();
  }

  /**
   * Requests a stage of instance i holds (a leaky bucket's queue, a shared store's round trip)
   * are lost with it, as its own queue is: their callers see a reset (with `reset`), and their
   * resume does nothing. Returns how many.
   */
  private loseHeld(i: number, reset: boolean): number {
    let lost = 0;
    for (const entry of this.held) {
      const [a, gen, , instance] = entry;
      if (a < 0 || instance !== i) continue;
      entry[0] = -1;
      lost++;
      if (reset && this.attempts.isAwaited(a, gen)) this.answer(a, OUTCOME_RESET, NaN);
    }
    return lost;
  }

  /** Attempts lost to crashes and restarts (in service, queued or held by a stage when the instance went down). */
  lostAttempts = 0;

  private restart(i: number, token: number): void {
    if (token !== this.lifeToken[i]) return; // crashed again meanwhile
    const inst = this.instances[i];
    if (inst.down) this.downCount--;
    inst.down = false;
    this.warmStep(i, token);
  }

  /**
   * Warm-up: the share of slots grows linearly from `from` to 1 over the duration; whole
   * slots, so the next step is scheduled when the next slot comes (at most ~1,000 steps).
   */
  private warmStep(i: number, token: number): void {
    if (token !== this.lifeToken[i]) return;
    const w = this.warmups[i];
    const now = this.engine.now;
    const t = now - w.startS;
    const share = w.durationS > 0 && t < w.durationS ? w.from + (1 - w.from) * (t / w.durationS) : 1;
    this.capacityShare[i] = share;
    this.applyCapacity();
    if (share >= 1) return;
    const full = this.slotsPerInstance;
    if (full === 0) {
      // No slots to grow through (a capacity cut to 0): the share still grows with time, in
      // 1,000 steps over the warm-up, so a cut that ends mid-warm-up finds it where it would be.
      this.engine.at(now + w.durationS / 1000, this.kWarm, i, token);
      return;
    }
    const step = Math.max(1, Math.ceil(full / 1000));
    const nextSlots = Math.min(full, Math.floor(full * share + 1e-9) + step);
    const nextT = w.startS + ((nextSlots / full - w.from) / (1 - w.from)) * w.durationS;
    this.engine.at(Math.max(nextT, now), this.kWarm, i, token);
  }

  /** Stop-the-world pause of instances `which` (every instance when undefined), and its end. */
  pause(which: number | undefined, paused: boolean): void {
    for (const i of this.indices(which)) {
      if (paused) this.instances[i].pause();
      else this.instances[i].resume();
    }
  }

  private indices(which: number | undefined): number[] {
    if (which !== undefined) return which < this.instances.length ? [which] : [];
    return Array.from({ length: this.active }, (_, i) => i);
  }

  /**
   * Adds a stage, before the first of kind `before` or at the end; returns the undo. An undo
   * takes back its own action only (as overridable.ts does for settings): when a later action
   * has replaced or removed the stage meanwhile, the stage is marked withdrawn, so that undoing
   * that later action does not put it back.
   */
  addStage(spec: StageSpec, before?: string): () => void {
    const stage = makeStage(spec, this.stageCtx);
    const at = before === undefined ? -1 : this.stageSpecs.findIndex((st) => st.kind === before);
    this.insertStage(at < 0 ? this.stages.length : at, stage, spec);
    return () => {
      const i = this.stages.indexOf(stage);
      if (i < 0) this.withdrawn.add(stage);
      else this.removeStageAt(i);
    };
  }

  /** Removes the first stage of a kind; returns the undo (nothing to undo when there was none). */
  removeStage(kind: string): () => void {
    const at = this.stageSpecs.findIndex((st) => st.kind === kind);
    if (at < 0) return () => {};
    const stage = this.stages[at], spec = this.stageSpecs[at];
    this.removeStageAt(at);
    return () => {
      if (!this.withdrawn.has(stage)) this.insertStage(Math.min(at, this.stages.length), stage, spec);
    };
  }

  /** Replaces the first stage of a kind (adds it at the end when there is none); returns the undo. */
  replaceStage(kind: string, spec: StageSpec): () => void {
    const at = this.stageSpecs.findIndex((st) => st.kind === kind);
    if (at < 0) return this.addStage(spec);
    const old = this.stages[at], oldSpec = this.stageSpecs[at];
    const stage = makeStage(spec, this.stageCtx);
    this.removeStageAt(at);
    this.insertStage(at, stage, spec);
    return () => {
      const i = this.stages.indexOf(stage);
      if (i < 0) return;
      this.removeStageAt(i);
      if (!this.withdrawn.has(old)) this.insertStage(i, old, oldSpec);
    };
  }

  /** The kinds of the stages in the pipeline now, in order. */
  get stageKinds(): string[] {
    return this.stageSpecs.map((st) => st.kind);
  }

  // A request parked in a stage's delay resumes at the index after that stage; when the
  // pipeline changed meanwhile, that index is read in the new pipeline.
  private insertStage(at: number, stage: Stage, spec: StageSpec): void {
    this.stages.splice(at, 0, stage);
    this.stageSpecs.splice(at, 0, spec);
    if (stage instanceof AdaptiveConcurrency) stage.attach();
  }

  private removeStageAt(at: number): void {
    if (at < 0) return;
    const [stage] = this.stages.splice(at, 1);
    this.stageSpecs.splice(at, 1);
    if (stage instanceof AdaptiveConcurrency) stage.detach();
  }

  /** Changes the Retry-After contract; returns the undo. */
  setRetryAfter(policy: RetryAfterPolicy): () => void {
    return this.retryAfterSetting.override(policy);
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
