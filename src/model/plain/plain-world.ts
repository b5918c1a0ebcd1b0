/**
 * The plain world: the model of clients.ts, frontend.ts and instance.ts, for the scenarios
 * plain-shape.ts accepts (open populations with one retry layer, one instance with one
 * FIFO queue, dependency-down and capacity-cut faults), as one object whose handlers have
 * the branches such a scenario cannot take removed.
 *
 * Why a second path: the general handlers pay, for every event, for what a plain scenario
 * never uses (nested layers, gates, budgets, deadlines, hedges, stages, the balancer,
 * hooks of faults and operators), each a call through a closure or a branch. Here an event
 * is a few direct steps: in the reference model's storm about 1.2-1.3x less CPU than the
 * general path (docs/benchmarks.md, night of 2026-12-02).
 *
 * What keeps it the same model: it is built from the same pieces as the general path —
 * the engine (event order, lanes, the budget), the record pools and the server's attempt
 * queue (memory and its metering), populationState (random streams, arrivals, the retry
 * table, the prepared backoff), the service-time sampler and the Recorder — and takes the
 * same steps in the same order: every random draw, every event scheduled (so every seq),
 * every recorder call. Only the branches that cannot be taken in a plain scenario are gone;
 * the comments name the general method each step mirrors. test/model/plain-world.test.ts
 * runs scenarios of this shape both ways and compares the whole run record.
 */
import type { Engine } from '../../engine/engine.js';
import { stream } from '../../engine/rng.js';
import { sampler, type Sampler } from '../../engine/distributions.js';
import type { Scenario } from '../../scenario/schema.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import type { Recorder } from '../recorder.js';
import { ATTEMPT_HEADER, type Actions, type Attempts } from '../records.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_QUEUE_FULL, OUTCOME_TIMEOUT, type ResponseContract } from '../outcomes.js';
import { populationState, type PopulationState } from '../client/population.js';
import { initialBackoffState, preparedDelay } from '../client/backoff.js';
import { AttemptQueue } from '../server/attempt-queue.js';
import type { Identities } from '../server/request.js';

/** Event kinds of this world (its own: nothing else schedules on its engine). */


/** A queue entry whose client no longer waits (instance.ts). */
const NOBODY = -1;

export class PlainWorld {
  private readonly pops: PopulationState[];
  /** Per population: its arrivals' lane, its layer's timeout lane and timeout, attempt flags, and whether it dead-letters. */
  private readonly arrivalLane: Int32Array;
  private readonly timeoutLane: Int32Array;
  private readonly timeout: Float64Array;
  private readonly maxAttempts: Int32Array;
  private readonly attemptFlags: Int32Array;
  private readonly deadLetter: Uint8Array;
  /** Per population, OUTCOME_COUNT entries: does its layer retry that outcome (the layer's retry table). */
  private readonly retries: Uint8Array;
  private readonly outcomes: number;
  private readonly routeOf: Int32Array;
  // The server (instance.ts): slots, the queue, the slot table.
  private slots: number;
  /** The slot table's size: the scenario's slots (a cut only lowers them). */
  private readonly maxSlots: number;
  private busy = 0;
  private readonly queueCapacity: number;
  private readonly line: AttemptQueue;
  private readonly queueNo: number;
  private readonly jobId: Int32Array;
  private readonly jobGen: Int32Array;
  private readonly jobWork: Float64Array;
  private readonly jobOutcome: Int32Array;
  private readonly freeJobs: Int32Array;
  private freeTop: number;
  private readonly serviceTime: Sampler;
  private readonly failFastTime: number;
  private dependencyDown = false;
  private readonly activeFaults = new Set<number>();
  served = 0;
  queueWaitS = 0;
  wastedWorkS = 0;
  /** Per population: summed durations of the actions that ended, and their count (clients.ts). */
  readonly actionTimeS: Float64Array;
  readonly actionsEnded: Float64Array;

