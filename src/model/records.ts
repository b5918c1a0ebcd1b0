/**
 * Pools of user-action and attempt records, kept as parallel typed arrays with free lists.
 * The simulator creates and drops millions of both per run; plain objects would make the
 * garbage collector the bottleneck and memory follow the number of events. Here memory
 * follows what is in flight, and a record's generation lets a late event (a timeout for
 * an attempt that was answered and recycled) recognise that it is stale.
 */

function grow64(a: Float64Array, n: number): Float64Array { const b = new Float64Array(n); b.set(a); return b; }
function grow32(a: Int32Array, n: number): Int32Array { const b = new Int32Array(n); b.set(a); return b; }

/** Free-list bookkeeping shared by both pools. */
abstract class Pool {
  gen: Int32Array;
  private free: Int32Array;
  private freeTop = 0;
  private high = 0;
  live = 0;

  constructor(protected capacity: number) {
    this.gen = new Int32Array(capacity);
    this.free = new Int32Array(capacity);
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
    this.gen = grow32(this.gen, n);
    this.free = grow32(this.free, n);
    this.growFields(n);
    this.capacity = n;
  }

  protected abstract growFields(n: number): void;
}

/** A user action: what a person or job wants done once, however many attempts it takes. */
export class Actions extends Pool {
  population: Int32Array;
  client: Int32Array;
  attempts: Int32Array;
  startT: Float64Array;

  constructor(capacity = 4096) {
    super(capacity);
    this.population = new Int32Array(capacity);
    this.client = new Int32Array(capacity);
    this.attempts = new Int32Array(capacity);
    this.startT = new Float64Array(capacity);
  }

  create(population: number, client: number, now: number): number {
    const id = this.take();
    this.population[id] = population;
    this.client[id] = client;
    this.attempts[id] = 0;
    this.startT[id] = now;
    return id;
  }

  protected growFields(n: number): void {
    this.population = grow32(this.population, n);
    this.client = grow32(this.client, n);
    this.attempts = grow32(this.attempts, n);
    this.startT = grow64(this.startT, n);
  }
}

/** Attempt flags: who still holds the record. It is released when neither does. */
export const CLIENT_WAITING = 1;
export const AT_SERVER = 2;
export const IS_RETRY = 4;

/** Outcome of an attempt as decided by the server (index into FAILURE_CAUSES + 1; 0 = ok). */
export const OUTCOME_OK = 0;

/** One request that reaches (or tries to reach) the server. */
export class Attempts extends Pool {
  action: Int32Array;
  flags: Int32Array;
  sentT: Float64Array;
  /** Time the attempt entered the server's queue or a slot. */
  arrivedT: Float64Array;
  /** Slot time the server spends on it, and what it will answer. */
  work: Float64Array;
  outcome: Int32Array;

  constructor(capacity = 4096) {
    super(capacity);
    this.action = new Int32Array(capacity);
    this.flags = new Int32Array(capacity);
    this.sentT = new Float64Array(capacity);
    this.arrivedT = new Float64Array(capacity);
    this.work = new Float64Array(capacity);
    this.outcome = new Int32Array(capacity);
  }

  create(action: number, flags: number, now: number): number {
    const id = this.take();
    this.action[id] = action;
    this.flags[id] = flags;
    this.sentT[id] = now;
    return id;
  }

  protected growFields(n: number): void {
    this.action = grow32(this.action, n);
    this.flags = grow32(this.flags, n);
    this.sentT = grow64(this.sentT, n);
    this.arrivedT = grow64(this.arrivedT, n);
    this.work = grow64(this.work, n);
    this.outcome = grow32(this.outcome, n);
  }
}
