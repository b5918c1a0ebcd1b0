/**
 * A `calibrate:` block read into numbers the fit can move: each parameter's path (checked as a
 * sweep's or a search's is: a value of the world the base scenario sets), its range in one
 * kind of unit, the variant that lived the incident and the observed series to match. Each
 * trial's values are written back as scenario values (search-apply's writeValue), so a world
 * at fitted values is validated like any scenario.
 */
import type { CalibrateSpec } from './schema-calibrate.js';
import { EXPERIMENT_KEYS } from './schema.js';
import { parsePath } from './sweep.js';
import { readValue, type ValueKind } from './search-apply.js';
import type { PathSegment } from './raw-path.js';
import { closest } from './problems.js';

export interface CalibratedParameter {
  parameter: string;
  path: PathSegment[];
  kind: ValueKind;
  /** In seconds (duration), per second (rate), or as written (number). */
  from: number;
  to: number;
  /** The value the base scenario writes there (where the fit starts), when it is of the range's kind. */
  start: number;
}

export interface ResolvedCalibrate {
  parameters: CalibratedParameter[];
  variant: string;
  /** Names of the observed series matched. */
  series: string[];
  seeds: number;
  budget: number;
  intervalSeeds: number;
  level: number;
}

export interface CalibrateProblem {
  /** Under `calibrate` in the scenario. */
  path: PropertyKey[];
  message: string;
}

export interface CalibrateContext {
  valueAt(path: PathSegment[]): unknown;
  setsValue(path: PathSegment[]): boolean;
  variants: string[];
  observed: string[];
}

export function resolveCalibrate(spec: CalibrateSpec, ctx: CalibrateContext): ResolvedCalibrate | CalibrateProblem[] {
  const problems: CalibrateProblem[] = [];
  const parameters: CalibratedParameter[] = [];
  for (const [parameter, range] of Object.entries(spec.parameters)) {
    const at = ['parameters', parameter];
    const path = parsePath(parameter);
    if (typeof path === 'string') { problems.push({ path: at, message: path }); continue; }
    if ((EXPERIMENT_KEYS as readonly string[]).includes(String(path[0]))) {
      problems.push({ path: at, message: `"${parameter}" cannot be fitted: fit a value of the world (clients, server, services, faults…)` });
      continue;
    }
    if (!ctx.setsValue(path)) {
      problems.push({ path: at, message: `the scenario sets no value at "${parameter}": calibration moves a value the base scenario already has (write your best guess there; the fit starts from it)` });
      continue;
    }
    const from = readValue(range.from), to = readValue(range.to);
    if (typeof from === 'string') problems.push({ path: [...at, 'from'], message: from });
    if (typeof to === 'string') problems.push({ path: [...at, 'to'], message: to });
    if (typeof from === 'string' || typeof to === 'string') continue;
    if (from.kind !== to.kind) { problems.push({ path: [...at, 'to'], message: `the range's ends must be the same kind of value (got a ${from.kind} and a ${to.kind}): e.g. from: 100ms, to: 1s` }); continue; }
    if (!(to.n > from.n)) { problems.push({ path: [...at, 'to'], message: `the range is empty: "to" (${range.to}) must be larger than "from" (${range.from})` }); continue; }
    const written = ctx.valueAt(path);
    const start = typeof written === 'string' || typeof written === 'number' ? readValue(written) : `not a single value`;
    if (typeof start === 'string' || start.kind !== from.kind) {
      const what = typeof start === 'string' ? 'a value the fit cannot read' : `a ${start.kind}`;
      problems.push({ path: [...at, 'from'], message: `the scenario writes ${JSON.stringify(written)} at "${parameter}", ${what}; the range is a ${from.kind}: give the range in the unit the scenario uses` });
      continue;
    }
    parameters.push({ parameter, path, kind: from.kind, from: from.n, to: to.n, start: Math.min(to.n, Math.max(from.n, start.n)) });
  }
  const variant = spec.variant ?? ctx.variants[0];
  if (!ctx.variants.includes(variant)) {
    const guess = closest(variant, ctx.variants);
    problems.push({ path: ['variant'], message: `no variant named "${variant}"${guess ? `: did you mean "${guess}"?` : ''} (the variants are ${ctx.variants.join(', ')})` });
  }
  if (ctx.observed.length === 0) problems.push({ path: [], message: 'calibration matches the observed series: add an `observed:` block naming the incident\'s files (docs/traces.md)' });
  const series = spec.series ?? ctx.observed;
  spec.series?.forEach((name, i) => {
    if (ctx.observed.includes(name) || ctx.observed.length === 0) return;
    const guess = closest(name, ctx.observed);
    problems.push({ path: ['series', i], message: `no observed series named "${name}"${guess ? `: did you mean "${guess}"?` : ''} (observed: ${ctx.observed.join(', ')})` });
  });
  if (problems.length) return problems;
  return { parameters, variant, series, seeds: spec.seeds, budget: spec.budget, intervalSeeds: spec.intervalSeeds, level: spec.level };
}
