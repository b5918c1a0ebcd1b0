/**
 * Client populations driving user actions through their retry layers.
 *
 * Layers nest: layer l's try is a whole call to layer l+1, and the innermost layer's try
 * is one attempt at the server. A try ends in success, a failure, or the layer's own
 * per-try timeout (which abandons everything below it). A failed try is retried when the
 * layer retries that outcome, has tries left, its deadline allows, its budget lends a
 * retry and the Retry-After policy does not say give up; otherwise the call fails, and that
 * final failure is one failure seen by the layer above. With every try failing, a stack of
 * layers of m1, m2, … tries makes m1 x m2 x … attempts.
 *
 * Timers (per-try timeouts, backoff waits) carry (action, token << 3 | layer); a layer's
 * current token changes whenever its try ends, so a timer that outlived its try does nothing.
 * Per-try timeouts are also cancelled when their try ends first (most are answered in
 * time), so that pending timers follow the tries in flight rather than the tries made.
 *
 * A hedging innermost layer (option `hedge`, hedging.ts) may have several attempts of one
 * try out at once: the first in actions.inflight, the hedges in hedgeOut. Its per-try
 * timeout is then a layer timeout (keyed by the try's token, not by one attempt), the first
 * success ends the try and cancels the others, and a failure ends it only when no attempt
 * of the try is still out.
 *
 * A closed population (arrivals kind closed) has no arrival process: each of its users
 * starts an action, and when that action ends (success, failure, abandoned) thinks for a
 * think time and starts the next, so its load follows the answers it gets.
 *
 * A journey's step (arrivals kind after) has none either: journeys.ts starts its actions when
 * the previous step succeeds. People who leave the service after failures (people.ts) start
 * nothing while away.
 */
import { NOT_CANCELLABLE, type Engine } from '../../engine/engine.js';
import type { Fault, Population } from '../../scenario/schema.js';
import type { Recorder } from '../recorder.js';
import { populationState, type PopulationState, type LayerState, type RemoteSwitch } from './population.js';
import { preparedDelay, initialBackoffState } from './backoff.js';
import { MAX_HEDGES } from '../../scenario/limits.js';
import { Overridable } from '../overridable.js';
import { Journeys } from './journeys.js';
import { mayLeave, sharePeople } from './people.js';
import { grow, growTo } from './typed-arrays.js';
import {
  ACTION_INVALID, ACTION_QUEUED_OFFLINE, ATTEMPT_HEADER, ATTEMPT_INVALID, LAYER_SHIFT, MAX_LAYERS,
  type Actions, type Attempts,
} from '../records.js';
import { OUTCOME_OK, OUTCOME_TIMEOUT, OUTCOME_REFUSED_LOCALLY, OUTCOME_INVALID, OUTCOME_UNSUPPORTED_VERSION, OUTCOME_BLOCKED, OUTCOME_CHALLENGED, OUTCOME_COUNT, DEFAULT_CONTRACT, carriesRetryAfter, type ResponseContract } from '../outcomes.js';

const LAYER_MASK = MAX_LAYERS - 1;

/** What a layer of an action is doing: nothing, a try in flight, or waiting to retry. */
const IDLE = 0, TRYING = 1, WAITING = 2;

/**
 * Outcomes that count as the service failing, for breakers and throttles: not the caller's
 * own errors (an invalid request, a version below the server's minimum, a client an
 * operator blocked, a bot challenge), which a healthy server answers too, nor a refusal that
 * never reached it.
 */
const COUNTS_AS_FAILURE: boolean[] = Array.from(
  { length: OUTCOME_COUNT },
  (_, o) => o !== OUTCOME_OK && o !== OUTCOME_INVALID && o !== OUTCOME_UNSUPPORTED_VERSION && o !== OUTCOME_BLOCKED && o !== OUTCOME_REFUSED_LOCALLY && o !== OUTCOME_CHALLENGED,
);

