/**
 * One run: a scenario (one variant of it), one seed, simulated to the horizon. The result
 * depends on nothing else, which is what makes runs reproducible byte for byte and safe
 * to spread over worker threads.
 */
import { Engine } from '../engine/engine.js';
import { RunBudgetExceeded } from '../engine/budget.js';
import type { Scenario } from '../scenario/schema.js';
import { Actions, Attempts, MAX_LAYERS } from './records.js';
import { layerCount } from './client/population.js';
import { populationRates } from '../scenario/arrival-profile.js';
import { Recorder, autoBucketS } from './recorder.js';
import { Frontend } from './server/frontend.js';
import { identities } from './server/request.js';
import { responseContract } from './outcomes.js';
import { Clients } from './client/clients.js';
import { faultWindows, scheduleFaults } from './faults.js';
import { Operator, capacityBounds } from './operator/operator.js';
import type { RunRecord, TierRecord } from './series.js';
import { EDGE, ServiceGraph } from './graph/graph.js';
import type { Recorder as TierRecorder } from './recorder.js';
import { latencyJudged, partnersOf, subjectOf } from '../scenario/subject.js';
import { plainShape } from './plain/plain-shape.js';
import { PlainWorld } from './plain/plain-world.js';

export interface SimulateOptions {
  /** Polled now and then; returning true stops the run early (the record then covers [0, now)). */
  shouldStop?: () => boolean;
  /** What the run may use before it stops with RunBudgetExceeded (defaults: DEFAULT_RUN_BUDGET). */
  budget?: Partial<RunBudget>;
  /**
   * Told the simulated time now and then (at the same moments as shouldStop, every 64k
   * events), so a long run can show how far it has got. It only observes: the run's result
   * does not depend on it.
   */
  onProgress?: (nowS: number) => void;
  /**
   * Run the scenario through the general model even when the plain world could run it
   * (src/model/plain/): for the test that checks both give the same record, and for the
   * benchmark's comparison of the two. The result is the same either way.
   */
  generalPath?: boolean;
}

export interface RunBudget {
  /** Bytes of simulation state (pending events, queues, records in flight) one run may hold. */
  memoryBytes: number;
  /**
   * Events one run may process without its clock moving (a zero-delay loop never reaches
   * the horizon). Infinity for none; undefined for the default, which scales with the run.
   */
  eventsAtOneInstant?: number;
}

/**
 * Generous for real models: the storm of the reference model holds about 100 MiB at its
 * peak. Events at one instant get their own default (eventsAtOneInstant below).
 */
export const DEFAULT_RUN_BUDGET: RunBudget = {
  memoryBytes: 4 * 1024 ** 3,
};

/**
 * A million, plus a hundred per user action the run expects. The largest legitimate burst
 * at one instant is a few events per action (every queued action of an offline population
 * flushed at once); a loop of retries with no backoff against failures answered at once
 * makes its tries one after another without the clock moving (three layers of 1,000 tries:
 * a billion per action), and is stopped after a second or so instead of never ending.
 */
export function eventsAtOneInstant(s: Scenario): number {
  const actions = [...populationRates(s.clients, s.horizon).values()].reduce((n, r) => n + r * s.horizon, 0);
  return 1_000_000 + 100 * Math.ceil(actions);
}

export function bucketWidth(s: Scenario): number {
  return s.measures.bucket ?? autoBucketS(s.horizon);
}

