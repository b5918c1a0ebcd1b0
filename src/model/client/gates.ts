/**
 * Gates in front of a layer's tries, shared across a client's or a population's requests:
 * a circuit breaker (count- or time-based window, failure-rate threshold, minimum calls,
 * open duration, half-open probes — Resilience4j's model), a retry breaker that only stops
 * retries (Brooker's), and Google SRE client-side adaptive throttling ("Handling
 * Overload", SRE book ch. 21). A refused try never reaches the wire; the layer sees it fail
 * with cause "refused-locally". A retry the retry breaker stops is simply not made.
 */
import type { BreakerSpec, BudgetSpec } from '../../scenario/schema.js';
import type { Rng } from '../../engine/rng.js';
import { SecondBuckets } from './second-buckets.js';

export interface Gate {
  /** May a try start now? When refused, `reopensAt` says when it might be allowed. */
  admit(key: number, now: number): boolean;
  /** When a refused caller could try again (for breakers with whenOpen: wait); Infinity if never. */
  reopensAt(key: number, now: number): number;
  /** A try that was admitted ended: ok, or a failure that counts against the service. */
  ended(key: number, now: number, failed: boolean): void;
  /**
   * A try that was admitted ended without an outcome: its caller cancelled it, needing it no
   * more (a fan-in that had enough answers, a calling request that ended). It says nothing of
   * the service, so it counts neither way; a half-open breaker's probe permit comes back.
   */
  cancelled(key: number, now: number): void;
}

const CLOSED = 0, OPEN = 1, HALF_OPEN = 2;

/**
 * The failure ratio a breaker watches, per key: the last `calls` outcomes (a ring), or those
 * of the last `time` seconds (per-second buckets), with Resilience4j's minimum of calls
 * before the ratio counts.
 */
class OutcomeWindow {
  // Count window: a ring of the last `size` outcomes per key. Time window: per-second buckets.
  private readonly ring: Uint8Array;
  private readonly ringPos: Int32Array;
  private readonly ringFill: Int32Array;
  private readonly calls: Float64Array;
  private readonly fails: Float64Array;
  /** Time-based window: a = calls, b = failures per second. */
  private readonly timeWindow?: SecondBuckets;
  private readonly size: number;
  readonly threshold: number;
  private readonly minimumCalls: number;

  constructor(keys: number, spec: BreakerSpec) {
    const w = spec.window;
    const timeBased = 'time' in w;
    this.size = 'time' in w ? Math.max(1, Math.round(w.time)) : w.calls;
    this.threshold = spec.failureRateThreshold;
    // Resilience4j caps minimumNumberOfCalls at a count window's size (CircuitBreakerMetrics).
    this.minimumCalls = Math.min(spec.minimumCalls, timeBased ? Infinity : this.size);
    this.ring = new Uint8Array(timeBased ? 0 : keys * this.size);
    this.ringPos = new Int32Array(timeBased ? 0 : keys);
    this.ringFill = new Int32Array(timeBased ? 0 : keys);
    this.calls = new Float64Array(timeBased ? 0 : keys);
    this.fails = new Float64Array(timeBased ? 0 : keys);
    this.timeWindow = timeBased ? new SecondBuckets(keys, this.size) : undefined;
  }

  /** Adds an outcome to the key's window; true when the window's failure ratio is at or above the threshold. */
  record(key: number, now: number, failed: boolean): boolean {
    let calls: number, fails: number;
    if (!this.timeWindow) {
      const base = key * this.size;
      const pos = this.ringPos[key];
      if (this.ringFill[key] === this.size) {
        this.calls[key]--;
        this.fails[key] -= this.ring[base + pos];
      } else this.ringFill[key]++;
      this.ring[base + pos] = failed ? 1 : 0;
      this.ringPos[key] = (pos + 1) % this.size;
      this.calls[key]++;
      if (failed) this.fails[key]++;
      calls = this.calls[key];
      fails = this.fails[key];
    } else {
      const w = this.timeWindow;
      const b = w.slot(key, now);
      w.a[b]++;
      if (failed) w.b[b]++;
      calls = w.sumA(key);
      fails = w.sumB(key);
    }
    return calls >= this.minimumCalls && fails / calls >= this.threshold;
  }

  /** The key's ratio as of `now`, without adding to it (time windows forget old seconds). */
  tripped(key: number, now: number): boolean {
    if (!this.timeWindow) return this.calls[key] >= this.minimumCalls && this.fails[key] / this.calls[key] >= this.threshold;
    this.timeWindow.slot(key, now);
    const calls = this.timeWindow.sumA(key);
    return calls >= this.minimumCalls && this.timeWindow.sumB(key) / calls >= this.threshold;
  }

  clear(key: number): void {
    if (this.timeWindow) {
      this.timeWindow.clear(key);
    } else {
      this.ringFill[key] = 0;
      this.ringPos[key] = 0;
      this.calls[key] = 0;
      this.fails[key] = 0;
    }
  }
}

export class CircuitBreaker implements Gate {
  private readonly state: Uint8Array;
  private readonly openUntil: Float64Array;
  private readonly probesLeft: Float64Array;
  private readonly probeFailures: Float64Array;
  private readonly probesDone: Float64Array;
  private readonly window: OutcomeWindow;
  private readonly threshold: number;
  private readonly openFor: number;
  private readonly halfOpenCalls: number;

