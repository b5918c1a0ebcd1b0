/**
 * When user actions arrive: a Poisson process whose rate follows the population's profile
 * (constant, steps, ramp, diurnal). Non-constant profiles are sampled exactly by thinning
 * within segments: a candidate is drawn at the segment's highest rate and kept with
 * probability rate(t) / bound; crossing a segment boundary restarts the draw there, which
 * the memoryless property makes exact.
 *
 * A load surge (a `surge` fault) multiplies the rate by its factor for its window, or sets
 * it to an absolute rate. Its edges split the segments, and each piece carries the product of
 * the factors active on it (and the absolute rate, if one is), so a surge is sampled as
 * exactly as the profile. Without surges the segments, and so the
 * random draws, are the same as before surges existed.
 *
 * Recorded traffic (kind trace) is played from its data, never expanded into segments (a day
 * of per-second data would be 86,400 objects per run): counts and rates step by step as a
 * Poisson process at each step's rate, request times exactly (docs/traces.md).
 */
import type { Arrivals, Fault } from '../scenario/schema.js';
import { rateAt } from '../scenario/arrival-profile.js';
import type { Rng } from '../engine/rng.js';
import { RateCursor, TimeCursor, tracePlay, type TracePlay } from '../scenario/trace/trace-data.js';

interface Segment {
  start: number;
  end: number;
  /** Upper bound of the rate on the segment. */
  bound: number;
  /** True when the rate equals the bound everywhere on the segment (no thinning needed). */
  exact: boolean;
  /** Surge factor on the segment (1 outside any surge); the bound already includes it. */
  factor: number;
}

/** A window during which the rate is multiplied by `factor`, or set to `rate` (a surge fault). */
export interface RateWindow {
  from: number;
  to: number;
  factor: number;
  /** An absolute rate for the window, replacing the profile's (factors of other surges still apply). */
  rate?: number;
}

function profileSegments(a: Arrivals): Segment[] {
  const seg = (start: number, end: number, bound: number, exact: boolean): Segment => ({ start, end, bound, exact, factor: 1 });
  switch (a.kind) {
    case 'constant':
      return [seg(0, Infinity, a.rate, true)];
    case 'steps': {
      const out: Segment[] = [seg(0, a.steps[0].at, 0, true)];
      a.steps.forEach((s, i) => out.push(seg(s.at, a.steps[i + 1]?.at ?? Infinity, s.rate, true)));
      return out.filter((s) => s.end > s.start);
    }
    case 'ramp':
      return [
        seg(0, a.start, a.from, true),
        seg(a.start, a.end, Math.max(a.from, a.to), a.from === a.to),
        seg(a.end, Infinity, a.to, true),
      ].filter((s) => s.end > s.start);
    case 'diurnal':
      return [seg(0, Infinity, a.mean * (1 + a.amplitude), a.amplitude === 0)];
    case 'closed':
    case 'after':
    case 'trace': // played by TraceReplay, not by segments
      // No open arrivals: a closed population's users act when their last action ends, and a
      // journey's step when its previous step succeeds (clients.ts).
      return [seg(0, Infinity, 0, true)];
  }
}

/** The profile's segments cut at every surge edge, each piece scaled by the surges active on it. */
function segments(a: Arrivals, surges: readonly RateWindow[]): Segment[] {
  const base = profileSegments(a);
  if (surges.length === 0) return base;
  const edges = [...new Set(surges.flatMap((w) => [w.from, w.to]))].sort((x, y) => x - y);
  const out: Segment[] = [];
  for (const s of base) {
    const cuts = [s.start, ...edges.filter((e) => e > s.start && e < s.end), s.end];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const from = cuts[i], to = cuts[i + 1];
      let factor = 1;
      let rate: number | undefined;
      for (const w of surges) {
        if (from < w.from || from >= w.to) continue;
        factor *= w.factor;
        if (w.rate !== undefined) rate = w.rate;
      }
      // An absolute rate replaces the profile: a constant rate on the piece, so exact.
      if (rate !== undefined) out.push({ start: from, end: to, bound: rate * factor, exact: true, factor });
      else out.push({ start: from, end: to, bound: s.bound * factor, exact: s.exact, factor });
    }
  }
  return out;
}

/** The surge faults that reach population `name`: those naming it, and those naming none. */
export function surgesFor(faults: readonly Fault[], name: string): RateWindow[] {
  const out: RateWindow[] = [];
  for (const f of faults) {
    if (f.kind !== 'surge' || (f.population !== undefined && f.population !== name)) continue;
    out.push(f.rate !== undefined ? { from: f.at, to: f.at + f.duration, factor: 1, rate: f.rate } : { from: f.at, to: f.at + f.duration, factor: f.factor ?? 1 });
  }
  return out;
}

/** Draws successive arrival times of one population. */
export class ArrivalProcess {
  private readonly segs: Segment[];
  private seg = 0;
  private readonly trace: RateReplay | TimeReplay | undefined;

