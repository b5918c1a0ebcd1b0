/**
 * The checks on a scenario's `compare` block that need the whole file: its baseline must
 * name a variant, and its `at` must name swept parameters and pick at least one sweep point
 * (values compared by meaning, so 60s picks the point written 1m). Like an expectation's
 * `at`, a ranking that would read nothing is an error, not an empty section. The loader
 * positions the problems; this module only says what is wrong and where in the scenario.
 */
import type { CompareSpec } from './schema.js';
import { closest } from './problems.js';
import { sameValue, type PathSegment, type SweepPoint } from './sweep.js';

export interface CompareProblem {
  path: PathSegment[];
  /** A key inside the mapping at `path` the problem is about (positioned at the key itself). */
  key?: string;
  message: string;
}

export function compareProblems(
  compare: CompareSpec | undefined,
  variants: readonly string[],
  params: ReadonlyArray<{ parameter: string; values: ReadonlyArray<string | number> }>,
  points: readonly SweepPoint[],
): CompareProblem[] {
  if (!compare) return [];
  const out: CompareProblem[] = [];
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
