/**
 * Whose outcomes the verdict is about, by role, narrowed by the scenario's `compare.for`
 * (populations, routes):
 * - its users (the subject): every `user` and `internal` population. Success, perceived
 *   outage, recovery and the health gate are measured for them.
 * - its partners: every `partner` population, judged by its contract (held to it, served up
 *   to it) instead: refusing a partner above its quota is the policy working, not an outage.
 * Attackers are never judged: their refused requests are the service working.
 * One rule, read by the model (which counts the subject's outcomes per second) and the checks.
 */
import type { Scenario } from './schema.js';
import type { Role } from './schema-clients.js';

/** The route a population calls (the schema's default when it names none). */
export function routeOf(pop: Scenario['clients'][string]): string {
  return pop.identity.route;
}

/** Roles whose success is the verdict's (the subject). */
export const SUBJECT_ROLES: readonly Role[] = ['user', 'internal'];

/** Roles the verdict judges at all: its users, and the partners held to their contracts. */
export const JUDGED_ROLES: readonly Role[] = ['user', 'internal', 'partner'];

/** Per population, in scenario order: does `compare.for` (if any) name it? */
function namedByCompare(s: Pick<Scenario, 'clients' | 'compare'>): boolean[] {
  const only = s.compare?.for;
  return Object.entries(s.clients).map(
    ([name, pop]) => (only?.populations === undefined || only.populations.includes(name)) && (only?.routes === undefined || only.routes.includes(routeOf(pop))),
  );
}

/** Per population, in scenario order: is it part of the verdict's subject (its users)? */
export function subjectOf(s: Pick<Scenario, 'clients' | 'compare'>): boolean[] {
  const named = namedByCompare(s);
  return Object.values(s.clients).map((pop, i) => named[i] && SUBJECT_ROLES.includes(pop.role));
}

/** Per population, in scenario order: is it a partner the verdict judges by its contract? */
export function partnersOf(s: Pick<Scenario, 'clients' | 'compare'>): boolean[] {
  const named = namedByCompare(s);
  return Object.values(s.clients).map((pop, i) => named[i] && pop.role === 'partner');
}

/**
 * Whose latency the verdict reads, among `members` (the verdict's users): internal traffic is
 * left out when users are there too, since a batch job's success matters and its latency does
 * not. The recorder's per-bucket latency and the latency measures both apply this one rule.
 */
export function latencyJudged(roles: readonly Role[], members: readonly boolean[]): boolean[] {
  const users = roles.some((r, i) => members[i] && r === 'user');
  return members.map((m, i) => m && !(users && roles[i] === 'internal'));
}
