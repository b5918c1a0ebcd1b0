/**
 * The keys and priority classes of a server's fair queue (server.fairQueue), named from the
 * scenario: one place that says which populations share a key and a class, read by the
 * loader's checks (a weight must name a key that exists) and by the model (which turns each
 * population's requests take).
 */
import type { Scenario } from './schema.js';

export interface FairQueueLayout {
  /** The key names (population, route or tier names), in index order. */
  keys: string[];
  /** Per population, in s.clients order: its key index. */
  keyOfPopulation: number[];
  /** Per key index: its weight. */
  weights: number[];
  /** Number of priority classes: 1 without priority, 2 for first-tries, the list's length + 1 for populations. */
  classes: number;
  /** Per population: its class (0 highest), when the classes are by population. */
  classOfPopulation: number[];
  /** True when retries form the lower class (priority: first-tries). */
  retriesLast: boolean;
}

/** The tier of populations that declare none. */
export const NO_TIER = 'none';

export function fairQueueLayout(s: Scenario): FairQueueLayout | undefined {
  const fq = s.server.fairQueue;
  if (!fq) return undefined;
  const pops = Object.entries(s.clients);
  const keyName = ([name, p]: (typeof pops)[number]): string =>
    fq.key === 'population' ? name : fq.key === 'route' ? p.identity.route : (p.identity?.tier ?? NO_TIER);
  const keys = [...new Set(pops.map(keyName))];
  const priority = fq.priority;
  const listed = Array.isArray(priority) ? priority : [];
  return {
    keys,
    keyOfPopulation: pops.map((p) => keys.indexOf(keyName(p))),
    weights: keys.map((k) => (fq.weights && Object.hasOwn(fq.weights, k) ? fq.weights[k] : 1)),
    classes: priority === 'first-tries' ? 2 : listed.length + 1,
    classOfPopulation: pops.map(([name]) => (listed.includes(name) ? listed.indexOf(name) : listed.length)),
    retriesLast: priority === 'first-tries',
  };
}
