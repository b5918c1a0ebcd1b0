/**
 * Outcomes per population at the featured point: success, perceived outage, amplification,
 * retry share, give-ups, dead letters and the 4xx classes each population met, so a verdict
 * for "the users" can be checked against who those users were (the story's bots, legacy app,
 * queue workers). report.html and summary.md both render these rows.
 */
import type { MeasureInfo, Results } from '../results/results.js';
import type { Role } from '../scenario/schema-clients.js';
import { atPoint, cellOf, type Cell } from './cells.js';

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

/** The per-population outcomes, in registry order (references such as pre-fault success are kept for floors, not shown). */
export function populationMeasures(r: Results): MeasureInfo[] {
  return r.measures.filter((m) => m.perPopulation && !m.context);
}

export function populationRows(r: Results, point: number): PopulationRow[] {
  if (r.populations.length < 2) return []; // one population: the comparison already says it all
  const measures = populationMeasures(r);
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
