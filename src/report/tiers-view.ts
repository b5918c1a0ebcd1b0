/**
 * Outcomes per tier of a graph (issue 14) at the featured point: for each variant and each
 * service, edge first, the tier measures of src/measures/tiers.ts. report.html and
 * summary.md both render these rows; a single-server scenario has none.
 */
import { TIER_MEASURES } from '../measures/tiers.js';
import type { MeasureInfo, Results } from '../results/results.js';
import { atPoint, cellOf, type Cell } from './cells.js';

export interface TierRow {
  variant: string;
  tier: string;
  callers: string[];
  cells: Cell[];
}

/** The tier measures as the writers know measures (their declarations, as summary.json would list them). */
export const TIER_MEASURE_INFO: readonly MeasureInfo[] = TIER_MEASURES.map((m) => ({
  key: m.key,
  label: m.label,
  doc: m.doc,
  unit: m.unit,
  better: m.better,
  aggregate: m.aggregate,
  scope: m.scope,
  perPopulation: false,
  headline: false,
  cost: false,
  inPopulationTable: false,
}));

export function tierRows(r: Results, point: number): TierRow[] {
  return r.variants.flatMap((v) => {
    const p = atPoint(v, point);
    if (!p || p.runs === 0 || !p.tiers) return [];
    return p.tiers.map((t) => ({
      variant: v.name,
      tier: t.name,
      callers: t.callers,
      cells: TIER_MEASURE_INFO.map((m) => cellOf(m, { ...p, measures: t.measures })),
    }));
  });
}
