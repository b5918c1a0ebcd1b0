/**
 * Requests a stage of the pipeline holds for a while: a delay before they go on (a shared
 * store's round trip, a leaky-bucket queue), or a refusal that takes that long to come back
 * (a shared store's "no"). The frontend parks a request here and gets a handle, which its
 * resume event carries; a crash of the request's instance loses what it holds here too.
 *
 * Why a module of its own: in a storm behind a shared store every request is held once, so
 * this is on the hot path, and it keeps what it holds in typed arrays indexed by handle, with
 * a free stack, instead of a tuple per held request: nothing is allocated per request (the
 * arrays double when they fill). Handles are reused last-freed first, and a crash walks them
 * in handle order, which is what fixes the order of the resets it sends.
 */
import type { Attempts } from '../records.js';
import { OUTCOME_RESET } from '../outcomes.js';

/** The clients' side of an answer (the frontend's AnswerSink). */
type Answer = (attempt: number, outcome: number, retryAfter: number) => void;

/** Handles the arrays start with; they double when full (a few hundred bytes to begin with). */
const INITIAL = 64;

export class HeldRequests {
  // Per handle: the attempt (-1 once it resumed or was lost to a crash: its resume event then
  // does nothing), its generation, the stage to go on at (or ~outcome: a refusal on its way
  // back), its instance, what retry detection found before the delay, and the refusal's
  // Retry-After (NaN for a delay).
  private attempt = new Int32Array(INITIAL);
  private gen = new Int32Array(INITIAL);
  private next = new Int32Array(INITIAL);
  private instance = new Int32Array(INITIAL);
  private detected = new Uint8Array(INITIAL);
  private retryAfter = new Float64Array(INITIAL);
  /** Handles given back, the last on top. */
  private free = new Int32Array(INITIAL);
  private freeTop = 0;
  /** Handles ever used: [0, used) are the ones a crash looks through. */
  private used = 0;

  constructor(private readonly attempts: Attempts, private readonly answer: Answer) {}

  /** Holds attempt (a, gen), to go on at stage `next` (or ~outcome), on `instance`; returns its handle. */
  hold(a: number, gen: number, next: number, instance: number, detected: boolean, retryAfter: number): number {
    let h: number;
    if (this.freeTop > 0) h = this.free[--this.freeTop];
    else {
      if (this.used === this.attempt.length) this.grow();
      h = this.used++;
    }
    this.attempt[h] = a;
    this.gen[h] = gen;
    this.next[h] = next;
    this.instance[h] = instance;
    this.detected[h] = detected ? 1 : 0;
    this.retryAfter[h] = retryAfter;
    return h;
  }

  // What handle h holds, read by the resume before it calls release (a later hold may reuse h).
  attemptOf(h: number): number {
    return this.attempt[h];
  }
  genOf(h: number): number {
    return this.gen[h];
  }
  nextOf(h: number): number {
    return this.next[h];
  }
  instanceOf(h: number): number {
    return this.instance[h];
  }
  detectedOf(h: number): boolean {
    return this.detected[h] === 1;
  }
  retryAfterOf(h: number): number {
    return this.retryAfter[h];
  }

  /** Handle h's resume came: it holds nothing now, and it is the next to be reused. */
  release(h: number): void {
    this.attempt[h] = -1;
    this.free[this.freeTop++] = h;
  }

  /**
   * Instance i crashed: what it held here is lost, as its own queue is. Callers still waiting
   * see a reset (with `reset`); the handles stay taken until their resume events, which then
   * do nothing. Returns how many were lost.
   */
  lose(i: number, reset: boolean): number {
    let lost = 0;
    for (let h = 0; h < this.used; h++) {
      const a = this.attempt[h];
      if (a < 0 || this.instance[h] !== i) continue;
      this.attempt[h] = -1;
      lost++;
      if (reset && this.attempts.isAwaited(a, this.gen[h])) this.answer(a, OUTCOME_RESET, NaN);
    }
    return lost;
  }

  /** Twice the handles: every array copied into one of double the length. */
  private grow(): void {
    const n = this.attempt.length * 2;
    const more = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: new (n: number) => T): T => {
      const next = new make(n);
      next.set(old);
      return next;
    };
    this.attempt = more(this.attempt, Int32Array);
    this.gen = more(this.gen, Int32Array);
    this.next = more(this.next, Int32Array);
    this.instance = more(this.instance, Int32Array);
    this.detected = more(this.detected, Uint8Array);
    this.retryAfter = more(this.retryAfter, Float64Array);
    this.free = more(this.free, Int32Array);
  }
}
