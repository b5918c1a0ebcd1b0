/**
 * Pools of user-action and attempt records, kept as parallel typed arrays with free lists.
 * The simulator creates and drops millions of both per run; plain objects would make the
 * garbage collector the bottleneck and memory follow the number of events. Here memory
 * follows what is in flight, and a record's generation lets a late event (a timeout for
 * an attempt that was answered and recycled) recognise that it is stale.
 */

import { UNMETERED, type MemoryMeter } from '../engine/budget.js';
import { NOT_CANCELLABLE } from '../engine/engine.js';

function grow64(a: Float64Array, n: number): Float64Array { const b = new Float64Array(n); b.set(a); return b; }
function grow32(a: Int32Array, n: number): Int32Array { const b = new Int32Array(n); b.set(a); return b; }

/** Bytes held by an object's typed-array fields (whatever fields a pool has now). */
function typedArrayBytes(o: object): number {
  let n = 0;
  for (const v of Object.values(o)) if (ArrayBuffer.isView(v)) n += v.byteLength;
  return n;
}

export interface PoolOptions {
  capacity?: number;
  /** The run's memory meter: growth is charged to it (engine/budget.ts). */
  meter?: MemoryMeter;
}

/** Free-list bookkeeping shared by both pools. */
abstract class Pool {
  gen: Int32Array;
  private free: Int32Array;
  private freeTop = 0;
  private high = 0;
  live = 0;
  protected capacity: number;
  private readonly meter: MemoryMeter;

  constructor(opts: PoolOptions, private readonly what: string) {
    this.capacity = opts.capacity ?? 4096;
    this.meter = opts.meter ?? UNMETERED;
    this.gen = new Int32Array(this.capacity);
    this.free = new Int32Array(this.capacity);
  }

  /** Charges the pool's initial fields to the meter; subclasses call it once their fields exist. */
  protected charge(): void {
    this.meter.grew(typedArrayBytes(this), this.what);
  }

  protected take(): number {
    this.live++;
    if (this.freeTop > 0) return this.free[--this.freeTop];
    if (this.high === this.capacity) this.growTo(this.capacity * 2);
    return this.high++;
  }

  release(id: number): void {
    this.live--;
    this.gen[id] = (this.gen[id] + 1) | 0;
    this.free[this.freeTop++] = id;
  }

  private growTo(n: number): void {
    // Every field scales with the capacity, so the growth costs what is held now, times n/capacity - 1.
    this.meter.grew(typedArrayBytes(this) * (n / this.capacity - 1), this.what);
    this.gen = grow32(this.gen, n);
    this.free = grow32(this.free, n);
    this.growFields(n);
    this.capacity = n;
  }

  protected abstract growFields(n: number): void;
}

/** Most retry layers a population may stack (queue, app, HTTP library, proxy… ). */
export const MAX_LAYERS = 8;
export const LAYER_SHIFT = 3; // log2(MAX_LAYERS): event aux = token << LAYER_SHIFT | layer

/** Action flags. */
export const ACTION_INVALID = 1;
export const ACTION_QUEUED_OFFLINE = 2;

/**
 * A user action: what a person or job wants done once, however many attempts it takes.
 * Per layer it holds the state of that layer's current call: tries made, when the call
 * began, the stateful jitter's memory, the token of the current try (what a timer carries
 * to know it is still current), the handle of its timeout, what a retry budget lent it and
 * how many retries the budget allows the call.
 * Layer fields are at `layerSlot(action, layer)`: the stride is the most layers any
 * population of the run has, not MAX_LAYERS, so that one action's layer fields sit together
 * (with one layer, eight times fewer cache lines touched per event than at a stride of 8).
 */
export class Actions extends Pool {
  /** Layer slots per action. */
  readonly layers: number;
  population!: Int32Array;
  client!: Int32Array;
  /** Attempts sent to the server (all layers' tries at the innermost layer). */
  attempts!: Int32Array;
  startT!: Float64Array;
  flags!: Int32Array;
  /** Monotonic per slot and never reset, so a stale timer's token never matches a later occupant's. */
  tokenCounter!: Int32Array;
  /** The attempt in flight at the server, or -1. */
  inflight!: Int32Array;
  /** Failed tries the user has seen (outermost layer), and manual refreshes made. */
  failuresSeen!: Int32Array;
  /** The handle of the user's give-up timer in its lane (behaviour.giveUpAfter), cancelled when the action ends first. */
  giveUpTimer!: Float64Array;
  refreshes!: Int32Array;
  layerTries!: Int32Array;
  layerStart!: Float64Array;
  layerTryStart!: Float64Array;
  layerJitter!: Float64Array;
  layerToken!: Int32Array;
  layerTaken!: Float64Array;
  /** Per layer: the most retries the layer's budget allows this call, fixed when the call starts (Infinity: no cap). */
  layerRetryCap!: Float64Array;
  /** Per layer: 0 idle, 1 a try in flight, 2 waiting to retry (see clients.ts). */
  layerState!: Int32Array;
  /** Per layer: the handle of the current try's timeout in its lane, to cancel it when the try ends. */
  layerTimer!: Float64Array;