export class Clients {
  readonly pops: PopulationState[];
  private readonly kArrival: number;
  /** Per population: the lane of its arrivals (each comes due after the one before, so they need no heap). */
  private arrivalLane = new Int32Array(0);
  /**
   * Per population: the lane of its users' give-up timers (one delay, so they come due in the
   * order they start), or -1 without behaviour.giveUpAfter. Most actions end before their
   * user gives up: the timer is cancelled then (release), so it is never run as an event.
   */
  private readonly giveUpLane: Int32Array;
  private readonly kAttemptTimeout: number;
  private readonly kLayerTimeout: number;
  private readonly kRetry: number;
  private readonly kGiveUp: number;
  private readonly kRefresh: number;
  private readonly kFlush: number;
  private readonly kThought: number;
  private readonly kHedge: number;
  /** Journeys (arrivals kind after): which populations are steps, and what each action of a journey carries. */
  private readonly journeys: Journeys;
  /** Per population: its innermost layer hedges (so answers take the hedged path). */
  private readonly hedged: Uint8Array;
  /** Per action: hedge opportunities used in the current try, and the hedges out (MAX_HEDGES per action, -1 when none). */
  private hedgeSent: Int32Array<ArrayBuffer> = new Int32Array(0);
  private hedgeOut: Int32Array<ArrayBuffer> = new Int32Array(0);
  /**
   * Per action: 1 while its current hedged try is its first (the try's first attempt was the
   * action's first): whichever attempt of that try wins, an original request was served.
   */
  private hedgeFirstTry: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  /** For actions of closed populations: the user whose action it is (indexed by action id). */
  private userOf: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** Per population: summed durations (start to end, refreshes included) of the user actions that ended, and their count. */
  readonly actionTimeS: Float64Array;
  readonly actionsEnded: Float64Array;
  /**
   * Deadlines that travel (src/model/graph/): per action, the deadline its caller passed
   * down (Infinity when none), which its layers never try or retry past; per attempt, the
   * deadline it carries to the server. Allocated only when a population carries deadlines
   * or a service calls through these layers, so a world without them is untouched.
   */
  private callDeadline: Float64Array | undefined;
  private attemptDeadlines: Float64Array | undefined;
  /** For a service's calls: per action, the caller's tag, handed back when the call ends. */
  private callTag: Int32Array | undefined;
  /** A call made by a service ended (set by src/model/graph/, which owns these clients then). */
  callEnded: ((pop: number, tag: number, ok: boolean) => void) | undefined;
  /** Per population: does each attempt carry its deadline (identity.sendsDeadline)? */
  private readonly carriesDeadline: boolean[];
  /** Per population an operator flipped: its remote switch as the operator's actions leave it. */
  private readonly remoteSwitches = new Map<PopulationState, Overridable<RemoteSwitch | undefined>>();
  /** Where attempts go: set once the server exists (the server answers through `answer`). */
  send: (attempt: number) => void = () => {
    throw new Error('Clients.send used before a server was connected');
  };

  constructor(
    private readonly engine: Engine,
    private readonly actions: Actions,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    populations: Array<[string, Population]>,
    seed: number,
    contract: ResponseContract = DEFAULT_CONTRACT,
    /** The scenario's faults: a population may be offline for one of their windows. */
    faults: readonly Fault[] = [],
  ) {
    this.pops = populations.map(([name, spec]) => populationState(engine, name, spec, seed, contract, faults));
    sharePeople(this.pops);
    const layers = Math.max(...this.pops.map((p) => p.layers.length));
    if (layers > actions.layers) throw new RangeError(`a population has ${layers} layers; the action pool holds ${actions.layers}`);
    this.kArrival = engine.on((p) => this.arrival(p));
    this.kAttemptTimeout = engine.on((a, gen) => this.attemptTimeout(a, gen));
    this.kLayerTimeout = engine.on((act, aux) => this.layerTimeout(act, aux));
    this.kRetry = engine.on((act, aux) => this.retryDue(act, aux));
    this.kGiveUp = engine.on((act, gen) => this.giveUp(act, gen));
    this.kRefresh = engine.on((act, gen) => this.refreshDue(act, gen));
    this.kFlush = engine.on((p) => this.flushOffline(p));
    this.kThought = engine.on((p, user) => this.userActs(p, user));
    this.kHedge = engine.on((act, aux) => this.hedgeDue(act, aux));
    this.journeys = new Journeys(engine, rec, this.pops, (i, client, start, run) => this.begin(i, this.pops[i], client % this.pops[i].clients, -1, start, run));
    this.hedged = Uint8Array.from(this.pops, (p) => (p.layers[p.layers.length - 1].hedge ? 1 : 0));
    this.giveUpLane = Int32Array.from(this.pops, (p) => (p.behaviour.giveUpAfter !== undefined ? engine.laneFor(p.behaviour.giveUpAfter) : -1));
    this.actionTimeS = new Float64Array(this.pops.length);
    this.actionsEnded = new Float64Array(this.pops.length);
    this.carriesDeadline = this.pops.map((p) => p.spec.identity?.sendsDeadline === true);
    if (this.carriesDeadline.includes(true)) this.attemptDeadlines = new Float64Array(1024);
  }

  /** True when some population's attempts carry a deadline (a server may then drop expired work). */
  get sendsDeadlines(): boolean {
    return this.attemptDeadlines !== undefined;
  }

  /** The deadline attempt `a` carries (Infinity when it carries none). */
  readonly deadlineOf = (a: number): number => {
    const d = this.attemptDeadlines;
    return d !== undefined && a < d.length ? d[a] : Infinity;
  };

  /**
   * A service starts a call through population `i`'s layers (these clients are then a
   * service's callers: src/model/graph/): an action with no arrival process, ended through
   * `callEnded` with `tag`. `deadline` is the caller's, when it travels (else Infinity).
   */
  call(i: number, client: number, tag: number, deadline: number): number {
    const now = this.engine.now;
    const act = this.actions.create(i, client, now, 0);
    if (this.callTag === undefined || this.callTag.length <= act) {
      const n = Math.max(1024, (act + 1) * 2);
      this.callTag = grow(this.callTag, n, Int32Array);
      this.callDeadline = grow(this.callDeadline, n, Float64Array);
    }
    this.callTag[act] = tag;
    this.callDeadline![act] = deadline;
    this.rec.actionStarted(now, i);
    this.startCall(act, this.pops[i], 0);
    return act;
  }

