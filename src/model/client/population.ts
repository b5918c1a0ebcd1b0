/**
 * Everything fixed about one client population for a run, prepared once so the event
 * handlers only index arrays: its resolved retry layers (innermost last), per-layer
 * lookup tables of what is retried, the shared budgets and gates with their state, the
 * random streams, and its behaviours.
 */
import type { Engine } from '../../engine/engine.js';
import { stream, type Rng } from '../../engine/rng.js';
import type { Population, Behaviour, Fault } from '../../scenario/schema.js';
import { ArrivalProcess, surgesFor } from '../arrivals.js';
import type { LayerSpec, RetryOnItem } from './layer-spec.js';
import { resolveLayer } from './resolve-layer.js';
import { makeBudget, type RetryBudget } from './budgets.js';
import { CircuitBreaker, AdaptiveThrottle, RetryBreaker, type Gate } from './gates.js';
import { OUTCOME_COUNT, OUTCOME_TIMEOUT, OUTCOME_RESET, DEFAULT_CONTRACT, statusOf, retryableFlagOf, type ResponseContract } from '../outcomes.js';
import { MAX_LAYERS } from '../records.js';
import { offlineWindow, type OfflineWindow } from './offline.js';
import { prepareBackoff, type PreparedBackoff } from './backoff.js';
import { HedgeState } from './hedging.js';
import { leaveState, type LeaveState, type People } from './people.js';
import { sampler, type Sampler } from '../../engine/distributions.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';

export interface LayerState {
  spec: LayerSpec;
  /** retryOn[outcome]: does this layer retry that outcome (by its status), before the retryable flag? */
  retryOn: boolean[];
  /** retry[outcome]: retryOn, and the server's retryable flag allows it (or the layer ignores the flag). */
  retry: boolean[];
  budget?: RetryBudget;
  budgetScopeIsClient: boolean;
  gates: Gate[];
  gateScopeIsClient: boolean[];
  /** The backoff, prepared for the hot path (backoff.ts). */
  backoff: PreparedBackoff;
  /** A retry breaker (breaker mode: retries), also among the gates, which the layer asks before each retry. */
  retryGate?: RetryBreaker;
  retryGateScopeIsClient: boolean;
  /** FIFO lane for this layer's per-try timeouts (same delay each time, so they come due in order). */
  timeoutLane: number;
  /** Hedged requests (the innermost layer's option `hedge`), with their delay estimate and budget. */
  hedge?: HedgeState;
}

export interface PopulationState {
  name: string;
  spec: Population;
  clients: number;
  arrivals: ArrivalProcess;
  /** Outermost first; the last one sends attempts to the server. */
  layers: LayerState[];
  clientRng: Rng;
  backoffRng: Rng;
  behaviourRng: Rng;
  behaviour: Behaviour;
  /**
   * The remote config switch as the clients read it: behaviour.remoteSwitch (effective from
   * its `at`), or what an operator's remote-switch action set (effective from then).
   */
  remoteSwitch: RemoteSwitch | undefined;
  /** When the devices are offline (behaviour.offline resolved against the faults), if ever. */
  offline?: OfflineWindow;
  /** Offline devices: per-client count of queued actions, and the queued actions. */
  offlineQueued?: Int32Array;
  offlineActions: number[];
  /** A closed population (arrivals kind closed): how many users, and their think time. */
  closed?: { users: number; think: Sampler };
  /** People who leave the service after a failed action (behaviour.leave), and until when each is away. */
  leave?: LeaveState;
  /**
   * The people behind the clients, when some of them can leave: shared with the population
   * whose people these are (peopleOf) and with every population sharing them, so a person who
   * left through any of them starts nothing in any of them. Undefined when nobody here can leave.
   */
  people?: People;
}

export type RemoteSwitch = NonNullable<Behaviour['remoteSwitch']>;

export function matchesRetryOn(items: RetryOnItem[], outcome: number, w: ResponseContract = DEFAULT_CONTRACT): boolean {
  const status = statusOf(outcome, w);
  return items.some((it) =>
    it === 'timeout' ? outcome === OUTCOME_TIMEOUT
    : it === 'reset' ? outcome === OUTCOME_RESET
    : it === '5xx' ? status >= 500 && status < 600
    : it === '4xx' ? status >= 400 && status < 500
    : status === it,
  );
}

