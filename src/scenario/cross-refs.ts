/**
 * Names that point at other names inside one scenario: the dependencies a route calls, the
 * routes that server settings, rate limits, quota guards and failovers are about. A name
 * that matches nothing is almost always a typo, and the model would ignore it (a rate limit
 * on a route nobody calls limits nothing) or fail only once the runs have started (a call to
 * a dependency that does not exist). So `validate` refuses them, with the names that exist.
 *
 * A route exists when a population calls it (identity.route, "default" when unset).
 */
import type { Scenario } from './schema.js';
import { closest } from './problems.js';
import type { PathSegment } from './raw-path.js';
import { serviceGraphProblems } from './service-graph.js';

export interface CrossRefProblem {
  path: PathSegment[];
  /** A key inside the mapping at `path` the problem is about (positioned at the key itself). */
  key?: string;
  message: string;
  /**
   * A setting about a route nobody calls does nothing: a typo in the base, but in a variant
   * that removes or reroutes a population it is only a setting left idle. The loader
   * reports these for a variant only where its overlay wrote them.
   */
  idle?: boolean;
}

/** The routes the populations of a scenario call, in order of first use. */
export function calledRoutes(s: Scenario): string[] {
  const out: string[] = [];
  for (const pop of Object.values(s.clients)) {
    const r = pop.identity.route;
    if (!out.includes(r)) out.push(r);
  }
  return out;
}

function unknownName(kind: string, name: string, known: readonly string[], none: string): string {
  const guess = closest(name, known);
  if (guess) return `no ${kind} named "${name}" (did you mean "${guess}"?)`;
  return known.length ? `no ${kind} named "${name}" (${kind}s: ${known.join(', ')})` : `no ${kind} named "${name}" (${none})`;
}

const routeMessage = (name: string, routes: readonly string[]) =>
  unknownName('route', name, routes, 'no population calls any') + ': a route exists when a population calls it (clients.<name>.identity.route, "default" when unset)';

export function crossRefProblems(s: Scenario): CrossRefProblem[] {
  const out: CrossRefProblem[] = [];
  const routes = calledRoutes(s);
  const deps = Object.keys(s.server.dependencies ?? {});
  const checkRoutes = (names: readonly string[] | undefined, path: PathSegment[]) => {
    (names ?? []).forEach((r, i) => {
      if (!routes.includes(r)) out.push({ path: [...path, i], message: routeMessage(r, routes), idle: true });
    });
  };
  const checkRouteKeys = (rec: Record<string, unknown> | undefined, path: PathSegment[]) => {
    for (const r of Object.keys(rec ?? {})) if (!routes.includes(r)) out.push({ path, key: r, message: routeMessage(r, routes), idle: true });
  };

  checkRouteKeys(s.server.routes, ['server', 'routes']);
  for (const [r, spec] of Object.entries(s.server.routes ?? {})) {
    (spec.calls ?? []).forEach((d, i) => {
      if (!deps.includes(d)) {
        out.push({ path: ['server', 'routes', r, 'calls', i], message: unknownName('dependency', d, deps, 'the server declares none under server.dependencies') });
      }
    });
  }
  s.server.stages.forEach((st, i) => {
    if (st.kind === 'rate-limit') checkRoutes(st.routes, ['server', 'stages', i, 'routes']);
  });
  for (const [d, dep] of Object.entries(s.server.dependencies ?? {})) {
    checkRouteKeys(dep.guard?.reserve, ['server', 'dependencies', d, 'guard', 'reserve']);
    checkRouteKeys(dep.guard?.bulkheads, ['server', 'dependencies', d, 'guard', 'bulkheads']);
    checkRoutes(dep.failover?.routes, ['server', 'dependencies', d, 'failover', 'routes']);
  }
  out.push(...serviceGraphProblems(s));
  return out;
}
