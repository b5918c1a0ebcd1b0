/**
 * What a hedging layer keeps between tries (layer option `hedge`): when to send a hedge,
 * and whether the hedging budget lends one.
 *
 * The delay is fixed, or a percentile of the latency of the attempts the layer has seen
 * answered, over a window of the last WINDOW answers, re-read every REFRESH answers (a sort
 * of 1,000 numbers every 64 answers: a small cost per answer, and what a library can afford
 * to do). Before WARMUP answers have been seen there is no estimate and no hedge.
 *
 * The budget is a token bucket counted in tries: each try adds `budget` tokens (at most
 * BURST held), a hedge takes one. Over a run, hedges are then at most budget x tries plus
 * BURST, whatever happens to the latency: the bound that keeps hedging from turning a
 * slowdown into a storm.
 *
 * The state is per layer of a population (every client of the population shares it, as
 * one process's library instance would); the hot path of a layer without hedging never
 * reaches this module.
 */
import type { HedgeSpec } from '../../scenario/schema-clients.js';

const WINDOW = 1000;
const REFRESH = 64;
const WARMUP = 100;
const BURST = 10;

export class HedgeState {
  readonly maxHedges: number;
  private readonly fixed: number;
  private readonly percentile: number;
  private readonly budget: number;
  private tokens = BURST;
  private readonly window = new Float64Array(WINDOW);
  private readonly sorted = new Float64Array(WINDOW);
  private seen = 0;
  private estimate = Infinity;

  constructor(spec: HedgeSpec) {
    this.maxHedges = spec.maxHedges;
    this.budget = spec.budget;
    if (typeof spec.delay === 'number') {
      this.fixed = spec.delay;
      this.percentile = NaN;
    } else {
      this.fixed = NaN;
      this.percentile = spec.delay.percentile;
    }
  }

  /** How long after a try's first attempt its next hedge goes out (Infinity: no estimate yet). */
  get delay(): number {
    return this.fixed === this.fixed ? this.fixed : this.estimate;
  }

  /** A try started: the budget earns its share. */
  tryStarted(): void {
    const t = this.tokens + this.budget;
    this.tokens = t < BURST ? t : BURST;
  }

  /** Takes a token for a hedge; false when the budget has none. */
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** An attempt of this layer was answered after `latency` seconds (for a percentile delay). */
  observe(latency: number): void {
    if (this.fixed === this.fixed) return;
    this.window[this.seen % WINDOW] = latency;
    this.seen++;
    if (this.seen >= WARMUP && this.seen % REFRESH === 0) {
      const n = Math.min(this.seen, WINDOW);
      const s = this.sorted.subarray(0, n);
      s.set(this.window.subarray(0, n));
      s.sort();
      this.estimate = s[Math.min(n - 1, Math.floor(this.percentile * n))];
    }
  }
}
