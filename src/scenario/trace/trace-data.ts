/**
 * Recorded traffic as the loader hands it forward (read once, at load time, by read-traces.ts)
 * and the arithmetic of playing it: which step or request of the trace falls at a moment of the
 * run once the scenario's window, shift and loop are applied. The model samples arrivals from
 * these cursors and the format's rateAt/meanRate read the same ones, so the run and the
 * loader's sizing agree on one curve. Nothing here imports a parser: every worker loads it.
 *
 * Memory: count and rate data is one number per step (a day of per-second data is 86,400
 * numbers), never one per request; a timestamp trace is one number per recorded request. Both
 * live in a SharedArrayBuffer, so the copy of a scenario each worker task receives shares the
 * numbers instead of copying them.
 */

export interface TraceData {
  /** `rates`: a rate per second for each step; `times`: request times, seconds after the first. */
  shape: 'rates' | 'times';
  /** Rates per step (per second) or sorted request times (the first is 0). */
  values: Float64Array;
  /** Seconds per step (rates); 0 for times. */
  step: number;
  /**
   * How long the trace lasts, in seconds: steps x step, or for times from the first request to
   * the last plus the mean gap between requests (so a looped trace keeps its mean rate).
   */
  length: number;
  /** The file as the scenario names it and a digest of its bytes: what the run's key compares. */
  file: string;
  sha256: string;
}

/** The scenario's options for playing a trace (kind trace, validated). */
export interface TracePlay {
  data: TraceData;
  scale: number;
  shift: number;
  loop: boolean;
  window?: { from: number; to?: number };
}

/** A validated trace arrivals as played: its data is always there once the loader has read it. */
export function tracePlay(a: Omit<TracePlay, 'data'> & { data?: TraceData }): TracePlay {
  if (!a.data) throw new Error('a trace arrivals without its data: scenarios with traces are read by the loader (loadScenario)');
  return a as TracePlay;
}

export function isTraceData(x: unknown): x is TraceData {
  if (x === null || typeof x !== 'object') return false;
  const d = x as Partial<TraceData>;
  return (d.shape === 'rates' || d.shape === 'times') && d.values instanceof Float64Array && typeof d.step === 'number' && typeof d.length === 'number';
}

/**
 * A TraceData whose numbers live in shared memory (a worker's copy of the scenario shares them)
 * and whose JSON form is its file and digest: a run's key (run-reuse.ts) and the scenario diff
 * compare the trace by content without spelling out every number. toJSON is not enumerable, so
 * the structured clone a worker receives leaves it out (a function cannot be cloned).
 */
export function makeTraceData(shape: TraceData['shape'], numbers: ArrayLike<number>, step: number, length: number, file: string, sha256: string): TraceData {
  const values = new Float64Array(new SharedArrayBuffer(numbers.length * Float64Array.BYTES_PER_ELEMENT));
  values.set(numbers);
  const data: TraceData = { shape, values, step, length, file, sha256 };
  Object.defineProperty(data, 'toJSON', { enumerable: false, value: () => ({ shape, file, sha256, count: values.length, step, length }) });
  return data;
}

/** The part of the trace that plays, in trace seconds: [from, to), and its length. */
export function playedSpan(p: TracePlay): { from: number; to: number; length: number } {
  const from = Math.min(p.window?.from ?? 0, p.data.length);
  const to = Math.max(from, Math.min(p.window?.to ?? p.data.length, p.data.length));
  return { from, to, length: to - from };
}

/** A piece of the run on which a rate trace's rate is constant. */
export interface RatePiece {
  start: number;
  end: number;
  /** Per second, scale included. */
  rate: number;
}

/**
 * Walks a rate trace's pieces in run time, forward only: before `shift` a piece of rate 0,
 * then each step of the played span (the first and last cut by the window), pass after pass
 * when looping, and after the end a last piece of rate 0 to Infinity. Each piece's ends are
 * computed from its (pass, step) indices, never from the time asked, so a time on an edge
 * always moves on and float rounding cannot stall the walk.
 */
export class RateCursor {
  private readonly span: { from: number; to: number; length: number };
  private readonly first: number;
  private readonly last: number;
  /** -1: before shift; then the step index; Infinity: after the end. */
  private i = -1;
  private pass = 0;
  readonly piece: RatePiece = { start: 0, end: 0, rate: 0 };

  constructor(private readonly p: TracePlay) {
    this.span = playedSpan(p);
    const step = p.data.step;
    this.first = Math.min(Math.floor(this.span.from / step), p.data.values.length - 1);
    this.last = Math.min(Math.ceil(this.span.to / step) - 1, p.data.values.length - 1);
    this.set(-1);
  }