  /** The caller no longer wants call `act` (of generation `gen`): everything in flight for it is abandoned. */
  cancel(act: number, gen: number): void {
    if (this.actions.gen[act] !== gen) return;
    this.abandonBelow(act, -1, true);
    this.rec.actionAbandoned(this.engine.now, this.actions.population[act], this.actions.attempts[act], this.actions.startT[act]);
    this.ended(act, false);
    this.release(act);
  }

  /** Tells a service's caller that its call ended (after the action's record is released). */
  private endCall(act: number, ok: boolean): void {
    const hook = this.callEnded;
    if (hook === undefined) return;
    const pop = this.actions.population[act];
    const tag = this.callTag![act];
    this.release(act);
    hook(pop, tag, ok);
  }

  /** An operator flips a population's remote switch now; returns the undo (overridable.ts: a later flip stays in force). */
  setRemoteSwitch(population: string, sw: Omit<RemoteSwitch, 'at'>): () => void {
    const p = this.pops.find((x) => x.name === population);
    if (!p) return () => {};
    let setting = this.remoteSwitches.get(p);
    if (setting === undefined) {
      setting = new Overridable(p.remoteSwitch, (s) => { p.remoteSwitch = s; });
      this.remoteSwitches.set(p, setting);
    }
    return setting.override({ ...sw, at: this.engine.now });
  }

  start(): void {
    // A lane for each population that has arrivals (a service's callers have none, and an empty lane still costs the run loop a look).
    this.arrivalLane = Int32Array.from(this.pops, (p) => (p.closed ? -1 : this.engine.lane()));
    this.pops.forEach((p, i) => {
      const t = p.arrivals.next(0);
      if (t < Infinity) this.engine.atInLane(this.arrivalLane[i], t, this.kArrival, i);
      if (p.offline) this.engine.at(p.offline.to, this.kFlush, i);
      // Each user of a closed population thinks once before its first action, so they start spread out.
      if (p.closed) for (let u = 0; u < p.closed.users; u++) this.engine.at(p.closed.think(), this.kThought, i, u);
    });
  }

  // ── Actions ────────────────────────────────────────────────────────────────

  private arrival(i: number): void {
    const p = this.pops[i];
    const now = this.engine.now;
    const next = p.arrivals.next(now);
    if (next < Infinity) this.engine.atInLane(this.arrivalLane[i], next, this.kArrival, i);
    const client = Math.floor(p.clientRng() * p.clients);
    // A person who left after a failure starts nothing until they come back (behaviour.leave).
    if (p.people !== undefined && p.people.awayUntil[client] > now) return this.rec.stayedAway(now, i);
    this.begin(i, p, client, -1);
  }

  /** A user of a closed population has finished thinking. */
  private userActs(i: number, user: number): void {
    const p = this.pops[i];
    this.begin(i, p, user % p.clients, user);
  }

  /** A user action starts (of an open population: user -1); a journey's step carries its journey's start and its run. */
  private begin(i: number, p: PopulationState, client: number, user: number, journeyStart = NaN, run = 1): void {
    const now = this.engine.now;
    const b = p.behaviour;
    let flags = 0;
    if (b.invalidShare !== undefined && p.behaviourRng() < b.invalidShare) flags |= ACTION_INVALID;
    const off = p.offline;
    const offline = off !== undefined && now >= off.from && now < off.to;
    if (offline) flags |= ACTION_QUEUED_OFFLINE;
    const act = this.actions.create(i, client, now, flags);
    if (user >= 0) {
      if (act >= this.userOf.length) this.userOf = growTo(this.userOf, act + 1);
      this.userOf[act] = user;
    }
    this.rec.actionStarted(now, i);
    if (this.journeys.rootOf[i] >= 0) this.journeys.started(act, i, journeyStart, run);
    if (b.giveUpAfter !== undefined) this.actions.giveUpTimer[act] = this.engine.afterInLane(this.giveUpLane[i], b.giveUpAfter, this.kGiveUp, act, this.actions.gen[act]);
    if (offline) {
      p.offlineQueued![client]++;
      p.offlineActions.push(act, this.actions.gen[act]);
      return;
    }
    this.startCall(act, p, 0);
  }

  /** Devices reconnect: queued actions go out at once, or spread over a window proportional to each device's queue. */
  private flushOffline(i: number): void {
    const p = this.pops[i];
    const off = p.offline!;
    const now = this.engine.now;
    const queue = p.offlineActions;
    for (let k = 0; k < queue.length; k += 2) {
      const act = queue[k], gen = queue[k + 1];
      if (this.actions.gen[act] !== gen) continue; // abandoned while queued
      this.actions.flags[act] &= ~ACTION_QUEUED_OFFLINE;
      const window = off.flush === 'at-once' ? 0 : off.flush.spreadPerAction * p.offlineQueued![this.actions.client[act]];
      this.engine.at(now + p.behaviourRng() * window, this.kRefresh, act, gen);
    }
    p.offlineActions = [];
  }

