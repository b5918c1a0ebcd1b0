/**
 * Services as nodes of a graph (issue 14). The server users call is the edge; every service
 * under `services:` is built as the same parts the edge is made of — a Frontend with its
 * instances, stages and overload contract, its own recorder and record pools — and its
 * callers are a Clients whose populations are the calls into it (one per calling route and
 * call), each with the retry layers the call declares. So a service's HTTP library retries
 * exactly like a client's, with the same layer state machine, budgets, breakers and presets.
 * A route's calls are wired to those populations by RouteCalls (route-calls.ts).
 *
 * A scenario without services builds none of this, so its events and draws are those of
 * the single server. A service's random streams are drawn under its own seed (a negative
 * number made from the run's seed and the service's index, which no run's seed can equal),
 * so adding a service leaves every other stream as it was.
 */
import type { Engine } from '../../engine/engine.js';
import type { Population, Scenario, ServerSpec } from '../../scenario/schema.js';
import type { ServiceCall } from '../../scenario/schema-services.js';
import { Actions, Attempts, MAX_LAYERS } from '../records.js';
import { layerCount } from '../client/population.js';
import { Clients } from '../client/clients.js';
import { Recorder } from '../recorder.js';
import { Frontend } from '../server/frontend.js';
import { identities } from '../server/request.js';
import { responseContract } from '../outcomes.js';
import { scheduleFaults } from '../faults.js';
import type { ServiceCalls } from './waiting-jobs.js';
import { RouteCalls, type CallTarget } from './route-calls.js';
import { IDENTITY_DEFAULTS } from '../../scenario/server-defaults.js';
import { sampler } from '../../engine/distributions.js';
import { stream } from '../../engine/rng.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import { NetworkLinks, type DelayOf } from './network.js';
import { serviceCapacityBounds } from '../operator/operator.js';

/** The edge's name in the graph: the scenario's `server`. */
export const EDGE = 'server';

/** One service of the graph, as built for a run. */
export interface ServiceNode {
  name: string;
  spec: ServerSpec;
  rec: Recorder;
  frontend: Frontend;
  /** The calls into this service (its populations, in order) and who makes them. */
  clients: Clients;
  callers: CallEdge[];
}

/** One call of one route: caller, route, index in the route's list, the call. */
export interface CallEdge {
  caller: string;
  route: string;
  index: number;
  call: ServiceCall;
}

/** Every call declared in the scenario, grouped by the service called (declaration order). */
export function callEdges(s: Scenario): Map<string, CallEdge[]> {
  const into = new Map<string, CallEdge[]>(Object.keys(s.services ?? {}).map((n) => [n, []]));
  const servers: Array<[string, ServerSpec]> = [[EDGE, s.server], ...Object.entries(s.services ?? {})];
  for (const [caller, spec] of servers) {
    for (const [route, rs] of Object.entries(spec.routes ?? {})) {
      (rs.services ?? []).forEach((call, index) => into.get(call.service)?.push({ caller, route, index, call }));
    }
  }
  return into;
}

/** The population that stands for one call edge inside the called service. */
function callPopulation(e: CallEdge, callerSpec: ServerSpec): Population {
  return {
    role: 'user',
    clients: callerSpec.instances,
    arrivals: { kind: 'constant', rate: 0 }, // calls start from the caller's route, never on their own
    ...(e.call.layers ? { layers: e.call.layers } : e.call.retry ? { layers: { http: e.call.retry } } : {}),
    // Each caller instance is one client, seen as the schema sees clients that say nothing.
    identity: { ...IDENTITY_DEFAULTS, route: e.call.route, sendsDeadline: e.call.propagateDeadline },
  } satisfies Partial<Population> as Population;
}

/** Name of the population a call edge becomes in the called service: caller.route[index]. */
export function callName(e: { caller: string; route: string; index: number }): string {
  return `${e.caller}.${e.route}[${e.index}]`;
}

export class ServiceGraph {
  readonly nodes: ServiceNode[] = [];
  private readonly routeCalls = new Map<string, RouteCalls>();

