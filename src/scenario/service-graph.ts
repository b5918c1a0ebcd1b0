/**
 * The checks that make `services:` a graph the model can run: every call names a service
 * that exists, the calls have no cycle (a request would call itself without end, and the
 * model builds a service's callers once), fan-in asks for no more calls than the route
 * makes, faults name services that exist, and each call's network delay can be drawn and
 * only its innermost layer hedges. Each problem is positioned at the key that causes it, with
 * the names that would be right.
 */
import type { Scenario, ServerSpec } from './schema.js';
import { closest } from './problems.js';
import type { PathSegment } from './raw-path.js';
import { validateDistribution } from '../engine/distributions.js';
import { toDistributionSpec } from './distribution-spec.js';

/** The edge's name in the graph (the scenario's `server`), which a service cannot take. */
export const EDGE_NAME = 'server';

function unknownService(name: string, known: readonly string[]): string {
  const guess = closest(name, known);
  if (guess) return `no service named "${name}" (did you mean "${guess}"?)`;
  return known.length ? `no service named "${name}" (services: ${known.join(', ')})` : `no service named "${name}": declare it under services (services.${name}: a server like server:)`;
}

/** A problem at a path (and, when set, at a key of the mapping there): cross-refs.ts reports these with its own. */
export interface GraphProblem {
  path: PathSegment[];
  key?: string;
  message: string;
}

export function serviceGraphProblems(s: Scenario): GraphProblem[] {
  const out: GraphProblem[] = [];
  const services = Object.keys(s.services ?? {});
  const servers: Array<[string, ServerSpec, PathSegment[]]> = [
    [EDGE_NAME, s.server, ['server']],
    ...Object.entries(s.services ?? {}).map(([n, spec]): [string, ServerSpec, PathSegment[]] => [n, spec, ['services', n]]),
  ];
  if (services.includes(EDGE_NAME)) out.push({ path: ['services'], key: EDGE_NAME, message: `"${EDGE_NAME}" names the server users call (the edge of the graph): give this service another name` });
  const edges = new Map<string, Array<{ to: string; path: PathSegment[] }>>();
  for (const [name, spec, path] of servers) {
    const mine: Array<{ to: string; path: PathSegment[] }> = [];
    edges.set(name, mine);
    for (const [route, rs] of Object.entries(spec.routes ?? {})) {
      const rpath: PathSegment[] = [...path, 'routes', route];
      const calls = rs.services ?? [];
      if (name !== EDGE_NAME) {
        // The edge's dependency calls are checked with its routes (cross-refs.ts); a service's here.
        const deps = Object.keys(spec.dependencies ?? {});
        (rs.calls ?? []).forEach((d, i) => {
          if (!deps.includes(d)) out.push({ path: [...rpath, 'calls', i], message: deps.length ? `no dependency named "${d}" (dependencies of ${name}: ${deps.join(', ')})` : `no dependency named "${d}" (${name} declares none under services.${name}.dependencies)` });
        });
      }
      calls.forEach((c, i) => {
        const cpath: PathSegment[] = [...rpath, 'services', i, 'service'];
        if (!services.includes(c.service)) out.push({ path: cpath, message: unknownService(c.service, services) });
        else mine.push({ to: c.service, path: cpath });
        out.push(...callProblems(c, [...rpath, 'services', i]));
      });
      if (rs.fanIn !== undefined) {
        if (rs.fanOut !== 'parallel') out.push({ path: [...rpath, 'fanIn'], message: 'fanIn (wait for the first k calls) needs fanOut: parallel; sequential calls all have to succeed' });
        else if (rs.fanIn > calls.length) out.push({ path: [...rpath, 'fanIn'], message: `fanIn ${rs.fanIn} waits for more calls than the route makes (${calls.length}): at most ${calls.length}` });
      }
    }
  }
  // A cycle: depth-first from the edge and every service, reported once at the call that closes it.
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const e of edges.get(n) ?? []) {
      if (state.get(e.to) === 1) {
        const loop = [...stack.slice(stack.indexOf(e.to)), e.to];
        out.push({ path: e.path, message: `the service calls make a cycle (${loop.join(' → ')}): a request would call itself without end; break it` });
      } else if (!state.has(e.to)) visit(e.to);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const [name] of servers) if (!state.has(name)) visit(name);
  s.faults.forEach((f, i) => {
    if ('service' in f && f.service !== undefined && !services.includes(f.service)) out.push({ path: ['faults', i, 'service'], message: unknownService(f.service, services) });
  });
  return out;
}

/**
 * One call's own checks: its network delay must be a distribution the model can draw (as a
 * service time must), and only its innermost layer, the one that sends attempts, can hedge
 * (as for a client population).
 */
function callProblems(c: NonNullable<NonNullable<ServerSpec['routes']>[string]['services']>[number], path: PathSegment[]): GraphProblem[] {
  const out: GraphProblem[] = [];
  if (c.networkDelay) {
    const why = validateDistribution(toDistributionSpec(c.networkDelay));
    if (why) out.push({ path: [...path, 'networkDelay'], message: why });
  }
  const layers = Object.keys(c.layers ?? {});
  layers.slice(0, -1).forEach((l) => {
    if (c.layers![l].hedge) out.push({ path: [...path, 'layers', l, 'hedge'], message: `only the innermost layer (here "${layers.at(-1)}", the one that sends attempts) can hedge: move hedge there` });
  });
  return out;
}