  private succeed(act: number): void {
    this.rec.actionEnded(this.engine.now, this.actions.population[act], true, this.actions.attempts[act], this.actions.startT[act]);
    this.ended(act, true);
    if (this.callEnded !== undefined) return this.endCall(act, true);
    this.release(act);
  }

  /** The action's record goes back to the pool; its user's give-up timer, if still pending, with it. */
  private release(act: number): void {
    this.engine.cancelInLane(this.giveUpLane[this.actions.population[act]], this.actions.giveUpTimer[act]);
    this.actions.release(act);
  }

  /**
   * An action ends, whatever its outcome (its record is still live): its time counts, a person
   * whose action did not succeed may leave the service (behaviour.leave), and a closed
   * population's user starts thinking, or comes back when their time away ends.
   */
  private ended(act: number, ok: boolean): void {
    const now = this.engine.now;
    const i = this.actions.population[act];
    this.actionTimeS[i] += now - this.actions.startT[act];
    this.actionsEnded[i]++;
    const p = this.pops[i];
    const closed = p.closed;
    const person = closed !== undefined ? this.userOf[act] : this.actions.client[act];
    if (this.journeys.rootOf[i] >= 0) this.journeys.ended(act, i, this.actions.client[act], ok);
    const leave = p.leave;
    const away = leave !== undefined && mayLeave(leave, p.people!, person, ok, now);
    if (away) this.rec.personLeft(now, i);
    if (closed === undefined) return;
    // A user who left acts again when they come back (the time away takes the think time's place).
    const until = away ? p.people!.awayUntil[person] : now + closed.think();
    if (until < Infinity) this.engine.at(until, this.kThought, i, person);
  }

  private fail(act: number, p: PopulationState): void {
    const r = p.behaviour.refresh;
    const actions = this.actions;
    if (r && actions.refreshes[act] < r.max && p.behaviourRng() < r.probability) {
      // The user starts the same action again by hand, after a while.
      actions.refreshes[act]++;
      this.engine.after(p.behaviourRng() * r.after, this.kRefresh, act, actions.gen[act]);
      return;
    }
    this.rec.actionEnded(this.engine.now, actions.population[act], false, actions.attempts[act], actions.startT[act]);
    this.ended(act, false);
    if (this.callEnded !== undefined) return this.endCall(act, false);
    this.release(act);
  }

  private refreshDue(act: number, gen: number): void {
    if (this.actions.gen[act] !== gen) return;
    this.startCall(act, this.pops[this.actions.population[act]], 0);
  }

  /** The user stops waiting: everything in flight for the action is abandoned. */
  private giveUp(act: number, gen: number): void {
    const actions = this.actions;
    if (actions.gen[act] !== gen) return;
    this.abandonBelow(act, -1);
    this.rec.actionAbandoned(this.engine.now, actions.population[act], actions.attempts[act], actions.startT[act]);
    this.ended(act, false);
    this.release(act);
  }

  // ── Layers ─────────────────────────────────────────────────────────────────

  private startCall(act: number, p: PopulationState, l: number): void {
    const actions = this.actions;
    const slot = actions.layerSlot(act, l);
    actions.layerTries[slot] = 0;
    actions.layerStart[slot] = this.engine.now;
    actions.layerJitter[slot] = initialBackoffState(p.layers[l].spec.backoff);
    actions.layerTaken[slot] = -1;
    actions.layerRetryCap[slot] = Infinity; // until the budget sees the first try (a gate may refuse it first)
    actions.layerState[slot] = IDLE;
    this.tryLayer(act, p, l);
  }

