/**
 * Checks on a server's fair queue (server.fairQueue) that need the rest of the scenario: a
 * weight must name a key that exists (a population, route or tier, by the queue's key), a
 * priority list must name populations, and the queue does not mix with CoDel (which sheds
 * the oldest entry of one line; a fair queue has a line per key).
 */
import type { Scenario } from './schema.js';
import type { SemanticProblem } from './semantic-problem.js';
import { closest } from './problems.js';
import { fairQueueLayout } from './fair-queue-keys.js';

export function fairQueueProblems(s: Scenario): SemanticProblem[] {
  const fq = s.server.fairQueue;
  const layout = fairQueueLayout(s);
  if (!fq || !layout) return [];
  const out: SemanticProblem[] = [];
  for (const k of Object.keys(fq.weights ?? {})) {
    if (layout.keys.includes(k)) continue;
    const guess = closest(k, layout.keys);
    out.push({
      path: ['server', 'fairQueue', 'weights', k],
      message: `no ${fq.key} "${k}" among the keys of this fair queue (${layout.keys.join(', ')})${guess ? `; did you mean "${guess}"?` : ''}`,
    });
  }
  if (Array.isArray(fq.priority)) {
    const pops = Object.keys(s.clients);
    fq.priority.forEach((name, i) => {
      if (pops.includes(name)) return;
      const guess = closest(name, pops);
      out.push({ path: ['server', 'fairQueue', 'priority', i], message: `no client population "${name}" (the populations are: ${pops.join(', ')})${guess ? `; did you mean "${guess}"?` : ''}` });
    });
  }
  out.push(...withCodel(s.server, ['server']));
  return out;
}

/**
 * A fair queue with CoDel (codel, or discipline adaptive-lifo), on the server or on any
 * service of the graph: CoDel judges the oldest entry of all the lines but sheds whichever
 * line's turn it is, so it sheds young requests.
 */
export function fairQueueCodelProblems(s: Scenario): SemanticProblem[] {
  return Object.entries(s.services ?? {}).flatMap(([name, svc]) => withCodel(svc, ['services', name]));
}

function withCodel(server: Scenario['server'], at: Array<string | number>): SemanticProblem[] {
  if (!server.fairQueue || !(server.codel || server.discipline === 'adaptive-lifo')) return [];
  return [{
    path: [...at, 'fairQueue'],
    message: 'a fair queue does not go with codel or discipline adaptive-lifo (they shed from the head of one line; a fair queue has one line per key): use discipline fifo or lifo, and a shed stage for overload',
  }];
}