  constructor(
    private readonly engine: Engine,
    private readonly actions: Actions,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    private readonly s: Scenario,
    populations: Array<[string, Scenario['clients'][string]]>,
    ids: Identities,
    seed: number,
    contract: ResponseContract,
  ) {
    // What Clients' constructor does (the timeout lanes are made here, by populationState).
    this.pops = populations.map(([name, spec]) => populationState(engine, name, spec, seed, contract, s.faults));
    const n = this.pops.length;
    this.timeoutLane = Int32Array.from(this.pops, (p) => p.layers[0].timeoutLane);
    this.timeout = Float64Array.from(this.pops, (p) => p.layers[0].spec.timeout);
    this.maxAttempts = Int32Array.from(this.pops, (p) => p.layers[0].spec.maxAttempts);
    this.attemptFlags = Int32Array.from(this.pops, (p) => (p.behaviour.attemptHeader ? ATTEMPT_HEADER : 0));
    this.deadLetter = Uint8Array.from(this.pops, (p) => (p.layers[0].spec.deadLetter ? 1 : 0));
    this.outcomes = this.pops[0].layers[0].retry.length;
    this.retries = new Uint8Array(n * this.outcomes);
    this.pops.forEach((p, i) => p.layers[0].retry.forEach((r, o) => (this.retries[i * this.outcomes + o] = r ? 1 : 0)));
    this.routeOf = Int32Array.from(ids.pops, (p) => p.route);
    this.actionTimeS = new Float64Array(n);
    this.actionsEnded = new Float64Array(n);
    this.arrivalLane = new Int32Array(n);
    // What Frontend's and Instance's constructors do.
    const spec = s.server;
    this.serviceTime = sampler(toDistributionSpec(spec.serviceTime), stream(seed, 'server/service'));
    this.failFastTime = spec.failFastTime;
    this.slots = spec.slots;
    this.maxSlots = spec.slots;
    this.queueCapacity = spec.queue === 'unbounded' ? Infinity : spec.queue;
    this.jobId = new Int32Array(spec.slots);
    this.jobGen = new Int32Array(spec.slots);
    this.jobWork = new Float64Array(spec.slots);
    this.jobOutcome = new Int32Array(spec.slots);
    this.freeJobs = Int32Array.from({ length: spec.slots }, (_, i) => spec.slots - 1 - i);
    this.freeTop = spec.slots;
    this.line = new AttemptQueue(ids.routes.length > 1, engine.memory);
    this.queueNo = attempts.newQueue();
    rec.slotsChanged(0, spec.slots);
    this.kArrival = engine.on((i) => this.arrival(i));
    this.kTimeout = engine.on((a, gen) => this.attemptTimeout(a, gen));
    this.kDone = engine.on((j) => this.done(j));
    this.kRetry = engine.on((act) => this.tryLayer(act, this.actions.population[act]));
    this.kFaultStart = engine.on((f) => { this.activeFaults.add(f); this.applyFaults(); });
    this.kFaultEnd = engine.on((f) => { this.activeFaults.delete(f); this.applyFaults(); });
  }
  private readonly kArrival: number;
  private readonly kTimeout: number;
  private readonly kDone: number;
  private readonly kRetry: number;
  private readonly kFaultStart: number;
  private readonly kFaultEnd: number;

  /** Schedules the faults and the first arrivals, in the order simulate() does (scheduleFaults, then Clients.start). */
  start(): void {
    const engine = this.engine;
    this.s.faults.forEach((f, i) => {
      if (f.kind === 'surge') return;
      engine.at(f.at, this.kFaultStart, i);
      engine.at(f.at + f.duration, this.kFaultEnd, i);
    });
    this.pops.forEach((p, i) => {
      this.arrivalLane[i] = engine.lane();
      const t = p.arrivals.next(0);
      if (t < Infinity) engine.atInLane(this.arrivalLane[i], t, this.kArrival, i);
    });
  }

  /**
   * scheduleFaults' apply: the dependency is down while any dependency-down fault is active,
   * and the slots are the fewest any active capacity cut leaves (Frontend.applyCapacity,
   * then Instance.setSlots, in that order).
   */
  private applyFaults(): void {
    let down = false;
    let cut = Infinity;
    for (const i of this.activeFaults) {
      const f = this.s.faults[i];
      if (f.kind === 'dependency-down') down = true;
      else if (f.kind === 'capacity-cut') cut = Math.min(cut, f.slots);
    }
    this.dependencyDown = down;
    let n = Math.floor(Math.min(this.s.server.slots, cut) * 1 + 1e-9); // the share of a healthy instance is 1
    if (n > this.maxSlots) n = this.maxSlots;
    if (n === this.slots) return;
    this.rec.slotsChanged(this.engine.now, n - this.slots);
    this.slots = n;
    this.pump();
  }

  // ── Clients (clients.ts) ─────────────────────────────────────────────────────

  /** Clients.arrival, begin and startCall. */
  private arrival(i: number): void {
    const p = this.pops[i];
    const engine = this.engine;
    const now = engine.now;
    const next = p.arrivals.next(now);
    if (next < Infinity) engine.atInLane(this.arrivalLane[i], next, this.kArrival, i);
    const actions = this.actions;
    const act = actions.create(i, Math.floor(p.clientRng() * p.clients), now, 0);
    this.rec.actionStarted(now, i);
    // One layer: its slot is the action's own index (the pool's stride is 1).
    actions.layerTries[act] = 0;
    actions.layerJitter[act] = initialBackoffState(p.layers[0].spec.backoff);
    this.tryLayer(act, i);
  }

  /** Clients.tryLayer for the innermost (and only) layer: no deadline, gate, budget or hedge. */
  private tryLayer(act: number, i: number): void {
    const actions = this.actions;
    const engine = this.engine;
    const now = engine.now;
    actions.layerTries[act]++;
    const n = ++actions.attempts[act];
    const at = this.attempts;
    const a = at.create(act, now, this.attemptFlags[i], n);
    this.rec.attempt(now, i, n > 1, false);
    const timeout = this.timeout[i];
    if (timeout < Infinity) actions.layerTimer[act] = engine.afterInLane(this.timeoutLane[i], timeout, this.kTimeout, a, at.gen[a]);
    else actions.layerTimer[act] = -1;
    this.arrive(a, at.gen[a], this.routeOf[i]);
  }