  private tryLayer(act: number, p: PopulationState, l: number): void {
    const actions = this.actions;
    const now = this.engine.now;
    const layer = p.layers[l];
    const slot = actions.layerSlot(act, l);
    let end = actions.layerStart[slot] + layer.spec.deadline;
    // A deadline passed down by a calling service bounds every layer (graph/route-calls.ts).
    if (this.callDeadline !== undefined && this.callDeadline[act] < end) end = this.callDeadline[act];
    const remaining = end - now;
    const client = actions.client[act];
    if (remaining <= 0) {
      // A retry that comes due past the deadline (after a breaker's wait, bounded by the
      // layer's own deadline but not the caller's) is not made: its budget gets back what it lent.
      this.returnLoan(layer, slot, client, now);
      return this.callFailed(act, p, l, OUTCOME_TIMEOUT, NaN);
    }
    for (let g = 0; g < layer.gates.length; g++) {
      const key = layer.gateScopeIsClient[g] ? client : 0;
      if (layer.gates[g].admit(key, now)) continue;
      const reopens = layer.gates[g].reopensAt(key, now);
      if (layer.spec.breaker?.whenOpen === 'wait' && reopens < actions.layerStart[slot] + layer.spec.deadline) {
        // The caller waits for the breaker to half-open; the wait is not a try.
        const token = actions.nextToken(act);
        actions.layerToken[slot] = token;
        actions.layerState[slot] = WAITING;
        this.engine.at(reopens, this.kRetry, act, (token << LAYER_SHIFT) | l);
        return;
      }
      actions.layerTries[slot]++;
      this.rec.refusedLocally(now, actions.population[act]);
      this.returnLoan(layer, slot, client, now);
      return this.tryEnded(act, p, l, OUTCOME_REFUSED_LOCALLY, NaN);
    }
    actions.layerTries[slot]++;
    actions.layerTryStart[slot] = now;
    const token = actions.nextToken(act);
    actions.layerToken[slot] = token;
    actions.layerState[slot] = TRYING;
    if (layer.budget) {
      const retry = actions.layerTries[slot] > 1;
      const cap = layer.budget.started(layer.budgetScopeIsClient ? client : 0, now, retry);
      if (!retry) actions.layerRetryCap[slot] = cap;
    }
    const timeout = layer.spec.timeout < remaining ? layer.spec.timeout : remaining;
    // The try's timeout is cancelled when the try ends first (tryEnded, abandonBelow).
    actions.layerTimer[slot] = NOT_CANCELLABLE;
    if (layer.hedge !== undefined && l === p.layers.length - 1) return this.tryHedged(act, p, l, slot, token, timeout);
    if (l === p.layers.length - 1) {
      const n = ++actions.attempts[act];
      const flags = ((actions.flags[act] & ACTION_INVALID) !== 0 ? ATTEMPT_INVALID : 0) | (p.behaviour.attemptHeader ? ATTEMPT_HEADER : 0);
      const a = this.attempts.create(act, now, flags, n);
      actions.inflight[act] = a;
      this.rec.attempt(now, actions.population[act], n > 1, n > 1 && (flags & ATTEMPT_INVALID) !== 0);
      if (this.attemptDeadlines !== undefined) this.carryDeadline(act, p, a, now + timeout);
      if (timeout < Infinity) actions.layerTimer[slot] = this.engine.afterInLane(layer.timeoutLane, timeout, this.kAttemptTimeout, a, this.attempts.gen[a]);
      this.send(a);
    } else {
      if (timeout < Infinity) actions.layerTimer[slot] = this.engine.afterInLane(layer.timeoutLane, timeout, this.kLayerTimeout, act, (token << LAYER_SHIFT) | l);
      this.startCall(act, p, l + 1);
    }
  }

  /** A retry its budget lent (layerTaken) will not be made: the budget gets it back. */
  private returnLoan(layer: LayerState, slot: number, client: number, now: number): void {
    const taken = this.actions.layerTaken[slot];
    if (layer.budget === undefined || taken <= 0) return;
    layer.budget.cancel(layer.budgetScopeIsClient ? client : 0, now, taken);
    this.actions.layerTaken[slot] = -1;
  }

  /**
   * What attempt `a` tells the server of its deadline: the earliest end of its layers' current
   * tries and calls (the innermost try ends at `innermostEnd`), and of the caller's deadline.
   */
  private carryDeadline(act: number, p: PopulationState, a: number, innermostEnd: number): void {
    let d = Infinity;
    if (this.carriesDeadline[this.actions.population[act]]) {
      d = innermostEnd;
      for (let k = 0; k < p.layers.length - 1; k++) {
        const slot = this.actions.layerSlot(act, k);
        const spec = p.layers[k].spec;
        const tryEnd = this.actions.layerTryStart[slot] + spec.timeout;
        const callEnd = this.actions.layerStart[slot] + spec.deadline;
        if (tryEnd < d) d = tryEnd;
        if (callEnd < d) d = callEnd;
      }
      if (this.callDeadline !== undefined && this.callDeadline[act] < d) d = this.callDeadline[act];
    }
    if (this.attemptDeadlines!.length <= a) this.attemptDeadlines = grow(this.attemptDeadlines, (a + 1) * 2, Float64Array);
    this.attemptDeadlines![a] = d;
  }

  /** The server answered an attempt whose client was still waiting. */
  readonly answer = (a: number, outcome: number, retryAfter: number): void => {
    const at = this.attempts;
    const now = this.engine.now;
    const act = at.action[a];
    const pop = this.actions.population[act];
    const hedged = this.hedged[pop] === 1;
    this.rec.answer(now, pop, at.sentT[a], outcome, !hedged && at.number[a] === 1);
    if (hedged) return this.hedgedAnswer(act, this.pops[pop], a, outcome, retryAfter);
    at.release(a);
    this.actions.inflight[act] = -1;
    const p = this.pops[pop];
    this.tryEnded(act, p, p.layers.length - 1, outcome, retryAfter);
  };

