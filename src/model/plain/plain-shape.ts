/**
 * Which scenarios the plain world (plain-world.ts) runs: the shape of the benchmark's
 * reference model and of many first scenarios — open client populations with one retry
 * layer each, one server instance with one FIFO queue, and faults that only take its
 * dependency down, cut its slots or surge the arrivals. Everything else (stages, limiters,
 * admission, deadlines, hedging, budgets, breakers, behaviours, operators, services, more
 * instances, other faults) takes the general path (clients.ts, frontend.ts, instance.ts).
 *
 * Why an allow-list, field by field: a scenario is accepted only when every field is one the
 * plain world reads, or is at the value that makes the general path skip it. The tables below
 * are typed over every key of the parsed scenario, server, population and layer, so a field
 * added to the schema later does not type-check until someone says here how the plain world
 * treats it; and a key the tables do not know at run time sends the run down the general
 * path. A new feature can therefore never be silently ignored by the plain world.
 * test/model/plain-world.test.ts checks that both paths give the same record.
 */
import type { Behaviour, Fault, Population, Scenario, ServerSpec } from '../../scenario/schema.js';
import type { LayerSpec } from '../client/layer-spec.js';
import { resolveLayer } from '../client/resolve-layer.js';

/** True when `s` can run in the plain world; otherwise the reason, for tests and the curious. */
export function plainShape(s: Scenario): true | string {
  return fieldsAllow(s, SCENARIO, '');
}

/**
 * How the plain world treats one field: 'read' (it runs any value, the same way the general
 * path does), or a test of the value that says true or why not. An absent optional field is
 * never tested.
 */
type Rule<T> = 'read' | ((value: Exclude<T, undefined>) => true | string);
type Rules<T> = { readonly [K in keyof Required<T>]: Rule<T[K]> };

function fieldsAllow<T extends object>(value: T, rules: Rules<T>, where: string): true | string {
  for (const [key, v] of Object.entries(value)) {
    const rule = (rules as Record<string, Rule<unknown> | undefined>)[key];
    if (rule === undefined) return `${where}${key} (a field the plain world does not know)`;
    if (rule === 'read' || v === undefined) continue;
    const why = rule(v);
    if (why !== true) return why;
  }
  return true;
}

const none = (what: string) => (v: object) => Object.keys(v).length === 0 || what;
const is = (expected: unknown, what: string) => (v: unknown) => v === expected || what;
/** Fields that only matter to the experiment (variants, sweeps, checks), not to one run. */
const EXPERIMENT = 'read' as const;

const SCENARIO: Rules<Scenario> = {
  $schema: 'read',
  name: 'read',
  question: 'read',
  description: 'read',
  horizon: 'read',
  seed: 'read',
  seeds: 'read',
  measures: 'read', // the recorder's settings, shared by both paths
  clients: (clients) => {
    for (const [name, p] of Object.entries(clients)) {
      const why = fieldsAllow(p, POPULATION, `clients.${name}.`);
      if (why !== true) return `population ${name}: ${why}`;
    }
    return true;
  },
  server: (server) => fieldsAllow(server, SERVER, 'server.'),
  services: none('services'),
  faults: (faults) => {
    for (const f of faults) {
      const why = plainFault(f);
      if (why !== true) return why;
    }
    return true;
  },
  actions: (actions) => actions.length === 0 || 'operator actions',
  sweep: EXPERIMENT,
  search: EXPERIMENT,
  calibrate: EXPERIMENT,
  expectations: EXPERIMENT,
  compare: EXPERIMENT,
  observed: EXPERIMENT,
  variants: EXPERIMENT,
};