  /** Clients.answer: the server answered an attempt whose client still waits. */
  private answer(a: number, outcome: number): void {
    const at = this.attempts;
    const act = at.action[a];
    const i = this.actions.population[act];
    this.rec.answer(this.engine.now, i, at.sentT[a], outcome, at.number[a] === 1);
    at.release(a);
    this.tryEnded(act, i, outcome);
  }

  /** Clients.attemptTimeout. */
  private attemptTimeout(a: number, gen: number): void {
    const at = this.attempts;
    if (at.gen[a] !== gen) return; // answered already: a stale timeout (it was in the lane when cancelled at neither end)
    const act = at.action[a];
    const i = this.actions.population[act];
    this.rec.timedOut(this.engine.now, i, OUTCOME_TIMEOUT);
    at.release(a);
    this.tryEnded(act, i, OUTCOME_TIMEOUT);
  }

  /** Clients.tryEnded and retryDelay for the one layer: succeed, retry after the backoff, or fail. */
  private tryEnded(act: number, i: number, outcome: number): void {
    const actions = this.actions;
    const engine = this.engine;
    engine.cancelInLane(this.timeoutLane[i], actions.layerTimer[act]);
    if (outcome === OUTCOME_OK) return this.ended(act, i, true);
    const tries = actions.layerTries[act];
    if (this.retries[i * this.outcomes + outcome] === 1 && tries < this.maxAttempts[i]) {
      const p = this.pops[i];
      const delay = preparedDelay(p.layers[0].backoff, tries, p.backoffRng, actions.layerJitter, act);
      engine.after(delay, this.kRetry, act);
      return;
    }
    if (this.deadLetter[i] === 1) this.rec.deadLettered(engine.now, i);
    this.ended(act, i, false);
  }

  /** Clients.succeed / fail and ended: the action is over. */
  private ended(act: number, i: number, ok: boolean): void {
    const actions = this.actions;
    const now = this.engine.now;
    this.rec.actionEnded(now, i, ok, actions.attempts[act], actions.startT[act]);
    this.actionTimeS[i] += now - actions.startT[act];
    this.actionsEnded[i]++;
    actions.release(act);
  }

  // ── The server (frontend.ts, instance.ts) ─────────────────────────────────────

  /** Instance.arrive (the frontend has nothing to do for a plain scenario). */
  private arrive(a: number, gen: number, route: number): void {
    const now = this.engine.now;
    const line = this.line;
    if (line.length === 0 && this.busy < this.slots) {
      this.begin(a, gen, now, now);
    } else if (line.length < this.queueCapacity) {
      const at = this.attempts;
      at.waitingIn[a] = this.queueNo;
      at.waitingAt[a] = line.push(a, now, route);
      this.rec.queueChanged(now, +1);
    } else {
      this.answer(a, OUTCOME_QUEUE_FULL);
    }
  }

  /** Instance.begin: serve attempt (a, gen), or an abandoned one when a is NOBODY. */
  private begin(a: number, gen: number, arrivedT: number, now: number): void {
    this.served++;
    this.queueWaitS += now - arrivedT;
    const outcome = this.dependencyDown ? OUTCOME_DEPENDENCY : OUTCOME_OK;
    const work = outcome === OUTCOME_OK ? this.serviceTime() : this.failFastTime;
    if (work <= 0) {
      this.finish(a, gen, outcome, 0);
      return;
    }
    const j = this.freeJobs[--this.freeTop];
    this.jobId[j] = a;
    this.jobGen[j] = gen;
    this.jobWork[j] = work;
    this.jobOutcome[j] = outcome;
    this.busy++;
    this.rec.busyChanged(now, +1);
    this.engine.after(work, this.kDone, j);
  }

  /** Instance.done. */
  private done(j: number): void {
    this.busy--;
    this.freeJobs[this.freeTop++] = j;
    this.rec.busyChanged(this.engine.now, -1);
    this.finish(this.jobId[j], this.jobGen[j], this.jobOutcome[j], this.jobWork[j]);
    this.pump();
  }

  /** Instance.finish: answer the attempt, or count its work as wasted. */
  private finish(a: number, gen: number, outcome: number, work: number): void {
    const awaited = a !== NOBODY && this.attempts.gen[a] === gen;
    if (work > 0) this.rec.workDone(this.engine.now, work, !awaited);
    if (awaited) this.answer(a, outcome);
    else this.wastedWorkS += work;
  }

  /** Instance.pump (FIFO, no CoDel): starts queued attempts while slots are free. */
  private pump(): void {
    const line = this.line;
    if (line.length === 0 || this.busy >= this.slots) return;
    const now = this.engine.now;
    const at = this.attempts;
    let taken = 0;
    while (line.length > 0 && this.busy < this.slots) {
      line.popFront();
      let a = line.poppedId;
      if (at.waitingIn[a] !== this.queueNo || at.waitingAt[a] !== line.poppedIndex) a = NOBODY;
      else at.waitingIn[a] = -1;
      taken++;
      this.begin(a, a === NOBODY ? 0 : at.gen[a], line.poppedT, now);
    }
    this.rec.queueChanged(now, -taken);
  }
}
