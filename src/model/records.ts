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

/** Outcome of an attempt as decided by the server: 0 = ok, else 1 + index in FAILURE_CAUSES. */
export const OUTCOME_OK = 0;

/**
 * One request that reaches (or tries to reach) the server, as its client sees it. The
 * record lives while the client waits for it; the server refers to it by (id, generation)
 * and finds out, when it is done, whether anyone is still waiting.
 */
export class Attempts extends Pool {
  action: Int32Array;
  sentT: Float64Array;

  constructor(capacity = 4096) {
    super(capacity);
    this.action = new Int32Array(capacity);
    this.sentT = new Float64Array(capacity);
  }

  create(action: number, now: number): number {
    const id = this.take();
    this.action[id] = action;
    this.sentT[id] = now;
    return id;
  }

  /**
   * True while the client still waits for attempt (id, gen): the record is released the
   * moment the client stops waiting (answer or timeout), which bumps its generation.
   */
  isAwaited(id: number, gen: number): boolean {
    return this.gen[id] === gen;
  }

  protected growFields(n: number): void {
    this.action = grow32(this.action, n);
    this.sentT = grow64(this.sentT, n);
  }
}