  /** `layers`: the most retry layers of any population that will create actions here. */
  constructor(opts: PoolOptions & { layers?: number } = {}) {
    super(opts, 'the user actions in progress');
    const layers = opts.layers ?? MAX_LAYERS;
    if (!(layers >= 1 && layers <= MAX_LAYERS)) throw new RangeError(`actions hold 1 to ${MAX_LAYERS} layers (got ${layers})`);
    this.layers = layers;
    this.growFields(this.capacity);
    this.charge();
  }

  /** Index of (action, layer) in the layer fields. */
  layerSlot(id: number, layer: number): number {
    return id * this.layers + layer;
  }

  create(population: number, client: number, now: number, flags: number): number {
    const id = this.take();
    this.population[id] = population;
    this.client[id] = client;
    this.attempts[id] = 0;
    this.startT[id] = now;
    this.flags[id] = flags;
    this.inflight[id] = -1;
    this.failuresSeen[id] = 0;
    this.refreshes[id] = 0;
    this.giveUpTimer[id] = NOT_CANCELLABLE; // no timer until the user's behaviour starts one (a service's calls never do)
    return id;
  }

  /** A fresh token for a try or a wait at some layer of this action. */
  nextToken(id: number): number {
    return (this.tokenCounter[id] = (this.tokenCounter[id] + 1) & 0x0fffffff);
  }

  protected growFields(n: number): void {
    const g32 = (a: Int32Array | undefined, len: number) => (a ? grow32(a, len) : new Int32Array(len));
    const g64 = (a: Float64Array | undefined, len: number) => (a ? grow64(a, len) : new Float64Array(len));
    this.population = g32(this.population, n);
    this.client = g32(this.client, n);
    this.attempts = g32(this.attempts, n);
    this.startT = g64(this.startT, n);
    this.flags = g32(this.flags, n);
    this.tokenCounter = g32(this.tokenCounter, n);
    this.inflight = g32(this.inflight, n);
    this.failuresSeen = g32(this.failuresSeen, n);
    this.giveUpTimer = g64(this.giveUpTimer, n);
    this.refreshes = g32(this.refreshes, n);
    const m = n * this.layers;
    this.layerTries = g32(this.layerTries, m);
    this.layerStart = g64(this.layerStart, m);
    this.layerTryStart = g64(this.layerTryStart, m);
    this.layerJitter = g64(this.layerJitter, m);
    this.layerToken = g32(this.layerToken, m);
    this.layerTaken = g64(this.layerTaken, m);
    this.layerRetryCap = g64(this.layerRetryCap, m);
    this.layerState = g32(this.layerState, m);
    this.layerTimer = g64(this.layerTimer, m);
  }
}

/** Outcome of an attempt as decided by the server: 0 = ok, else 1 + index in FAILURE_CAUSES. */
export { OUTCOME_OK } from './outcomes.js';

/** Attempt flags, as the server may see them. */
export const ATTEMPT_INVALID = 1;
/** The client declares the attempt number in a header. */
export const ATTEMPT_HEADER = 2;

/**
 * One request that reaches (or tries to reach) the server, as its client sees it. The
 * record lives while the client waits for it; the server refers to it by (id, generation)
 * and finds out, when it is done, whether anyone is still waiting.
 */
export class Attempts extends Pool {
  action!: Int32Array;
  sentT!: Float64Array;
  flags!: Int32Array;
  /** The attempt's number within its user action (1 = first), as a client would declare it. */
  number!: Int32Array;
  /**
   * Where the attempt waits in a server queue: the queue's number (-1 when not queued) and
   * its entry's index there. Cleared when the client stops waiting, so an entry that does
   * not match is one nobody waits for (server/instance.ts), and a queue entry needs no
   * generation of its own.
   */
  waitingIn!: Int32Array;
  waitingAt!: Float64Array;
  private queues = 0;

  constructor(opts: PoolOptions = {}) {
    super(opts, 'the attempts awaited by clients');
    this.growFields(this.capacity);
    this.charge();
  }

  create(action: number, now: number, flags: number, number: number): number {
    const id = this.take();
    this.action[id] = action;
    this.sentT[id] = now;
    this.flags[id] = flags;
    this.number[id] = number;
    this.waitingIn[id] = -1;
    return id;
  }

  override release(id: number): void {
    this.waitingIn[id] = -1;
    super.release(id);
  }

  /** A number for a new server queue, to mark the attempts waiting in it. */
  newQueue(): number {
    return this.queues++;
  }

  /**
   * True while the client still waits for attempt (id, gen): the record is released the
   * moment the client stops waiting (answer or timeout), which bumps its generation.
   */
  isAwaited(id: number, gen: number): boolean {
    return this.gen[id] === gen;
  }

  protected growFields(n: number): void {
    this.action = this.action ? grow32(this.action, n) : new Int32Array(n);
    this.sentT = this.sentT ? grow64(this.sentT, n) : new Float64Array(n);
    this.flags = this.flags ? grow32(this.flags, n) : new Int32Array(n);
    this.number = this.number ? grow32(this.number, n) : new Int32Array(n);
    this.waitingIn = this.waitingIn ? grow32(this.waitingIn, n) : new Int32Array(n);
    this.waitingAt = this.waitingAt ? grow64(this.waitingAt, n) : new Float64Array(n);
  }
}