  /** Moves to the piece that holds `t` (pieces behind are left for good) and returns it. */
  at(t: number): RatePiece {
    while (t >= this.piece.end) this.advance();
    return this.piece;
  }

  private advance(): void {
    if (this.i === Infinity) return;
    if (this.span.length <= 0) return this.set(Infinity);
    let i = this.i === -1 ? this.first : this.i + 1;
    if (i > this.last) {
      if (!this.p.loop) return this.set(Infinity);
      this.pass++;
      i = this.first;
    }
    this.set(i);
  }

  private set(i: number): void {
    const { p, span } = this;
    this.i = i;
    const piece = this.piece;
    if (i === -1) {
      piece.start = 0; piece.end = p.shift; piece.rate = 0;
    } else if (i === Infinity) {
      piece.start = piece.end; piece.end = Infinity; piece.rate = 0;
    } else {
      const step = p.data.step;
      const origin = p.shift + this.pass * span.length - span.from;
      piece.start = origin + Math.max(i * step, span.from);
      piece.end = origin + Math.min((i + 1) * step, span.to);
      piece.rate = p.data.values[i] * p.scale;
    }
  }
}

/**
 * Walks a timestamp trace's requests in run time, forward only: request i of pass k plays at
 * shift + k * length + (time_i - from), for the requests with from <= time_i < to.
 */
export class TimeCursor {
  private readonly span: { from: number; to: number; length: number };
  private readonly first: number;
  private readonly end: number;
  private i: number;
  private pass = 0;

  constructor(private readonly p: TracePlay) {
    this.span = playedSpan(p);
    const times = p.data.values;
    this.first = lowerBound(times, this.span.from);
    this.end = lowerBound(times, this.span.to);
    this.i = this.first;
  }

  /** The run time of the next request (Infinity when none is left); `take` moves past it. */
  peek(): number {
    if (this.i >= this.end) {
      if (!this.p.loop || this.end === this.first || this.span.length <= 0) return Infinity;
      this.pass++;
      this.i = this.first;
    }
    return this.p.shift + this.pass * this.span.length + (this.p.data.values[this.i] - this.span.from);
  }

  take(): void {
    this.i++;
  }
}

/** The first index whose value is at least x (values sorted). */
function lowerBound(values: Float64Array, x: number): number {
  let lo = 0, hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The trace's rate at run time t (per second, scale included): a rate trace's step there; for
 * a timestamp trace, the mean rate of the played span while it plays (what a baseline needs;
 * the requests themselves are replayed exactly).
 */
export function traceRateAt(p: TracePlay, t: number): number {
  if (p.data.shape === 'times') {
    const span = playedSpan(p);
    if (t < p.shift || span.length <= 0 || (!p.loop && t >= p.shift + span.length)) return 0;
    return (countIn(p.data.values, span.from, span.to) / span.length) * p.scale;
  }
  const span = playedSpan(p);
  let u = t - p.shift;
  if (u < 0 || span.length <= 0) return 0;
  if (p.loop) u -= Math.floor(u / span.length) * span.length;
  else if (u >= span.length) return 0;
  const values = p.data.values;
  const i = Math.min(Math.max(Math.floor((span.from + u) / p.data.step), 0), values.length - 1);
  return values[i] * p.scale;
}

/** The trace's mean rate over [0, horizon] (per second, scale included): exact, piece by piece. */
export function traceMeanRate(p: TracePlay, horizon: number): number {
  if (!(horizon > 0)) return traceRateAt(p, 0);
  if (p.data.shape === 'times') {
    const span = playedSpan(p);
    if (span.length <= 0 || horizon <= p.shift) return 0;
    const n = countIn(p.data.values, span.from, span.to);
    const played = horizon - p.shift;
    const passes = p.loop ? Math.floor(played / span.length) : 0;
    const rest = p.loop ? played - passes * span.length : Math.min(played, span.length);
    return ((passes * n + countIn(p.data.values, span.from, span.from + rest)) * p.scale) / horizon;
  }
  const c = new RateCursor(p);
  let sum = 0;
  for (let t = 0; t < horizon;) {
    const piece = c.at(t);
    const end = Math.min(piece.end, horizon);
    sum += piece.rate * (end - t);
    t = end;
  }
  return sum / horizon;
}

function countIn(times: Float64Array, from: number, to: number): number {
  return lowerBound(times, to) - lowerBound(times, from);
}