  // ── Hedged requests (the innermost layer's option `hedge`) ──────────────────

  /** A try of a hedging layer: its first attempt, its timeout over all its attempts, and the first hedge's timer. */
  private tryHedged(act: number, p: PopulationState, l: number, slot: number, token: number, timeout: number): void {
    const actions = this.actions;
    const h = p.layers[l].hedge!;
    h.tryStarted();
    if (act >= this.hedgeSent.length) {
      const n = Math.max(act + 1, this.hedgeSent.length * 2, 64);
      const sent = new Int32Array(n);
      sent.set(this.hedgeSent);
      const out = new Int32Array(n * MAX_HEDGES).fill(-1);
      out.set(this.hedgeOut);
      const first = new Uint8Array(n);
      first.set(this.hedgeFirstTry);
      this.hedgeSent = sent;
      this.hedgeOut = out;
      this.hedgeFirstTry = first;
    }
    this.hedgeSent[act] = 0;
    this.hedgeFirstTry[act] = actions.attempts[act] === 0 ? 1 : 0;
    const aux = (token << LAYER_SHIFT) | l;
    // Timers first: the send may be answered at once (a refusal at the edge), ending the try.
    if (timeout < Infinity) actions.layerTimer[slot] = this.engine.afterInLane(p.layers[l].timeoutLane, timeout, this.kLayerTimeout, act, aux);
    if (h.delay < Infinity) this.engine.after(h.delay, this.kHedge, act, aux);
    const a = this.newAttempt(act, p);
    if (this.attemptDeadlines !== undefined) this.carryDeadline(act, p, a, this.engine.now + timeout);
    actions.inflight[act] = a;
    this.send(a);
  }

  /** An attempt record for the action's next attempt, counted as sent. */
  private newAttempt(act: number, p: PopulationState): number {
    const actions = this.actions;
    const now = this.engine.now;
    const n = ++actions.attempts[act];
    const flags = ((actions.flags[act] & ACTION_INVALID) !== 0 ? ATTEMPT_INVALID : 0) | (p.behaviour.attemptHeader ? ATTEMPT_HEADER : 0);
    const a = this.attempts.create(act, now, flags, n);
    this.rec.attempt(now, actions.population[act], n > 1, n > 1 && (flags & ATTEMPT_INVALID) !== 0);
    return a;
  }

  /** A hedge is due: if the try is still on and the budget lends one, another attempt goes out. */
  private hedgeDue(act: number, aux: number): void {
    const l = aux & LAYER_MASK;
    const actions = this.actions;
    if (actions.layerToken[actions.layerSlot(act, l)] !== aux >>> LAYER_SHIFT) return; // the try is over
    const p = this.pops[actions.population[act]];
    const h = p.layers[l].hedge!;
    const k = this.hedgeSent[act]++;
    if (k + 1 < h.maxHedges) this.engine.after(h.delay, this.kHedge, act, aux);
    if (!h.take()) return; // the budget has nothing to lend: this hedge is not sent
    const a = this.newAttempt(act, p);
    if (this.attemptDeadlines !== undefined) {
      // A hedge carries what is left of its try, like the try's first attempt.
      const slot = actions.layerSlot(act, l), spec = p.layers[l].spec;
      const tryEnd = actions.layerTryStart[slot] + spec.timeout, callEnd = actions.layerStart[slot] + spec.deadline;
      this.carryDeadline(act, p, a, tryEnd < callEnd ? tryEnd : callEnd);
    }
    this.hedgeOut[act * MAX_HEDGES + k] = a;
    this.send(a);
  }

  /** An attempt of a hedged try was answered (its record is still live). */
  private hedgedAnswer(act: number, p: PopulationState, a: number, outcome: number, retryAfter: number): void {
    const actions = this.actions;
    const l = p.layers.length - 1;
    p.layers[l].hedge!.observe(this.engine.now - this.attempts.sentT[a]);
    this.attempts.release(a);
    let out = 0;
    if (actions.inflight[act] === a) actions.inflight[act] = -1;
    else if (actions.inflight[act] >= 0) out++;
    const base = act * MAX_HEDGES;
    for (let k = 0; k < MAX_HEDGES; k++) {
      const b = this.hedgeOut[base + k];
      if (b === a) this.hedgeOut[base + k] = -1;
      else if (b >= 0) out++;
    }
    if (outcome === OUTCOME_OK) {
      // The winner: the others are cancelled (the server, still holding them, will find them gone).
      if (out > 0) this.releaseHedged(act);
      if (this.hedgeFirstTry[act] === 1) this.rec.firstTryServed(actions.population[act], actions.layerTryStart[actions.layerSlot(act, l)]);
    } else if (out > 0) return; // another attempt of the try may still succeed
    this.tryEnded(act, p, l, outcome, retryAfter);
  }