  constructor(private readonly profile: Arrivals, private readonly rng: Rng, surges: readonly RateWindow[] = []) {
    this.segs = segments(profile, surges);
    if (profile.kind === 'trace') {
      const play = tracePlay(profile);
      this.trace = play.data.shape === 'rates' ? new RateReplay(play, rng, surges) : new TimeReplay(play, rng, surges);
    }
  }

  /**
   * The first arrival strictly after `t`, or Infinity when the rate stays 0 from then on. A
   * trace of request times gives its next recorded request not before `t` instead: requests
   * recorded at the same instant (or at 0) all arrive, one call each.
   */
  next(t: number): number {
    if (this.trace) return this.trace.next(t);
    const segs = this.segs;
    for (;;) {
      while (this.seg < segs.length - 1 && t >= segs[this.seg].end) this.seg++;
      const s = segs[this.seg];
      if (t < s.start) t = s.start;
      if (s.bound <= 0) {
        if (s.end === Infinity) return Infinity;
        t = s.end;
        continue;
      }
      const cand = t - Math.log(1 - this.rng()) / s.bound;
      if (cand >= s.end) {
        t = s.end;
        continue;
      }
      if (s.exact || this.rng() * s.bound < rateAt(this.profile, cand) * s.factor) return cand;
      t = cand;
    }
  }
}

/** The surges in force at a moment: their factors' product, an absolute rate if one is set, and when that changes. */
class SurgeClock {
  readonly now = { factor: 1, rate: undefined as number | undefined, end: Infinity };
  constructor(private readonly surges: readonly RateWindow[]) {}

  at(t: number): { factor: number; rate: number | undefined; end: number } {
    const now = this.now;
    now.factor = 1; now.rate = undefined; now.end = Infinity;
    for (const w of this.surges) {
      if (t >= w.from && t < w.to) {
        now.factor *= w.factor;
        if (w.rate !== undefined) now.rate = w.rate;
        if (w.to < now.end) now.end = w.to;
      } else if (w.from > t && w.from < now.end) now.end = w.from;
    }
    return now;
  }
}

/**
 * Count or rate data: within each step a Poisson process at the step's rate (times the surges
 * in force), so each step's recorded count is kept in expectation. Exact like the segments: a
 * draw that crosses a step's or a surge's edge restarts there.
 */
class RateReplay {
  private readonly cursor: RateCursor;
  private readonly clock: SurgeClock;
  constructor(play: TracePlay, private readonly rng: Rng, surges: readonly RateWindow[]) {
    this.cursor = new RateCursor(play);
    this.clock = new SurgeClock(surges);
  }

  next(t: number): number {
    for (;;) {
      const piece = this.cursor.at(t);
      if (t < piece.start) t = piece.start;
      const s = this.clock.at(t);
      const rate = (s.rate ?? piece.rate) * s.factor;
      const end = Math.min(piece.end, s.end);
      if (!(rate > 0)) {
        if (end === Infinity) return Infinity;
        t = end;
        continue;
      }
      const cand = t - Math.log(1 - this.rng()) / rate;
      if (cand < end) return cand;
      t = end;
    }
  }
}

/**
 * Request times replayed as recorded: each request arrives at its time, scale x the surges'
 * factors times (the whole part always, one more with the fractional part's probability; a
 * whole multiplier draws nothing, so scale 1 replays N requests as exactly N arrivals). Where
 * a surge sets an absolute rate, the recorded requests give way to a Poisson process at it.
 */
class TimeReplay {
  private readonly cursor: TimeCursor;
  private readonly clock: SurgeClock;
  private readonly scale: number;
  /** Copies of the last request still to arrive, at `last`. */
  private pending = 0;
  private last = 0;
  constructor(play: TracePlay, private readonly rng: Rng, surges: readonly RateWindow[]) {
    this.cursor = new TimeCursor(play);
    this.clock = new SurgeClock(surges);
    this.scale = play.scale;
  }

  next(t: number): number {
    if (this.pending > 0) {
      this.pending--;
      return this.last;
    }
    for (;;) {
      let at = this.cursor.peek();
      while (at < t) { this.cursor.take(); at = this.cursor.peek(); }
      // Arrivals of an absolute-rate surge before the next recorded request.
      for (let u = t; u < at;) {
        const s = this.clock.at(u);
        const end = Math.min(s.end, at);
        if (s.rate !== undefined && s.rate * s.factor > 0) {
          const cand = u - Math.log(1 - this.rng()) / (s.rate * s.factor);
          if (cand < end) return cand;
        }
        u = end;
      }
      if (at === Infinity) return Infinity;
      this.cursor.take();
      const s = this.clock.at(at);
      if (s.rate !== undefined) { t = at; continue; } // replaced by the surge's own rate
      const m = this.scale * s.factor;
      const whole = Math.floor(m);
      const copies = whole + (m > whole && this.rng() < m - whole ? 1 : 0);
      if (copies === 0) { t = at; continue; }
      this.pending = copies - 1;
      this.last = at;
      return at;
    }
  }
}
