/**
 * Outcomes per population at the featured point: success, perceived outage, latency,
 * amplification, retry share, give-ups, dead letters and the 4xx classes each population met, so a verdict
 * for "the users" can be checked against who those users were (the story's bots, legacy app,
 * queue workers). report.html and summary.md both render these rows.
 */
import type { MeasureInfo, Results } from '../results/results.js';
import { atPoint, cellOf, featuredPointIndex, type Cell } from './cells.js';

export interface PopulationRow {
  variant: string;
  population: string;
  role: 'user' | 'attacker';
  cells: Cell[];
}

/**
 * Per-population measures the tables leave out to stay readable (fourteen columns fit a
 * 1280 px window; all of latency's would add six more): the users' latency is shown as its
 * p50 and p99, and the rest is in summary.json's `populations` and usable in expectations.
 */
const LEFT_OUT = new Set(['actionLatencyP95S', 'actionLatencyMeanS', 'attemptLatencyP50S', 'attemptLatencyP95S', 'attemptLatencyP99S', 'attemptLatencyMeanS']);

/**
 * The per-population measures the tables show at a point, in registry order. A count no
 * population met in any variant (dead letters, 426 answers, …) is left out, as the
 * comparison leaves out a count no variant has.
 */
export function populationMeasures(r: Results, point = featuredPointIndex(r)): MeasureInfo[] {
  const scopes = r.variants.flatMap((v) => atPoint(v, point)?.populations ?? []);
  return r.measures.filter((m) => m.perPopulation && !LEFT_OUT.has(m.key) && (m.unit !== 'count' || scopes.some((s) => (s.measures[m.key]?.value ?? 0) !== 0)));
}

export function populationRows(r: Results, point: number): PopulationRow[] {
  if (r.populations.length < 2) return []; // one population: the comparison already says it all
  const measures = populationMeasures(r, point);
  return r.variants.flatMap((v) => {
    const p = atPoint(v, point);
    if (!p || p.runs === 0) return [];
    return p.populations.map((scope) => ({
      variant: v.name,
      population: scope.name,
      role: r.populations.find((x) => x.name === scope.name)?.role ?? 'user',
      cells: measures.map((m) => cellOf(m, { ...p, measures: scope.measures })),
    }));
  });
}
