/**
 * Outcomes per population at the featured point: success, perceived outage, latency,
 * amplification, retry share, give-ups, dead letters and the 4xx classes each population met, so a verdict
 * for "the users" can be checked against who those users were (the story's bots, legacy app,
 * queue workers). report.html and summary.md both render these rows.
 */
import type { MeasureInfo, Results } from '../results/results.js';
import type { Role } from '../scenario/schema-clients.js';
import { atPoint, cellOf, featuredPointIndex, type Cell } from './cells.js';

export interface PopulationRow {
  variant: string;
  population: string;
  role: Role;
  cells: Cell[];
}

/**
 * How a population's role is flagged beside its name: nothing for users (the default), the
 * role otherwise, so a partner's 429s or an attacker's refusals are not read as users failing.
 */
export function roleFlag(role: Role): string | null {
  return role === 'user' ? null : role;
}

/**
 * The per-population measures the tables show at a point, in registry order: those a measure
 * does not keep out of the tables (`inPopulationTable: false`, such as latency's p95 and
 * mean and the pre-fault success a floor reads: they are in summary.json's `populations`),
 * and a count only when some population met it in some variant (dead letters, 426 answers, …),
 * as the comparison leaves out a count no variant has.
 */
export function populationMeasures(r: Results, point = featuredPointIndex(r)): MeasureInfo[] {
  const scopes = r.variants.flatMap((v) => atPoint(v, point)?.populations ?? []);
  return r.measures.filter((m) => m.perPopulation && m.inPopulationTable && (m.unit !== 'count' || scopes.some((s) => (s.measures[m.key]?.value ?? 0) !== 0)));
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