function layerState(engine: Engine, spec: LayerSpec, clients: number, rng: Rng, w: ResponseContract): LayerState {
  const retryOn: boolean[] = [false];
  const retry: boolean[] = [false];
  for (let o = 1; o < OUTCOME_COUNT; o++) {
    retryOn.push(matchesRetryOn(spec.retryOn, o, w));
    retry.push(retryOn[o] && (spec.retryable === 'ignore' || retryableFlagOf(o, w)));
  }
  const scopeKeys = (scope: string | undefined) => (scope === 'population' ? 1 : clients);
  const budgetSpec = spec.budget?.kind === 'sre-throttle' ? undefined : spec.budget;
  const gates: Gate[] = [];
  const gateScopeIsClient: boolean[] = [];
  // The throttle first: a breaker's half-open probe must not be spent on a try the throttle then refuses.
  if (spec.budget?.kind === 'sre-throttle') {
    gates.push(new AdaptiveThrottle(scopeKeys(spec.budget.scope), spec.budget.k, spec.budget.window, rng));
    gateScopeIsClient.push(spec.budget.scope !== 'population');
  }
  let retryGate: RetryBreaker | undefined;
  if (spec.breaker) {
    if (spec.breaker.mode === 'retries') gates.push((retryGate = new RetryBreaker(scopeKeys(spec.breaker.scope), spec.breaker)));
    else gates.push(new CircuitBreaker(scopeKeys(spec.breaker.scope), spec.breaker));
    gateScopeIsClient.push(spec.breaker.scope !== 'population');
  }
  return {
    spec,
    retryOn,
    retry,
    budget: budgetSpec ? makeBudget(budgetSpec, scopeKeys(budgetSpec.scope), { retryOn, status: w.status }) : undefined,
    budgetScopeIsClient: budgetSpec?.scope !== 'population',
    gates,
    gateScopeIsClient,
    backoff: prepareBackoff(spec.backoff),
    retryGate,
    retryGateScopeIsClient: spec.breaker?.scope !== 'population',
    // Layers without a deadline always wait their own timeout: such layers with equal timeouts
    // share a lane (Engine.laneFor). A deadline shortens some waits, so that layer keeps its own.
    timeoutLane: spec.deadline === Infinity ? engine.laneFor(spec.timeout) : engine.lane(),
    hedge: spec.hedge ? new HedgeState(spec.hedge) : undefined, // only the innermost layer's is used (semantics.ts says so)
  };
}

/** A population's retry layers as written: `layers`, or `retry` as one layer named app. */
function layerInputs(spec: Population) {
  return spec.layers ?? (spec.retry ? { app: spec.retry } : {});
}

/** How many layers a population's actions go through (at least one: no layer is a plain send-and-wait). */
export function layerCount(spec: Population): number {
  return Math.max(1, Object.keys(layerInputs(spec)).length);
}

export function populationState(engine: Engine, name: string, spec: Population, seed: number, w: ResponseContract, faults: readonly Fault[] = []): PopulationState {
  const resolved = Object.entries(layerInputs(spec)).map(([layerName, input]) => resolveLayer(layerName, input));
  if (resolved.length === 0) resolved.push(resolveLayer('direct', {})); // no layer: send once, wait
  if (resolved.length > MAX_LAYERS) throw new Error(`at most ${MAX_LAYERS} layers per population`);
  const gateRng = stream(seed, `clients/${name}/gates`);
  return {
    name,
    spec,
    clients: spec.clients,
    // A closed population has no open arrivals, and no surge reaches it (its users set its load).
    arrivals: new ArrivalProcess(spec.arrivals, stream(seed, `clients/${name}/arrivals`), spec.arrivals.kind === 'closed' ? [] : surgesFor(faults, name)),
    layers: resolved.map((l) => layerState(engine, l, spec.clients, gateRng, w)),
    clientRng: stream(seed, `clients/${name}/ids`),
    backoffRng: stream(seed, `clients/${name}/backoff`),
    behaviourRng: stream(seed, `clients/${name}/behaviour`),
    behaviour: spec.behaviour ?? {},
    remoteSwitch: spec.behaviour?.remoteSwitch,
    offline: offlineWindow(spec.behaviour?.offline, faults),
    offlineQueued: spec.behaviour?.offline ? new Int32Array(spec.clients) : undefined,
    offlineActions: [],
    leave: spec.behaviour?.leave ? leaveState(spec.behaviour.leave, name, seed) : undefined,
    closed: spec.arrivals.kind === 'closed' ? { users: spec.arrivals.users, think: sampler(toDistributionSpec(spec.arrivals.thinkTime), stream(seed, `clients/${name}/think`)) } : undefined,
  };
}
