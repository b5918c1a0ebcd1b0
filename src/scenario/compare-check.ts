/**
 * The checks on a scenario's `compare` block that need the whole file: its baseline must
 * name a variant, its `at` must name swept parameters and pick at least one sweep point
 * (values compared by meaning, so 60s picks the point written 1m), and its `for` must name
 * populations and routes that exist and leave some users to judge. Like an expectation's
 * `at`, a ranking that would read nothing is an error, not an empty section. The loader
 * positions the problems; this module only says what is wrong and where in the scenario.
 */
import type { CompareSpec, Scenario } from './schema.js';
import { partnersOf, routeOf, subjectOf } from './subject.js';
import { closest } from './problems.js';
import { sameValue, type PathSegment, type SweepPoint } from './sweep.js';

export interface CompareProblem {
  path: PathSegment[];
  /** A key inside the mapping at `path` the problem is about (positioned at the key itself). */
  key?: string;
  message: string;
}

export function compareProblems(
  base: Pick<Scenario, 'clients' | 'compare'>,
  variants: readonly string[],
  params: ReadonlyArray<{ parameter: string; values: ReadonlyArray<string | number> }>,
  points: readonly SweepPoint[],
): CompareProblem[] {
  const compare: CompareSpec | undefined = base.compare;
  const out: CompareProblem[] = [];
  out.push(...subjectProblems(base));
  if (!compare) return out;
  const populations = Object.keys(base.clients);
  (compare.floors ?? []).forEach((f, i) => {
    if (populations.includes(f.population)) return;
    const guess = closest(f.population, populations);
    out.push({ path: ['compare', 'floors', i], key: 'population', message: `no population named "${f.population}"${guess ? ` (did you mean "${guess}"?)` : ` (populations: ${populations.join(', ')})`}` });
  });
  const { baseline } = compare;
  if (baseline !== undefined && !variants.includes(baseline)) {
    const guess = closest(baseline, variants);
    out.push({
      path: ['compare', 'baseline'],
      message: `no variant named "${baseline}"${guess ? ` (did you mean "${guess}"?)` : ` (variants: ${variants.join(', ')})`}`,
    });
  }
  const at = compare.at ?? {};
  const keys = Object.keys(at);
  const swept = params.map((p) => p.parameter);
  const unknown = keys.filter((k) => !swept.includes(k));
  for (const k of unknown) {
    out.push({
      path: ['compare', 'at'],
      key: k,
      message: `"${k}" is not a swept parameter${swept.length ? ` (swept: ${swept.join(', ')})` : ' (the scenario has no sweep)'}`,
    });
  }
  if (unknown.length === 0 && keys.length > 0 && !points.some((pt) => keys.every((k) => sameValue(pt.values[k], at[k])))) {
    const values = params.map((p) => `${p.parameter}: ${p.values.join(', ')}`).join('; ');
    out.push({ path: ['compare', 'at'], message: `no sweep point has these values, so there would be nothing to rank (the sweep has ${values})` });
  }
  return out;
}

/** `compare.for` names populations and routes that exist, and at least one population with users is left. */
function subjectProblems(base: Pick<Scenario, 'clients' | 'compare'>): CompareProblem[] {
  const out: CompareProblem[] = [];
  const populations = Object.keys(base.clients);
  const routes = [...new Set(Object.values(base.clients).map(routeOf))];
  const only = base.compare?.for;
  const unknown = (list: string[] | undefined, known: string[], key: 'populations' | 'routes', what: string) =>
    (list ?? []).forEach((x, i) => {
      if (known.includes(x)) return;
      const guess = closest(x, known);
      out.push({ path: ['compare', 'for', key, i], message: `no ${what} named "${x}"${guess ? ` (did you mean "${guess}"?)` : ` (${key}: ${known.join(', ')})`}` });
    });
  unknown(only?.populations, populations, 'populations', 'population');
  unknown(only?.routes, routes, 'routes', 'route');
  // A scenario of partners only is judged by the partner measures: its verdict has no users
  // (their success and recovery are null), but it is about someone.
  if (out.length === 0 && !subjectOf(base).some(Boolean) && !partnersOf(base).some(Boolean)) {
    out.push({
      path: only ? ['compare', 'for'] : ['clients'],
      message: only
        ? 'no population with role user, internal or partner is left: the verdict would be about nobody (attackers are never judged)'
        : 'every population has role attacker: give at least one population role user (or internal, or partner with its contract), whose outcomes the verdict judges',
    });
  }
  return out;
}
