/**
 * The checks on a scenario's expectations that need the whole file: each names a variant
 * that exists, a route that variant's populations call, a population it has or a tier of its
 * service graph, and sweep
 * points that exist (values
 * compared by meaning, so 60s picks the point written 1m). An expectation that could check
 * nothing would pass silently, or fail only after every run; `validate` refuses it instead.
 * The loader positions the problems; this module only says what is wrong and where.
 */
import type { Expectation, Scenario } from './schema.js';
import { closest } from './problems.js';
import { calledRoutes } from './cross-refs.js';
import { sameValue, type PathSegment, type SweepPoint } from './sweep.js';
import { EDGE_NAME as EDGE_TIER } from './service-graph.js';

export interface ExpectationProblem {
  path: PathSegment[];
  message: string;
}

export function expectationProblems(
  expectations: readonly Expectation[] | undefined,
  names: readonly string[],
  /** The variants that were built (a variant with problems of its own is not). */
  variants: ReadonlyArray<{ name: string; points: readonly Scenario[] }>,
  params: ReadonlyArray<{ parameter: string; values: ReadonlyArray<string | number> }>,
  points: readonly SweepPoint[],
): ExpectationProblem[] {
  const out: ExpectationProblem[] = [];
  const swept = params.map((p) => p.parameter);
  (expectations ?? []).forEach((e, i) => {
    const variant = variants.find((v) => v.name === e.variant);
    if (!names.includes(e.variant)) {
      const guess = closest(e.variant, names);
      out.push({ path: ['expectations', i, 'variant'], message: `no variant named "${e.variant}"${guess ? ` (did you mean "${guess}"?)` : ` (variants: ${names.join(', ')})`}` });
    } else if (variant && e.population !== undefined) {
      const populations = [...new Set(variant.points.flatMap((p) => Object.keys(p.clients)))];
      if (!populations.includes(e.population)) {
        const guess = closest(e.population, populations);
        out.push({
          path: ['expectations', i, 'population'],
          message: `variant "${e.variant}" has no population named "${e.population}"${guess ? ` (did you mean "${guess}"?)` : ` (its populations: ${populations.join(', ')})`}`,
        });
      }
    }
    const scopes = [e.population, e.route, e.tier].filter((x) => x !== undefined).length;
    if (variant && scopes > 1) {
      out.push({ path: ['expectations', i], message: e.tier === undefined ? 'give population or route, not both' : 'give one of population, route or tier: a tier is measured whoever calls it' });
    } else if (variant && e.tier !== undefined) {
      // The edge is a tier only where there are services: a single server has no tiers.
      const services = [...new Set(variant.points.flatMap((p) => Object.keys(p.services ?? {})))];
      const tiers = services.length > 0 ? [EDGE_TIER, ...services] : [];
      if (tiers.length === 0) {
        out.push({ path: ['expectations', i, 'tier'], message: `variant "${e.variant}" has no services, so no tiers to check: tier measures are for a service graph (services:, docs/topologies.md); without one, check the server with its own measures` });
      } else if (!tiers.includes(e.tier)) {
        const guess = closest(e.tier, tiers);
        out.push({ path: ['expectations', i, 'tier'], message: `variant "${e.variant}" has no tier named "${e.tier}"${guess ? ` (did you mean "${guess}"?)` : ''} (its tiers: ${tiers.join(', ')}; the edge is "${EDGE_TIER}")` });
      }
    } else if (variant && e.route !== undefined) {
      const routes = [...new Set(variant.points.flatMap(calledRoutes))];
      if (!routes.includes(e.route)) {
        const guess = closest(e.route, routes);
        out.push({
          path: ['expectations', i, 'route'],
          message: `no population of variant "${e.variant}" calls route "${e.route}"${guess ? ` (did you mean "${guess}"?)` : ` (its routes: ${routes.join(', ')})`}, so there would be nothing to check`,
        });
      }
    }
    const at = e.at ?? {};
    const keys = Object.keys(at);
    const unknown = keys.filter((k) => !swept.includes(k));
    for (const k of unknown) {
      out.push({ path: ['expectations', i, 'at', k], message: `"${k}" is not a swept parameter${swept.length ? ` (swept: ${swept.join(', ')})` : ' (the scenario has no sweep)'}` });
    }
    if (unknown.length === 0 && keys.length > 0 && !points.some((pt) => keys.every((k) => sameValue(pt.values[k], at[k])))) {
      const values = params.map((p) => `${p.parameter}: ${p.values.join(', ')}`).join('; ');
      out.push({ path: ['expectations', i, 'at'], message: `no sweep point has these values, so nothing would be checked (the sweep has ${values})` });
    }
  });
  return out;
}