export function simulate(s: Scenario, seed: number, opts: SimulateOptions = {}): RunRecord {
  const horizon = s.horizon;
  const budget = { ...DEFAULT_RUN_BUDGET, ...opts.budget };
  const engine = new Engine({ memoryBytes: budget.memoryBytes, eventsAtOneInstant: budget.eventsAtOneInstant ?? eventsAtOneInstant(s) });
  const populations = Object.entries(s.clients);
  const layers = Math.min(MAX_LAYERS, Math.max(...populations.map(([, p]) => layerCount(p))));
  const actions = new Actions({ layers, meter: engine.memory });
  const attempts = new Attempts({ meter: engine.memory });
  const ids = identities(populations);
  const subject = subjectOf(s);
  const partners = partnersOf(s);
  const rec = new Recorder({
    horizonS: horizon,
    bucketS: bucketWidth(s),
    routeOfPopulation: ids.pops.map((p) => p.route),
    routes: ids.routes.length,
    dependencies: Object.keys(s.server.dependencies ?? {}).length,
    subject,
    latencySubject: latencyJudged(Object.values(s.clients).map((c) => c.role), subject),
  });
  // The errors of server-side error-rate faults answer the first one's status and flag (the loader makes them agree).
  const errors = s.faults.find((f) => f.kind === 'error-rate' && f.dependency === undefined);
  const contract = responseContract(s.server.overload, errors?.kind === 'error-rate' ? { status: errors.status, retryable: errors.retryable } : {});

  const { shouldStop, onProgress } = opts;
  const poll = onProgress
    ? () => {
        onProgress(engine.now);
        return shouldStop?.() ?? false;
      }
    : shouldStop;
  const runToHorizon = (): void => {
    let completed: boolean;
    try {
      completed = engine.run(horizon, poll);
    } catch (e) {
      if (e instanceof RunBudgetExceeded) throw new RunBudgetExceeded(`run stopped at t = ${formatSeconds(engine.now)} of ${formatSeconds(horizon)}: ${e.message}`);
      throw e;
    }
    if (!completed) throw new RunInterrupted(engine.now);
    rec.finish();
  };
  const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
  const record = (server: ServerTotals, clients: ClientTotals, fired: RunRecord['actions'], tiers: TierRecord[] | undefined): RunRecord => {
    const series = rec.series;
    return {
      horizonS: horizon,
      series,
      faults: faultWindows(s),
      attemptsPerAction: rec.attemptsPerAction,
      attemptsPerActionByPopulation: rec.attemptsPerActionByPopulation,
      routes: ids.routes,
      populations: populations.map(([name, p], i) => ({
        name,
        route: ids.pops[i].route,
        role: p.role,
        legitimate: p.role === 'user' || p.role === 'internal',
        subject: subject[i],
        partner: partners[i] && p.contract ? { limit: p.contract.limit, windowS: p.contract.window } : null,
      })),
      fine: rec.fine,
      quotas: server.dependencies.filter((d) => d.report().limit > 0).map((d) => d.report()),
      actions: fired,
      ...(tiers ? { tiers } : {}),
      totals: {
        actionsStarted: sum(series.actionsStarted),
        actionsOk: sum(series.actionsOk),
        actionsFailed: sum(series.actionsFailed),
        attempts: sum(series.attempts),
        served: server.served,
        queueWaitS: server.queueWaitS,
        workS: rec.busyIntegral + server.rejectionWorkS,
        wastedWorkS: server.wastedWorkS,
        capacityS: rec.slotsIntegral,
        eventsProcessed: engine.eventsProcessed,
        fingerprintPeakEntries: server.fingerprintPeakEntries,
        lostAttempts: server.lostAttempts,
      },
      actionTimes: populations.map((_, i) => ({ ended: clients.actionsEnded[i], timeS: clients.actionTimeS[i] })),
      latency: rec.latency,
    };
  };

  if (!opts.generalPath && plainShape(s) === true) {
    // The same model through fewer steps (src/model/plain/): the record is the same.
    const world = new PlainWorld(engine, actions, attempts, rec, s, populations, ids, seed, contract);
    world.start();
    runToHorizon();
    return record({ ...PLAIN_SERVER, served: world.served, queueWaitS: world.queueWaitS, wastedWorkS: world.wastedWorkS }, world, [], undefined);
  }

  const clients = new Clients(engine, actions, attempts, rec, populations, seed, contract, s.faults);
  // Services called by the server's routes (issue 14): none without `services:`, and then nothing below changes.
  const graph = s.services && Object.keys(s.services).length > 0 ? new ServiceGraph(engine, s, seed, bucketWidth(s), engine.memory) : undefined;
  const server = new Frontend(engine, attempts, actions, rec, s, ids, seed, clients.answer, contract, {
    ...capacityBounds(s),
    serviceCalls: graph ? (route) => graph.callsOf(EDGE, route) : undefined,
    deadlineOf: clients.sendsDeadlines ? clients.deadlineOf : undefined,
  });
  clients.send = server.arrive;
  scheduleFaults(engine, server, graph ? s.faults.filter((f) => !('service' in f) || f.service === undefined) : s.faults, seed);
  const operator = new Operator(engine, s, { server, clients, services: graph?.nodes }, rec);
  clients.start();
  operator.start();

  runToHorizon();
  for (const node of graph?.nodes ?? []) node.rec.finish();

  const tiers = graph
    ? [
        tierRecord(EDGE, [], rec, server),
        ...graph.nodes.map((n) => tierRecord(n.name, [...new Set(n.callers.map((e) => e.caller))], n.rec, n.frontend)),
      ]
    : undefined;
  const rateLimits = server.rateLimitReports(populations.map(([name]) => name));
  return { ...record(server, clients, operator.fired, tiers), ...(rateLimits.length ? { rateLimits } : {}) };
}

/** What the record reads of the server (the edge's frontend, or the plain world's instance). */
type ServerTotals = Pick<Frontend, 'served' | 'queueWaitS' | 'rejectionWorkS' | 'wastedWorkS' | 'fingerprintPeakEntries' | 'lostAttempts' | 'dependencies'>;
/** What the record reads of the clients. */
type ClientTotals = Pick<Clients, 'actionsEnded' | 'actionTimeS'>;
/** A plain world's server has no dependencies, stages, detection or crashes. */
const PLAIN_SERVER = { rejectionWorkS: 0, fingerprintPeakEntries: 0, lostAttempts: 0, dependencies: [] as Frontend['dependencies'] };

/** A run stopped before its horizon (Ctrl-C): its results are incomplete and not reported as a run. */
export class RunInterrupted extends Error {
  constructor(readonly atS: number) {
    super(`run interrupted at ${atS.toFixed(1)}s of simulated time`);
    this.name = 'RunInterrupted';
  }
}

/** Simulated seconds as people read them in an error: 754.2 s. */
function formatSeconds(t: number): string {
  return `${Number(t.toFixed(3))} s`;
}

/** What one service of a graph did over the run (its recorder is finished). */
function tierRecord(name: string, callers: string[], rec: TierRecorder, server: Frontend): TierRecord {
  const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
  const series = rec.series;
  return {
    name,
    callers,
    totals: {
      calls: sum(series.actionsStarted),
      callsOk: sum(series.actionsOk),
      callsFailed: sum(series.actionsFailed),
      attempts: sum(series.attempts),
      retries: sum(series.retries),
      attemptsOk: sum(series.attemptsOk),
      served: server.served,
      queueWaitS: server.queueWaitS,
      workS: rec.busyIntegral + server.rejectionWorkS,
      wastedWorkS: server.wastedWorkS,
      capacityS: rec.slotsIntegral,
    },
    attempts: series.attempts,
    queueLen: series.queueLen,
  };
}
