/**
 * What an instance is built from: its slots and queue, the queue's policies, its deadlines,
 * and per route what serving a request takes (its service time, its calls to dependencies
 * and to other services); and how a scenario's server block becomes that.
 *
 * Why a module of its own: both halves of an instance read the options (instance.ts, its
 * queue, and slots.ts, its slots), and the slots are imported by the instance; the options
 * here import neither, so neither half has to import the other to know its own settings. The
 * frontend, which builds the instances, then only wires what these functions return.
 */
import { sampler, distributionMean } from '../../engine/distributions.js';
import { stream } from '../../engine/rng.js';
import type { Scenario, ServerSpec } from '../../scenario/schema.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import { fairQueueLayout } from '../../scenario/fair-queue-keys.js';
import { CODEL_DEFAULTS } from '../../scenario/server-defaults.js';
import type { Actions, Attempts } from '../records.js';
import type { Dependency } from './dependencies.js';
import type { FairQueueOptions } from './fair-queue.js';
import { RedDropper } from './red.js';
import type { ServiceCalls } from '../graph/waiting-jobs.js';

export interface InstanceOptions {
  slots: number;
  /** Most slots the instance may be given during the run (slot tables are sized for it; default `slots`). */
  maxSlots?: number;
  /** Queue capacity in attempts (Infinity = unbounded). */
  queueCapacity: number;
  lifo: boolean;
  /** CoDel (adaptive LIFO): target M and interval N in seconds; undefined = off. */
  codel?: { target: number; interval: number; adaptiveLifo: boolean };
  /** Contention: service time x (1 + factor * (busy/slots)^exponent). */
  contention?: { factor: number; exponent: number };
  dropAbandoned: boolean;
  /** Longest wait in the queue before the server refuses the attempt itself (Infinity = none). */
  deadline: number;
  /** Longest a request may run in its slot before the server cuts it and frees the slot (Infinity = none). */
  executionDeadline?: number;
  failFastTime: number;
  /** Per route index: its service time and the dependencies each request calls. */
  routes: RouteHandler[];
  /** Fair queueing and priority classes (fair-queue.ts) instead of one line; undefined = one line. */
  fair?: FairQueueOptions;
  /** The deadline an attempt carries (src/model/graph/): queued work past it is dropped unserved. */
  deadlineOf?: (attempt: number) => number;
  /** Random early detection at arrival (red.ts), this instance's own; undefined = off. */
  red?: RedDropper;
}

export interface RouteHandler {
  serviceTime: () => number;
  calls: Dependency[];
  /** Calls to other services of the graph (src/model/graph/route-calls.ts), made before the service time. */
  services?: ServiceCalls;
}

/** What every instance of a server shares beyond its server block: see FrontendOptions. */
export interface SharedInstanceOptions {
  maxSlots: number;
  routes: RouteHandler[];
  fair: FairQueueOptions | undefined;
  dropAbandoned: boolean;
  deadlineOf: ((attempt: number) => number) | undefined;
}

/**
 * Instance i's options from the server block: the first `spec.instances` have its slots,
 * the rest (instances a scale action or the autoscaler may add) none yet. Each instance's RED
 * averages its own queue, with its own draws.
 */
export function instanceOptionsOf(spec: ServerSpec, i: number, shared: SharedInstanceOptions, seed: number): InstanceOptions {
  return {
    slots: i < spec.instances ? spec.slots : 0,
    maxSlots: shared.maxSlots,
    queueCapacity: spec.queue === 'unbounded' ? Infinity : spec.queue,
    lifo: spec.discipline === 'lifo',
    codel:
      spec.codel || spec.discipline === 'adaptive-lifo'
        ? { ...(spec.codel ?? { target: CODEL_DEFAULTS.targetS, interval: CODEL_DEFAULTS.intervalS }), adaptiveLifo: spec.discipline === 'adaptive-lifo' }
        : undefined,
    contention: spec.contention,
    dropAbandoned: spec.dropAbandoned || shared.dropAbandoned,
    deadlineOf: shared.deadlineOf,
    deadline: spec.deadline,
    executionDeadline: spec.executionDeadline,
    failFastTime: spec.failFastTime,
    routes: shared.routes,
    fair: shared.fair,
    red: spec.red ? new RedDropper({ ...spec.red, departureS: distributionMean(toDistributionSpec(spec.serviceTime)) / spec.slots }, stream(seed, `server/red/${i}`)) : undefined,
  };
}

/**
 * Per route (in the order of `routes`): its service time, its own or the server's (one
 * sampler, one stream, shared by every route without its own), the dependencies it calls,
 * and its calls to other services of the graph.
 */
export function routeHandlers(
  spec: ServerSpec,
  routes: readonly string[],
  dependencies: readonly Dependency[],
  seed: number,
  serviceCalls: ((route: string) => ServiceCalls | undefined) | undefined,
): RouteHandler[] {
  const defaultService = sampler(toDistributionSpec(spec.serviceTime), stream(seed, 'server/service'));
  return routes.map((r) => {
    // Own keys only: a route named "constructor" or "toString" must not find an inherited member.
    const rs = spec.routes && Object.hasOwn(spec.routes, r) ? spec.routes[r] : undefined;
    return {
      serviceTime: rs?.serviceTime ? sampler(toDistributionSpec(rs.serviceTime), stream(seed, `server/routes/${r}/service`)) : defaultService,
      calls: (rs?.calls ?? []).map((name) => dependencies.find((d) => d.name === name)!),
      services: serviceCalls?.(r),
    };
  });
}

/** How each instance's fair queue keys and classes an attempt (server.fairQueue), or undefined for one line. */
export function fairQueueOptionsOf(s: Scenario, attempts: Attempts, actions: Actions): FairQueueOptions | undefined {
  const layout = fairQueueLayout(s);
  if (!layout) return undefined;
  const keyOfPop = Int32Array.from(layout.keyOfPopulation);
  const classOfPop = Int32Array.from(layout.classOfPopulation);
  return {
    keys: layout.keys.length,
    classes: layout.classes,
    weights: layout.weights,
    keyOf: (a) => keyOfPop[actions.population[attempts.action[a]]],
    classOf: layout.retriesLast ? (a) => (attempts.number[a] > 1 ? 1 : 0) : (a) => classOfPop[actions.population[attempts.action[a]]],
  };
}
