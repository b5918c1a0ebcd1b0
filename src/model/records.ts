/**
 * Pools of user-action and attempt records, kept as parallel typed arrays with free lists.
 * The simulator creates and drops millions of both per run; plain objects would make the
 * garbage collector the bottleneck and memory follow the number of events. Here memory
 * follows what is in flight, and a record's generation lets a late event (a timeout for
 * an attempt that was answered and recycled) recognise that it is stale.
 */

import { UNMETERED, type MemoryMeter } from '../engine/budget.js';

function grow64(a: Float64Array, n: number): Float64Array { const b = new Float64Array(n); b.set(a); return b; }
function grow32(a: Int32Array, n: number): Int32Array { const b = new Int32Array(n); b.set(a); return b; }

/** Bytes held by an object's typed-array fields (whatever fields a pool has now; a buffer seen through two views counts once). */
function typedArrayBytes(o: object): number {
  let n = 0;
  const seen = new Set<ArrayBufferLike>(); // two views of one buffer hold it once
  for (const v of Object.values(o)) {
    if (!ArrayBuffer.isView(v) || seen.has(v.buffer)) continue;
    seen.add(v.buffer);
    n += v.byteLength;
  }
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
 * Where an action's fields sit in its record (see Actions). The record is `stride` doubles:
 * a head of HEAD doubles, then LAYER doubles per layer. Doubles are read through `f` at
 * (double index); whole numbers through `i`, the same memory seen as 32-bit integers, at
 * (2 x double index).
 */
/** Head, as doubles: when the action started. */
export const A_START = 0;
/** Head, as integers (at 2 x base + k): population, client, attempts sent, flags, token counter, attempt in flight, failures seen, refreshes. */
export const A_POP = 2, A_CLIENT = 3, A_ATTEMPTS = 4, A_FLAGS = 5, A_TOKENS = 6, A_INFLIGHT = 7, A_FAILURES = 8, A_REFRESHES = 9;
/** Doubles in the head (the integers A_POP..A_REFRESHES fill doubles 1 to 4). */
const HEAD = 5;
/** Layer record, as doubles (at the layer's slot + k): call start, try start, stateful jitter, budget taken, retry cap, timeout handle. */
export const L_START = 0, L_TRY_START = 1, L_JITTER = 2, L_TAKEN = 3, L_RETRY_CAP = 4, L_TIMER = 5;
/** Layer record, as integers (at 2 x slot + k): tries made, current token, state. */
export const L_TRIES = 12, L_TOKEN = 13, L_STATE = 14;
/** Doubles per layer (L_TRIES..L_STATE fill doubles 6 and 7). */
const LAYER = 8;

/**
 * A user action: what a person or job wants done once, however many attempts it takes.
 * Per layer it holds the state of that layer's current call: tries made, when the call
 * began, the stateful jitter's memory, the token of the current try (what a timer carries
 * to know it is still current), the handle of its timeout, what a retry budget lent it and
 * how many retries the budget allows the call.
 *
 * All of an action's fields, its layers' included, sit together in one record of `stride`
 * doubles (A_* and L_* above give the offsets), read through two views of one buffer: `f`
 * for the doubles and `i` for the whole numbers. An event on an action (a try starting or
 * ending, a timeout, a retry due) reads and writes a dozen of its fields, often after the
 * action has waited seconds of simulated time and gone cold in the cache: in one record
 * that is two or three cache lines instead of one per field (with eighteen arrays it was up
 * to eighteen). The stride is the most layers any population of the run has, not MAX_LAYERS.
 */
export class Actions extends Pool {
  /** Layer slots per action. */
  readonly layers: number;
  /** Doubles per action record. */
  readonly stride: number;
  /** The records as doubles, and the same memory as 32-bit integers (i[2k], i[2k + 1] overlay f[k]). */
  f!: Float64Array;
  i!: Int32Array;

  /** `layers`: the most retry layers of any population that will create actions here. */
  constructor(opts: PoolOptions & { layers?: number } = {}) {
    super(opts, 'the user actions in progress');
    const layers = opts.layers ?? MAX_LAYERS;
    if (!(layers >= 1 && layers <= MAX_LAYERS)) throw new RangeError(`actions hold 1 to ${MAX_LAYERS} layers (got ${layers})`);
    this.layers = layers;
    this.stride = HEAD + LAYER * layers;
    this.growFields(this.capacity);
    this.charge();
  }

  /** Index in `f` of action `id`'s record (its head's doubles); its integers are at 2x this in `i`. */
  base(id: number): number {
    return id * this.stride;
  }

  /** Index in `i` of action `id`'s head (A_POP..A_REFRESHES offsets). */
  ai(id: number): number {
    return 2 * id * this.stride;
  }

  /** Index in `f` of (action, layer)'s layer record (L_* offsets; integers at 2x this in `i`). */
  layerSlot(id: number, layer: number): number {
    return id * this.stride + HEAD + layer * LAYER;
  }

  /** The population whose action `id` is. */
  populationOf(id: number): number {
    return this.i[2 * id * this.stride + A_POP];
  }

  /** The client (within its population) whose action `id` is. */
  clientOf(id: number): number {
    return this.i[2 * id * this.stride + A_CLIENT];
  }

  create(population: number, client: number, now: number, flags: number): number {
    const id = this.take();
    const b = id * this.stride, i = this.i;
    this.f[b + A_START] = now;
    i[2 * b + A_POP] = population;
    i[2 * b + A_CLIENT] = client;
    i[2 * b + A_ATTEMPTS] = 0;
    i[2 * b + A_FLAGS] = flags;
    i[2 * b + A_INFLIGHT] = -1;
    i[2 * b + A_FAILURES] = 0;
    i[2 * b + A_REFRESHES] = 0;
    return id;
  }

  /** A fresh token for a try or a wait at some layer of this action. */
  nextToken(id: number): number {
    const k = 2 * id * this.stride + A_TOKENS;
    return (this.i[k] = (this.i[k] + 1) & 0x0fffffff);
  }

  protected growFields(n: number): void {
    const f = new Float64Array(n * this.stride);
    if (this.f) f.set(this.f);
    this.f = f;
    this.i = new Int32Array(f.buffer);
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
