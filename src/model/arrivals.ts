/**
 * When user actions arrive: a Poisson process whose rate follows the population's profile
 * (constant, steps, ramp, diurnal). Non-constant profiles are sampled exactly by thinning
 * within segments: a candidate is drawn at the segment's highest rate and kept with
 * probability rate(t) / bound; crossing a segment boundary restarts the draw there, which
 * the memoryless property makes exact.
 */
import type { Arrivals } from '../scenario/schema.js';
import { rateAt } from '../scenario/arrival-profile.js';
import type { Rng } from '../engine/rng.js';

interface Segment {
  start: number;
  end: number;
  /** Upper bound of the rate on the segment. */
  bound: number;
  /** True when the rate equals the bound everywhere on the segment (no thinning needed). */
  exact: boolean;
}

function segments(a: Arrivals): Segment[] {
  switch (a.kind) {
    case 'constant':
      return [{ start: 0, end: Infinity, bound: a.rate, exact: true }];
    case 'steps': {
      const out: Segment[] = [{ start: 0, end: a.steps[0].at, bound: 0, exact: true }];
      a.steps.forEach((s, i) => out.push({ start: s.at, end: a.steps[i + 1]?.at ?? Infinity, bound: s.rate, exact: true }));
      return out.filter((s) => s.end > s.start);
    }
    case 'ramp':
      return [
        { start: 0, end: a.start, bound: a.from, exact: true },
        { start: a.start, end: a.end, bound: Math.max(a.from, a.to), exact: a.from === a.to },
        { start: a.end, end: Infinity, bound: a.to, exact: true },
      ].filter((s) => s.end > s.start);
    case 'diurnal':
      return [{ start: 0, end: Infinity, bound: a.mean * (1 + a.amplitude), exact: a.amplitude === 0 }];
  }
}

/** Draws successive arrival times of one population. */
export class ArrivalProcess {
  private readonly segs: Segment[];
  private seg = 0;

  constructor(private readonly profile: Arrivals, private readonly rng: Rng) {
    this.segs = segments(profile);
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
      if (s.exact || this.rng() * s.bound < rateAt(this.profile, cand)) return cand;
      t = cand;
    }
  }
}