  constructor(engine: Engine, s: Scenario, seed: number, bucketS: number, memory: Engine['memory']) {
    const edges = callEdges(s);
    this.specOf = (name: string): ServerSpec => (name === EDGE ? s.server : s.services![name]);
    const specOf = this.specOf;
    const services = Object.entries(s.services ?? {});
    // The callers of every service first: a route's calls need them, and a service's routes may call any other.
    const built = services.map(([name, spec], k) => {
      const callers = edges.get(name) ?? [];
      const pops: Array<[string, Population]> = callers.map((e) => [callName(e), callPopulation(e, specOf(e.caller))]);
      if (pops.length === 0) return undefined; // nobody calls it: it does nothing
      const tierSeed = -(seed * 1024 + k + 1);
      const ids = identities(pops);
      const rec = new Recorder({
        horizonS: s.horizon,
        bucketS,
        routeOfPopulation: ids.pops.map((p) => p.route),
        routes: ids.routes.length,
        dependencies: Object.keys(spec.dependencies ?? {}).length,
      });
      const faults = s.faults.filter((f) => 'service' in f && f.service === name);
      const errors = faults.find((f) => f.kind === 'error-rate' && f.dependency === undefined);
      const contract = responseContract(spec.overload, errors?.kind === 'error-rate' ? { status: errors.status, retryable: errors.retryable } : {});
      const layers = Math.min(MAX_LAYERS, Math.max(...pops.map(([, p]) => layerCount(p))));
      const actions = new Actions({ layers, meter: memory });
      const attempts = new Attempts({ meter: memory });
      const clients = new Clients(engine, actions, attempts, rec, pops, tierSeed, contract);
      return { name, spec, callers, pops, ids, rec, faults, contract, actions, attempts, clients, tierSeed };
    });
    for (const b of built) if (b) this.callersOf.set(b.name, { clients: b.clients, actions: b.actions, callers: b.callers });
    for (const b of built) {
      if (!b) continue;
      // The wire between the callers and the service, when a call crosses one (network.ts);
      // without any, attempts and answers go straight through, as they always did.
      const delays: DelayOf = b.callers.map((e) =>
        e.call.networkDelay ? sampler(toDistributionSpec(e.call.networkDelay), stream(b.tierSeed, `network/${callName(e)}`)) : undefined,
      );
      let deliver: (a: number) => void = () => {};
      const links = delays.some((d) => d !== undefined) ? new NetworkLinks(engine, b.attempts, b.actions, delays, (a) => deliver(a), b.clients.answer) : undefined;
      const frontend = new Frontend(engine, b.attempts, b.actions, b.rec, { ...s, server: b.spec, clients: Object.fromEntries(b.pops) }, b.ids, b.tierSeed, links ? links.answer : b.clients.answer, b.contract, {
        // A service's own autoscaler and the scale actions on it may add instances and slots (src/model/operator/): laid out from the start.
        ...serviceCapacityBounds(b.spec, b.name, s.actions),
        serviceCalls: (route) => this.callsOf(b.name, route),
        deadlineOf: b.clients.sendsDeadlines ? b.clients.deadlineOf : undefined,
        // Every caller passes its deadline down: cancellation travels with it (gRPC's context), so work nobody waits for is dropped.
        dropAbandoned: b.callers.every((e) => e.call.propagateDeadline),
      });
      deliver = frontend.arrive;
      b.clients.send = links ? links.send : frontend.arrive;
      scheduleFaults(engine, frontend, b.faults, b.tierSeed);
      this.nodes.push({ name: b.name, spec: b.spec, rec: b.rec, frontend, clients: b.clients, callers: b.callers });
    }
    // Each service's calls end through its callers' Clients: hand them to the route that made them.
    for (const node of this.nodes) {
      const owners = node.callers.map((e) => ({ rc: this.routeCallsFor(e.caller, e.route), index: e.index }));
      node.clients.callEnded = (pop, tag, ok) => owners[pop].rc?.ended(tag, ok);
    }
  }

  private readonly specOf: (name: string) => ServerSpec;
  /** Each called service's callers: the Clients its calls go through, their records, and the call edges. */
  private readonly callersOf = new Map<string, { clients: Clients; actions: Actions; callers: CallEdge[] }>();

  /** The calls a route of a service (or of the edge) makes, or undefined when it makes none. */
  callsOf(service: string, route: string): ServiceCalls | undefined {
    return this.routeCallsFor(service, route);
  }

  private routeCallsFor(service: string, route: string): RouteCalls | undefined {
    const key = `${service}\u0000${route}`;
    const known = this.routeCalls.get(key);
    if (known) return known;
    const spec = this.specOf(service);
    const rs = spec?.routes && Object.hasOwn(spec.routes, route) ? spec.routes[route] : undefined;
    if (!rs?.services?.length) return undefined;
    const targets: CallTarget[] = rs.services.map((call, index) => {
      const node = this.callersOf.get(call.service)!;
      const pop = node.callers.findIndex((e) => e.caller === service && e.route === route && e.index === index);
      return {
        clients: node.clients,
        actions: node.actions,
        population: pop,
        propagate: call.propagateDeadline,
        clientsCount: spec.instances,
      };
    });
    const rc = new RouteCalls(targets, rs.fanOut === 'parallel', rs.fanIn);
    this.routeCalls.set(key, rc);
    return rc;
  }
}
