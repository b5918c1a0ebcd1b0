/**
 * Whose users the verdict is about: every population whose role is `user`, narrowed by the
 * scenario's `compare.for` (populations, routes). Success, perceived outage and recovery are
 * measured for them; attackers' refused requests are the service working, not an outage.
 * One rule, read by the model (which counts the subject's outcomes per second) and the checks.
 */
import type { Scenario } from './schema.js';

/** The route a population calls (the schema's default when it names none). */
export function routeOf(pop: Scenario['clients'][string]): string {
  return pop.identity.route;
}

/** Per population, in scenario order: is it part of the verdict's subject? */
export function subjectOf(s: Pick<Scenario, 'clients' | 'compare'>): boolean[] {
  const only = s.compare?.for;
  return Object.entries(s.clients).map(
    ([name, pop]) =>
      pop.role === 'user' &&
      (only?.populations === undefined || only.populations.includes(name)) &&
      (only?.routes === undefined || only.routes.includes(routeOf(pop))),
  );
}
