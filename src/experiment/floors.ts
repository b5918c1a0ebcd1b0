/**
 * Floors: what no policy may sacrifice. A variant below a floor at a point ranks below every
 * variant that meets its floors, however well it does otherwise (src/experiment/ranking.ts,
 * gate 3), so a guard that starves a small population cannot win on pooled numbers. The
 * floors are the scenario's (`compare.floors`, resolved in expectations.ts), or by default:
 * every protected population (roles user and internal) must succeed before the first trigger
 * within DEFAULT_FLOOR_DROP of the baseline's success there.
 */
import type { PointAggregate } from './aggregate.js';
import type { ResolvedBound, ResolvedFloor } from './expectations.js';

/** How far a variant fell short of a floor at a point. */
export interface FloorBreach {
  population: string;
  measure: string;
  kind: 'atLeast' | 'atMost';
  limit: number;
  /** The population's mean across seeds; null when it had none. */
  value: number | null;
  /** True for the default floor (against the baseline before the first trigger), false for compare.floors. */
  byDefault: boolean;
}

/** Success before the first trigger may fall this far below the baseline's before the default floor flags a variant. */
export const DEFAULT_FLOOR_DROP = 0.03;

/** What the floors are judged against: the scenario's floors, else the default over these populations. */
export interface FloorRules {
  floors?: readonly ResolvedFloor[];
  protectedPopulations?: readonly string[];
}

const SLACK = 1e-9;
const meets = (x: number, b: Pick<ResolvedBound, 'kind' | 'limit'>) =>
  b.kind === 'atMost' ? x <= b.limit + SLACK * Math.max(1, Math.abs(b.limit)) : x >= b.limit - SLACK * Math.max(1, Math.abs(b.limit));

const populationValue = (p: PointAggregate, population: string, key: string) => p.populations.find((x) => x.name === population)?.measures[key]?.value ?? null;

/** The floors a variant is below at a point: the scenario's, or by default each protected population's success before the first trigger against the baseline's. */
export function floorsBroken(p: PointAggregate, base: PointAggregate | undefined, opts: FloorRules): FloorBreach[] {
  const out: FloorBreach[] = [];
  if (opts.floors && opts.floors.length > 0) {
    for (const f of opts.floors) {
      for (const b of f.bounds) {
        const value = populationValue(p, f.population, b.measure.key);
        if (value === null || !meets(value, b)) out.push({ population: f.population, measure: b.measure.key, kind: b.kind, limit: b.limit, value, byDefault: false });
      }
    }
    return out;
  }
  if (!base || base === p) return out;
  for (const population of opts.protectedPopulations ?? []) {
    const ref = populationValue(base, population, 'preFaultSuccessRatio');
    const value = populationValue(p, population, 'preFaultSuccessRatio');
    if (ref === null || value === null) continue;
    const limit = ref - DEFAULT_FLOOR_DROP;
    if (value < limit - SLACK) out.push({ population, measure: 'preFaultSuccessRatio', kind: 'atLeast', limit, value, byDefault: true });
  }
  return out;
}
