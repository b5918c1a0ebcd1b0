/**
 * Count and rate data (a CSV of counts per interval, a Prometheus range query) become one rate
 * per step here, whatever the file: the rows must sit on one regular step, in time order; a
 * missing step is refused or, when the scenario says gaps: zero, replayed as a step with no
 * requests. One place, so both formats refuse the same slips in the same words.
 */
import { formatCount } from '../limits.js';

/** The most steps (or request times) a trace may hold: 8 bytes each, 40 MB at the limit. */
export const TRACE_MOST_VALUES = 5_000_000;

/** The most bytes a trace file may have. */
export const TRACE_MOST_BYTES = 64 * 1024 * 1024;

/** A growable list of numbers in a Float64Array (one per row, never an object per row). */
export class NumberList {
  private buf = new Float64Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = x;
  }
  at(i: number): number {
    return this.buf[i];
  }
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

export interface StepsIn {
  times: NumberList;
  /** Per row: a count (requests in the step) or a rate (per second), as `per` says. */
  values: NumberList;
  per: 'step' | 'second';
  /** The step the scenario wrote, in seconds. */
  step?: number;
  gaps: 'refuse' | 'zero';
  /** Where row i is, in the words of a message ("line 17", "data.result[0].values[3]"). */
  where: (i: number) => { line: number; path: string };
  /** How a row's time is written in messages. */
  timeText: (i: number) => string;
}

export type StepsOut =
  | { ok: true; rates: Float64Array; step: number }
  | { ok: false; line: number; path: string; message: string };

/** A spacing is a whole number of steps when it is within this share of one. */
const TOLERANCE = 1e-6;

export function toSteps(x: StepsIn): StepsOut {
  const n = x.times.length;
  const fail = (i: number, message: string): StepsOut => ({ ok: false, ...x.where(i), message });
  for (let i = 1; i < n; i++) {
    const d = x.times.at(i) - x.times.at(i - 1);
    if (d < 0) return fail(i, `${x.timeText(i)} comes before the time above it (${x.timeText(i - 1)}): the rows must be in time order (sort them by time)`);
    if (d === 0) return fail(i, `${x.timeText(i)} repeats the time above it: each step is given once (add the two, or keep one)`);
  }
  let step = x.step;
  if (step === undefined) {
    if (n < 2) return fail(0, 'one step alone does not say how long a step is: write step (e.g. step: 1m)');
    step = Infinity;
    for (let i = 1; i < n; i++) step = Math.min(step, x.times.at(i) - x.times.at(i - 1));
  }
  // A first pass counts the steps (gaps included), so the rates are allocated once.
  let steps = 1;
  for (let i = 1; i < n; i++) {
    const d = x.times.at(i) - x.times.at(i - 1);
    const k = Math.round(d / step);
    if (k < 1 || Math.abs(d / step - k) > TOLERANCE) {
      return fail(i, `${x.timeText(i)} is ${seconds(d)} after the time above it, not a whole number of steps of ${seconds(step)}${x.step === undefined ? ' (the smallest spacing in the file)' : ''}: the rows must sit on one regular step`);
    }
    if (k > 1 && x.gaps === 'refuse') {
      return fail(i, `a gap: ${k - 1} step(s) of ${seconds(step)} missing before ${x.timeText(i)} (the time above it is ${x.timeText(i - 1)}); fill them in the export, or write gaps: zero to replay them as steps with no requests`);
    }
    steps += k;
    if (steps > TRACE_MOST_VALUES) return fail(i, `more than ${formatCount(TRACE_MOST_VALUES)} steps: take a shorter range or a longer step in the export`);
  }
  const rates = new Float64Array(steps);
  let s = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) s += Math.round((x.times.at(i) - x.times.at(i - 1)) / step);
    const v = x.values.at(i);
    rates[s] = x.per === 'second' ? v : v / step;
  }
  return { ok: true, rates, step };
}

/** "60s", "0.5s", "1.5e-7s": seconds as a message says them. */
export function seconds(s: number): string {
  return `${Number(s.toPrecision(6))}s`;
}