  /** Releases every attempt of the action's hedged try that is still out. */
  private releaseHedged(act: number): void {
    const actions = this.actions;
    if (actions.inflight[act] >= 0) {
      this.attempts.release(actions.inflight[act]);
      actions.inflight[act] = -1;
    }
    // An action that never started a hedged try (still queued offline, or waiting for a
    // breaker when its user gave up) may lie beyond the hedge arrays, which grow only in
    // tryHedged: it has no hedge out.
    if (act >= this.hedgeSent.length) return;
    const base = act * MAX_HEDGES;
    for (let k = 0; k < MAX_HEDGES; k++) {
      const b = this.hedgeOut[base + k];
      if (b < 0) continue;
      this.attempts.release(b);
      this.hedgeOut[base + k] = -1;
    }
  }

  private attemptTimeout(a: number, gen: number): void {
    const at = this.attempts;
    if (!at.isAwaited(a, gen)) return; // answered already: a stale timeout
    const act = at.action[a];
    const pop = this.actions.population[act];
    this.rec.timedOut(this.engine.now, pop, OUTCOME_TIMEOUT);
    // The client is done with it; the server, still holding (a, gen), will find it gone.
    at.release(a);
    this.actions.inflight[act] = -1;
    const p = this.pops[pop];
    this.tryEnded(act, p, p.layers.length - 1, OUTCOME_TIMEOUT, NaN);
  }

  private layerTimeout(act: number, aux: number): void {
    const l = aux & LAYER_MASK;
    if (this.actions.layerToken[this.actions.layerSlot(act, l)] !== aux >>> LAYER_SHIFT) return;
    const pop = this.actions.population[act];
    // An attempt still out fails now, by timeout; with none out (a layer below was waiting to
    // retry), the failures it saw were counted when they came, and no attempt fails here.
    if (this.attemptOut(act)) this.rec.timedOut(this.engine.now, pop, OUTCOME_TIMEOUT);
    this.abandonBelow(act, l);
    this.tryEnded(act, this.pops[pop], l, OUTCOME_TIMEOUT, NaN);
  }

  /** Whether an attempt of the action is still out (a hedged try's hedges included). */
  private attemptOut(act: number): boolean {
    if (this.actions.inflight[act] >= 0) return true;
    if (this.hedged[this.actions.population[act]] === 0 || act >= this.hedgeSent.length) return false;
    for (let k = 0; k < MAX_HEDGES; k++) if (this.hedgeOut[act * MAX_HEDGES + k] >= 0) return true;
    return false;
  }

  /**
   * Cancels the calls of every layer below `l` and the attempt in flight, if any. Budgets
   * and gates of those layers hear of it: a try cut short ended in failure, unless the
   * caller `cancelled` the call (it needed it no more: no outcome, neither way), and a retry
   * that was still waiting gives back what its budget lent.
   */
  private abandonBelow(act: number, l: number, cancelled = false): void {
    const actions = this.actions;
    const p = this.pops[actions.population[act]];
    const now = this.engine.now;
    const client = actions.client[act];
    for (let k = l + 1; k < p.layers.length; k++) {
      const slot = actions.layerSlot(act, k);
      const layer = p.layers[k];
      const state = actions.layerState[slot];
      if (state === TRYING) {
        this.engine.cancelInLane(layer.timeoutLane, actions.layerTimer[slot]);
        const budgetKey = layer.budgetScopeIsClient ? client : 0;
        if (cancelled) {
          // The caller needs it no more: no outcome, neither way.
          for (let g = 0; g < layer.gates.length; g++) layer.gates[g].cancelled(layer.gateScopeIsClient[g] ? client : 0, now);
          layer.budget?.cancelledTry(budgetKey, now, actions.layerTaken[slot]);
        } else {
          // Cut short from above (a timeout, the user giving up): a try that ended without an answer, in failure.
          for (let g = 0; g < layer.gates.length; g++) layer.gates[g].ended(layer.gateScopeIsClient[g] ? client : 0, now, true);
          layer.budget?.ended(budgetKey, now, OUTCOME_TIMEOUT, actions.layerTaken[slot]);
        }
      } else if (state === WAITING && actions.layerTaken[slot] > 0) {
        layer.budget?.cancel(layer.budgetScopeIsClient ? client : 0, now, actions.layerTaken[slot]);
      }
      actions.layerState[slot] = IDLE;
      actions.layerToken[slot] = -1;
    }
    if (this.hedged[actions.population[act]] === 1) this.releaseHedged(act);
    const a = actions.inflight[act];
    if (a >= 0) {
      this.attempts.release(a);
      actions.inflight[act] = -1;
    }
  }

