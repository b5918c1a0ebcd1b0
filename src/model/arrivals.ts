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
 */
import type { Arrivals, Fault } from '../scenario/schema.js';
import { rateAt } from '../scenario/arrival-profile.js';
import type { Rng } from '../engine/rng.js';

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

  constructor(private readonly profile: Arrivals, private readonly rng: Rng, surges: readonly RateWindow[] = []) {
    this.segs = segments(profile, surges);
  }

  /** The first arrival strictly after `t`, or Infinity when the rate stays 0 from then on. */
  next(t: number): number {
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