  constructor(keys: number, spec: BreakerSpec) {
    this.window = new OutcomeWindow(keys, spec);
    this.threshold = this.window.threshold;
    // Defaults here, not in the schema: a breaker in mode retries must not carry these keys, and
    // the loader can only tell that they were written while absence stays visible.
    this.openFor = spec.openFor ?? 60;
    this.halfOpenCalls = spec.halfOpenCalls ?? 10;
    this.state = new Uint8Array(keys);
    this.openUntil = new Float64Array(keys);
    this.probesLeft = new Float64Array(keys);
    this.probeFailures = new Float64Array(keys);
    this.probesDone = new Float64Array(keys);
  }

  stateOf(key: number): 'closed' | 'open' | 'half-open' {
    return (['closed', 'open', 'half-open'] as const)[this.state[key]];
  }

  admit(key: number, now: number): boolean {
    const s = this.state[key];
    if (s === CLOSED) return true;
    if (s === OPEN) {
      if (now < this.openUntil[key]) return false;
      this.state[key] = HALF_OPEN;
      this.probesLeft[key] = this.halfOpenCalls;
      this.probesDone[key] = 0;
      this.probeFailures[key] = 0;
    }
    if (this.probesLeft[key] <= 0) return false;
    this.probesLeft[key]--;
    return true;
  }

  reopensAt(key: number, now: number): number {
    // Open: when it half-opens. Half-open with every probe out: look again after a tenth of
    // the open duration (the probes will have settled it by then, or soon).
    if (this.state[key] === OPEN) return this.openUntil[key];
    return this.state[key] === HALF_OPEN ? now + this.openFor / 10 : Infinity;
  }

  ended(key: number, now: number, failed: boolean): void {
    if (this.state[key] === HALF_OPEN) {
      this.probesDone[key]++;
      if (failed) this.probeFailures[key]++;
      if (this.probesDone[key] >= this.halfOpenCalls) {
        if (this.probeFailures[key] / this.probesDone[key] >= this.threshold) this.open(key, now);
        else this.close(key);
      }
      return;
    }
    if (this.state[key] === OPEN) return; // a try admitted before the breaker opened
    if (this.window.record(key, now, failed)) this.open(key, now);
  }

  cancelled(key: number, _now: number): void {
    // A probe that will never report: another may go in its place.
    if (this.state[key] === HALF_OPEN && this.probesLeft[key] < this.halfOpenCalls) this.probesLeft[key]++;
  }

  private open(key: number, now: number): void {
    this.state[key] = OPEN;
    this.openUntil[key] = now + this.openFor;
  }

  private close(key: number): void {
    this.state[key] = CLOSED;
    this.window.clear(key);
  }
}

/**
 * A breaker for retries only (Marc Brooker, "Fixing retries with token buckets and circuit
 * breakers", 2022): every first try goes, and so every try keeps feeding the failure ratio;
 * a retry is made only while the ratio in the window is below the threshold. There is no
 * open state to wait out and no probe: first tries are the probes. It admits every try, and
 * the layer asks `allowsRetry` when it is about to retry.
 */
export class RetryBreaker implements Gate {
  private readonly window: OutcomeWindow;
  constructor(keys: number, spec: BreakerSpec) {
    this.window = new OutcomeWindow(keys, spec);
  }
  admit(): boolean {
    return true;
  }
  reopensAt(): number {
    return Infinity;
  }
  ended(key: number, now: number, failed: boolean): void {
    this.window.record(key, now, failed);
  }
  cancelled(): void {}
  /** May the layer retry now? Not while the failure ratio is at or above the threshold. */
  allowsRetry(key: number, now: number): boolean {
    return !this.window.tripped(key, now);
  }
}

/** SRE adaptive throttling: refuse locally with probability max(0, (requests - K*accepts) / (requests + 1)). */
export class AdaptiveThrottle implements Gate {
  /** a: requests, b: requests the backend accepted, per second over the window. */
  private readonly window: SecondBuckets;
  constructor(keys: number, private readonly k: number, window: number, private readonly rng: Rng) {
    this.window = new SecondBuckets(keys, window);
  }
  admit(key: number, now: number): boolean {
    const w = this.window;
    const b = w.slot(key, now);
    const req = w.sumA(key), acc = w.sumB(key);
    w.a[b]++; // a locally refused request counts as a request too
    const p = Math.max(0, (req - this.k * acc) / (req + 1));
    return !(p > 0 && this.rng() < p);
  }
  reopensAt(): number {
    return Infinity;
  }
  ended(key: number, now: number, failed: boolean): void {
    if (!failed) this.window.b[this.window.slot(key, now)]++;
  }
  cancelled(key: number, now: number): void {
    // Not a request the backend could accept or refuse: it leaves the window's requests (it
    // was counted at admit, a moment before, in a second the window still holds).
    const b = this.window.slot(key, now);
    if (this.window.a[b] > 0) this.window.a[b]--;
  }
}

export function makeGate(keys: number, breaker: BreakerSpec | undefined, budget: BudgetSpec | undefined, rng: Rng): Gate | undefined {
  if (breaker) return breaker.mode === 'retries' ? new RetryBreaker(keys, breaker) : new CircuitBreaker(keys, breaker);
  if (budget?.kind === 'sre-throttle') return new AdaptiveThrottle(keys, budget.k, budget.window, rng);
  return undefined;
}
