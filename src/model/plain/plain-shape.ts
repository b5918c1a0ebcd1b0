/**
 * Which scenarios the plain world (plain-world.ts) runs: the shape of the benchmark's
 * reference model and of many first scenarios — open client populations with one retry
 * layer each, one server instance with one queue, and faults that only take its
 * dependency down, cut its slots or surge the arrivals. Everything else (stages, limiters, admission,
 * deadlines, hedging, budgets, breakers, behaviours, operators, services, more instances,
 * other faults) takes the general path (clients.ts, frontend.ts, instance.ts).
 *
 * The test is conservative on purpose: a scenario is accepted only when every feature the
 * plain world leaves out is absent or at the value that makes the general path skip it, so
 * both paths run the same model (test/model/plain-world.test.ts checks the records agree).
 */
import type { Scenario } from '../../scenario/schema.js';
import type { Population } from '../../scenario/schema.js';
import { resolveLayer } from '../client/resolve-layer.js';

/** True when `s` can run in the plain world; otherwise the reason, for tests and the curious. */
export function plainShape(s: Scenario): true | string {
  if (s.services && Object.keys(s.services).length > 0) return 'services';
  if (s.actions.length > 0) return 'operator actions';
  const v = s.server;
  if (v.autoscaler) return 'an autoscaler';
  if (v.instances !== 1) return 'more than one instance';
  if (v.routes && Object.keys(v.routes).length > 0) return 'per-route settings';
  if (v.dependencies && Object.keys(v.dependencies).length > 0) return 'dependencies';
  if (v.stages.length > 0) return 'stages';
  if (v.fairQueue) return 'a fair queue';
  if (v.codel) return 'CoDel';
  if (v.discipline !== 'fifo') return `discipline ${v.discipline}`;
  if (v.contention) return 'contention';
  if (v.dropAbandoned) return 'dropAbandoned';
  if (v.deadline !== Infinity) return 'a server deadline';
  if (v.executionDeadline !== Infinity) return 'an execution deadline';
  const ra = v.overload.retryAfter;
  if (ra !== undefined && ra.kind !== 'none') return 'a Retry-After contract';
  for (const f of s.faults) {
    if (f.kind === 'surge') continue; // drawn by the arrival process, shared by both paths
    if (f.kind !== 'dependency-down' && f.kind !== 'capacity-cut') return `a ${f.kind} fault`;
    if (f.service !== undefined) return 'a fault of a service';
  }
  for (const [name, p] of Object.entries(s.clients)) {
    const why = plainPopulation(p);
    if (why !== true) return `population ${name}: ${why}`;
  }
  return true;
}

function plainPopulation(p: Population): true | string {
  if (p.arrivals.kind === 'closed') return 'closed arrivals';
  const b = p.behaviour;
  if (b !== undefined && Object.entries(b).some(([k, x]) => x !== undefined && k !== 'attemptHeader')) return 'behaviour';
  if (p.identity?.sendsDeadline === true) return 'deadlines sent';
  const inputs = p.layers ?? (p.retry ? { app: p.retry } : {});
  const names = Object.keys(inputs);
  if (names.length > 1) return 'more than one layer';
  // The layer as the general path resolves it (presets included).
  const layer = resolveLayer(names[0] ?? 'direct', names.length ? inputs[names[0]] : {});
  if (layer.deadline !== Infinity) return 'a layer deadline';
  if (layer.budget) return 'a retry budget';
  if (layer.breaker) return 'a breaker';
  if (layer.hedge) return 'hedging';
  if (layer.backoff.kind === 'visibility') return 'a visibility backoff';
  return true;
}