const SERVER: Rules<ServerSpec> = {
  slots: 'read',
  queue: 'read',
  serviceTime: 'read',
  failFastTime: 'read',
  routes: none('per-route settings'),
  dependencies: none('dependencies'),
  instances: is(1, 'more than one instance'),
  loadBalancer: is('round-robin', 'a load balancer other than the default'),
  discipline: (d) => d === 'fifo' || `discipline ${d}`,
  fairQueue: () => 'a fair queue',
  codel: () => 'CoDel',
  red: () => 'random early detection',
  contention: () => 'contention',
  dropAbandoned: is(false, 'dropAbandoned'),
  deadline: is(Infinity, 'a server deadline'),
  executionDeadline: is(Infinity, 'an execution deadline'),
  autoscaler: () => 'an autoscaler',
  stages: (stages) => stages.length === 0 || 'stages',
  rejectionCost: is(0, 'a rejection cost'),
  overload: (o) => fieldsAllow(o, OVERLOAD, 'server.overload.'),
};

const OVERLOAD: Rules<ServerSpec['overload']> = {
  // The response contract (outcomes.ts) carries the status and the retryable flag to both paths.
  status: 'read',
  retryable: 'read',
  retryAfter: (ra) => ra.kind === 'none' || 'a Retry-After contract',
};

function plainFault(f: Fault): true | string {
  if (f.kind === 'surge') return true; // drawn by the arrival process, shared by both paths
  if (f.kind !== 'dependency-down' && f.kind !== 'capacity-cut') return `a ${f.kind} fault`;
  if (f.service !== undefined) return 'a fault of a service';
  return true;
}

const POPULATION: Rules<Population> = {
  description: 'read',
  role: 'read', // read by the measures, through the recorder's populations
  contract: 'read', // read by the partner measures only
  clients: 'read', // populationState draws the client of each action
  arrivals: (a) => (a.kind === 'closed' ? 'closed arrivals' : a.kind === 'after' ? 'a journey\'s step' : true),
  retry: (layer) => layerAllows(resolveLayer('app', layer)),
  layers: (layers) => {
    const names = Object.keys(layers);
    if (names.length > 1) return 'more than one layer';
    return names.length === 0 || layerAllows(resolveLayer(names[0], layers[names[0]]));
  },
  peopleOf: () => 'peopleOf',
  behaviour: (b) => fieldsAllow(b, BEHAVIOUR, 'behaviour.'),
  identity: (id) => fieldsAllow(id, IDENTITY, 'identity.'),
};

const refused = (what: string) => () => what;

const BEHAVIOUR: Rules<Behaviour> = {
  attemptHeader: 'read',
  giveUpAfter: refused('behaviour giveUpAfter'),
  giveUpAfterFailures: refused('behaviour giveUpAfterFailures'),
  refresh: refused('behaviour refresh'),
  invalidShare: refused('behaviour invalidShare'),
  remoteSwitch: refused('behaviour remoteSwitch'),
  offline: refused('behaviour offline'),
  leave: refused('behaviour leave'),
};

const IDENTITY: Rules<Population['identity']> = {
  // The route sorts the attempt queue's entries by route; the other fields are read only by
  // stages (limiters, detection, min-version), which the plain world has none of.
  route: 'read',
  tier: 'read',
  clientsPerIp: 'read',
  idempotencyKeys: 'read',
  distinctBodies: 'read',
  version: 'read',
  sendsDeadline: is(false, 'deadlines sent'),
};

/** The layer as the general path resolves it (presets included). */
function layerAllows(layer: LayerSpec): true | string {
  return fieldsAllow(layer, LAYER, 'layer ');
}

const LAYER: Rules<LayerSpec> = {
  name: 'read',
  maxAttempts: 'read',
  timeout: 'read',
  // The retry table (populationState) is built from these, for both paths.
  retryOn: 'read',
  retryable: 'read',
  // Read only when an answer carries Retry-After, which no plain server sends.
  retryAfter: 'read',
  deadLetter: 'read',
  backoff: (b) => b.kind !== 'visibility' || 'a visibility backoff',
  deadline: is(Infinity, 'a layer deadline'),
  budget: refused('a retry budget'),
  breaker: refused('a breaker'),
  hedge: refused('hedging'),
};