  /** A try of layer l ended: the call succeeds, retries, or fails upward. */
  private tryEnded(act: number, p: PopulationState, l: number, outcome: number, retryAfter: number): void {
    const actions = this.actions;
    const now = this.engine.now;
    const layer = p.layers[l];
    const slot = actions.layerSlot(act, l);
    actions.layerToken[slot] = -1;
    const wasTrying = actions.layerState[slot] === TRYING;
    actions.layerState[slot] = IDLE;
    const client = actions.client[act];
    if (wasTrying) {
      this.engine.cancelInLane(layer.timeoutLane, actions.layerTimer[slot]);
      const failed = COUNTS_AS_FAILURE[outcome];
      for (let g = 0; g < layer.gates.length; g++) layer.gates[g].ended(layer.gateScopeIsClient[g] ? client : 0, now, failed);
      if (layer.budget) layer.budget.ended(layer.budgetScopeIsClient ? client : 0, now, outcome, actions.layerTaken[slot]);
    }
    if (outcome === OUTCOME_OK) {
      if (l === 0) return this.succeed(act);
      return this.tryEnded(act, p, l - 1, OUTCOME_OK, NaN);
    }
    if (l === 0) {
      const seen = ++actions.failuresSeen[act];
      const limit = p.behaviour.giveUpAfterFailures;
      if (limit !== undefined && seen >= limit) {
        // The user abandons the action: it ends like one given up by its timer (giveUp).
        this.rec.actionAbandoned(now, actions.population[act], actions.attempts[act], actions.startT[act]);
        this.ended(act, false);
        this.release(act);
        return;
      }
    }
    const delay = this.retryDelay(act, p, layer, slot, outcome, retryAfter);
    if (delay < 0) return this.callFailed(act, p, l, outcome, retryAfter);
    const token = actions.nextToken(act);
    actions.layerToken[slot] = token;
    actions.layerState[slot] = WAITING;
    this.engine.after(delay, this.kRetry, act, (token << LAYER_SHIFT) | l);
  }

  /** The wait before retrying, or -1 when this layer does not retry. */
  private retryDelay(act: number, p: PopulationState, layer: LayerState, slot: number, outcome: number, retryAfter: number): number {
    const actions = this.actions;
    const spec = layer.spec;
    const now = this.engine.now;
    if (!layer.retry[outcome]) return -1;
    const tries = actions.layerTries[slot];
    const sw = p.remoteSwitch;
    const switched = sw !== undefined && now >= sw.at;
    const maxAttempts = switched && sw.maxAttempts !== undefined && sw.maxAttempts < spec.maxAttempts ? sw.maxAttempts : spec.maxAttempts;
    if (tries >= maxAttempts) return -1;
    // A budget may cap the retries of one call when it starts (Finagle's per-request cap).
    if (layer.budget !== undefined && tries > actions.layerRetryCap[slot]) return -1;
    let delay =
      spec.backoff.kind === 'visibility'
        ? Math.max(0, spec.timeout - (now - actions.layerTryStart[slot])) // redelivered when the visibility timeout expires
        : preparedDelay(layer.backoff, tries, p.backoffRng, actions.layerJitter, slot);
    if (carriesRetryAfter(retryAfter)) {
      // The answer carried a Retry-After (or a gRPC pushback): src/model/client/layer-spec.ts, RetryAfterSpec.
      const ra = spec.retryAfter;
      const mode = ra.mode;
      if (mode === 'honour') delay = Math.max(delay, retryAfter);
      else if (mode === 'exact') {
        if (retryAfter > ra.max) return -1;
        delay = Math.min(retryAfter, ra.cap);
      } else if (mode === 'bounded') delay = Math.max(delay, Math.min(retryAfter, delay + ra.bound));
      else if (mode === 'give-up') {
        if (retryAfter > ra.max) return -1;
        delay = Math.max(delay, retryAfter);
      } else if (mode === 'cap') delay = Math.max(delay, Math.min(retryAfter, ra.cap));
    }
    if (switched && sw.minWait !== undefined && delay < sw.minWait) delay = sw.minWait;
    if (now + delay >= actions.layerStart[slot] + spec.deadline) return -1;
    if (this.callDeadline !== undefined && now + delay >= this.callDeadline[act]) return -1; // no retry past the caller's deadline
    if (layer.retryGate !== undefined && !layer.retryGate.allowsRetry(layer.retryGateScopeIsClient ? actions.client[act] : 0, now)) return -1;
    if (layer.budget) {
      const taken = layer.budget.acquire(layer.budgetScopeIsClient ? actions.client[act] : 0, now, outcome);
      if (taken < 0) return -1;
      actions.layerTaken[slot] = taken;
    }
    return delay;
  }

  private retryDue(act: number, aux: number): void {
    const l = aux & LAYER_MASK;
    const slot = this.actions.layerSlot(act, l);
    if (this.actions.layerToken[slot] !== aux >>> LAYER_SHIFT) return;
    this.actions.layerState[slot] = IDLE;
    const p = this.pops[this.actions.population[act]];
    this.tryLayer(act, p, l);
  }

  /** Layer l gives up on its call: one failure for the layer above (or the user). */
  private callFailed(act: number, p: PopulationState, l: number, outcome: number, retryAfter: number): void {
    if (p.layers[l].spec.deadLetter) this.rec.deadLettered(this.engine.now, this.actions.population[act]);
    if (l === 0) return this.fail(act, p);
    this.tryEnded(act, p, l - 1, outcome, retryAfter);
  }
}
