/**
 * The shape of what one simulation run records, shared by the model (which fills it as
 * events happen) and by the measures (which read it afterwards). It lives on its own so
 * that neither side depends on the other's internals.
 *
 * Memory grows with the number of buckets, never with the number of events: every
 * quantity is aggregated into its time bucket as it happens.
 */
import type { Role } from '../scenario/schema-clients.js';
import type { LatencyHistogram } from './latency-histogram.js';
import type { RateLimitReport } from './server/rate-limit-report.js';

/**
 * Why a try failed, as the client saw it. Index into `BucketSeries.failures`; the outcome
 * code of a failure is 1 + its index here (0 = ok). See model/outcomes.ts for what each
 * means on the wire (status code, retryable flag).
 */
// New causes go at the end: a cause's index is its outcome code, and appending keeps the
// existing codes and the order of the CSV's fail_* columns.
export const FAILURE_CAUSES = ['timeout', 'dependency', 'queue-full', 'shed', 'server-deadline', 'rate-limited', 'invalid', 'reset', 'refused-locally', 'unsupported-version', 'blocked', 'disabled', 'error', 'execution-deadline', 'challenged'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

/**
 * What one population's users did and saw, per bucket. The recorder counts into these (one
 * increment per event, as before), and the run's totals in BucketSeries are their sums, so
 * outcomes can be read for any set of populations: the verdict's legitimate users, a route,
 * one population.
 */
export interface PopulationSeries {
  /** Attempts sent, first tries and retries among them, and retries that can never succeed. */
  attempts: Float64Array;
  firstTries: Float64Array;
  retries: Float64Array;
  futileRetries: Float64Array;
  /** Attempts answered with success (when answered), and first tries that succeeded (in the bucket they were sent). */
  attemptsOk: Float64Array;
  firstTriesOk: Float64Array;
  /** Failed attempts by cause (index = FAILURE_CAUSES index), when the client saw the failure. */
  failures: Float64Array[];
  actionsStarted: Float64Array;
  actionsOk: Float64Array;
  actionsFailed: Float64Array;
  actionsAbandoned: Float64Array;
  deadLettered: Float64Array;
  /** People who left the service after a failed action (behaviour.leave), and the actions they did not start while away. */
  peopleLeft: Float64Array;
  actionsStayedAway: Float64Array;
  /**
   * Journeys (steps chained by arrivals kind after), counted on the population that starts
   * them: started; ended complete (the last step succeeded its last time) or failed (a step
   * failed), when they ended; and the summed start-to-end time of the completed ones (s).
   */
  journeysStarted: Float64Array;
  journeysCompleted: Float64Array;
  journeysFailed: Float64Array;
  journeyTimeS: Float64Array;
}

/** The population-level counters, in the order PopulationSeries and BucketSeries both hold them. */
export const POPULATION_COUNTERS = [
  'attempts', 'firstTries', 'retries', 'futileRetries', 'attemptsOk', 'firstTriesOk',
  'actionsStarted', 'actionsOk', 'actionsFailed', 'actionsAbandoned', 'deadLettered', 'peopleLeft', 'actionsStayedAway',
  'journeysStarted', 'journeysCompleted', 'journeysFailed', 'journeyTimeS',
] as const;

/** Per-bucket series of one run. Every array has length `n`; bucket i covers [i*bucketS, (i+1)*bucketS). */
export interface BucketSeries {
  /** Bucket width in seconds. */
  bucketS: number;
  /** Number of buckets (ceil(horizon / bucketS)). */
  n: number;
  /** Attempts that reached (or tried to reach) the server, counted when sent. */
  attempts: Float64Array;
  /** Attempts that were the first try of their user action (ground truth). */
  firstTries: Float64Array;
  /** Attempts that were retries (ground truth): attempts - firstTries. */
  retries: Float64Array;
  /** Requests the server's retry detection marked as retries, and how many of those were first tries. */
  detectedRetries: Float64Array;
  detectionFalsePositives: Float64Array;
  /** Retries of requests that can never succeed (the server always rejects them as invalid): validation loops. */
  futileRetries: Float64Array;
  /** Attempts answered with success, counted when the client received the answer. */
  attemptsOk: Float64Array;
  /**
   * First tries (original requests) answered with success, counted in the bucket in which
   * they were sent, so that firstTriesOk[i] / firstTries[i] is exactly the share of the
   * originals sent in bucket i that succeeded.
   */
  firstTriesOk: Float64Array;
  /** Failed attempts by cause (index = FAILURE_CAUSES index), counted when the client saw the failure. */
  failures: Float64Array[];
  /** User actions started (arrivals). */
  actionsStarted: Float64Array;
  /** User actions that completed successfully, counted when they completed. */
  actionsOk: Float64Array;
  /** User actions that ended in failure (out of attempts, or gave up), counted when they ended. */
  actionsFailed: Float64Array;
  /** User actions abandoned by their user (gave up waiting, or after too many failures). */
  actionsAbandoned: Float64Array;
  /** Calls that exhausted a dead-lettering layer (a queue's dead-letter queue). */
  deadLettered: Float64Array;
  /** People who left the service after a failed action (behaviour.leave). */
  peopleLeft: Float64Array;
  /** Arrivals that fell on a person who was away, so no action started: the demand that failure drove off. */
  actionsStayedAway: Float64Array;
  /** Journeys started, completed, failed, and the summed time of the completed ones (s): see PopulationSeries. */
  journeysStarted: Float64Array;
  journeysCompleted: Float64Array;
  journeysFailed: Float64Array;
  journeyTimeS: Float64Array;
  /** Time-averaged number of attempts waiting in the server's queue. */
  queueLen: Float64Array;
  /** Time-averaged number of busy server slots. */
  busySlots: Float64Array;
  /** Time-averaged number of server slots available (drops during a capacity cut). */
  slots: Float64Array;
  /** Median and 99th percentile of client-observed response latency (s) of attempts answered in the bucket; NaN when none. */
  latencyP50S: Float64Array;
  latencyP99S: Float64Array;
  /**
   * Median and 99th percentile of the verdict's users' action latency (s: from the action's
   * start to its final outcome, success or failure) of the actions that ended in the bucket; NaN when none.
   */
  actionLatencyP50S: Float64Array;
  actionLatencyP99S: Float64Array;
  /** User actions that succeeded / failed, per route (index into RunRecord.routes): sums of the route's populations. */
  routeActionsOk: Float64Array[];
  routeActionsFailed: Float64Array[];
  /** Calls to each dependency the provider accepted / refused (quota exhausted, down), per bucket. */
  dependencyCalls: Float64Array[];
  dependencyRefused: Float64Array[];
  /** Slot-seconds of work finished in the bucket. */
  workS: Float64Array;
  /** Slot-seconds of work finished in the bucket for attempts whose client had already stopped waiting. */
  wastedWorkS: Float64Array;
  /** Attempts lost when an instance crashed or was restarted: in service or queued at that moment. */
  lostAttempts: Float64Array;
  /** The same counters per population (index into RunRecord.populations); the totals above are their sums. */
  populations: PopulationSeries[];
}

/**
 * The verdict's users at a finer grain than the buckets, so recovery time is resolved to the
 * second whatever bucket width the charts use: per cell of `cellS` seconds, the subject's
 * user actions that succeeded and that ended, and every attempt sent (load is the server's,
 * whoever sends it). Cells cover [0, horizon); a run holds at most MAX_FINE_CELLS of them.
 */
export interface FineSeries {
  cellS: number;
  n: number;
  actionsOk: Float64Array;
  actionsEnded: Float64Array;
  attempts: Float64Array;
  /** The verdict's users' first tries, by the cell they were sent in, and those answered with success (new users served). */
  firstTries: Float64Array;
  firstTriesOk: Float64Array;
}

/** About 28 hours at one second: beyond that the cells widen, and memory stays bounded. */
export const MAX_FINE_CELLS = 100_000;

/** The width of the fine cells for a horizon: 1 s, or wider so that at most MAX_FINE_CELLS cover it. */
export function fineCellS(horizonS: number): number {
  return Math.max(1, Math.ceil(horizonS / MAX_FINE_CELLS));
}

/** What a partner is entitled to: at most `limit` requests served in any span of `windowS` seconds. */
export interface PartnerContract {
  limit: number;
  windowS: number;
}

/**
 * One population's latencies over the whole run, as mergeable sketches (latency-histogram.ts).
 * - actions: each user action that ended by the horizon (succeeded, failed or abandoned),
 *   from its start to its final outcome: backoff waits, queueing, every retry and a
 *   refresh by hand included. Its start is when the user acted (its first attempt, or when
 *   it was queued on an offline device or held by a breaker before one could be sent).
 * - attempts: each attempt answered while its client still waited, from send to answer.
 *   Attempts the client stopped waiting for (timeouts) and hedges cancelled by a winner are
 *   not in it: they have no answer.
 */
export interface PopulationLatency {
  actions: LatencyHistogram;
  attempts: LatencyHistogram;
}

/** Who a population is, as the measures need to know. */
export interface PopulationInfo {
  name: string;
  /** Route index (into RunRecord.routes). */
  route: number;
  /** What the traffic is for (scenario `role`): user, partner, internal or attacker. */
  role: Role;
  /**
   * True for users and internal traffic, whose refusals are the service failing. False for
   * traffic the service is right to refuse, in part (a partner above its quota) or whole
   * (bots, scrapers, attackers): their refusals are not an outage.
   */
  legitimate: boolean;
  /** True when the verdict is about this population's users (user or internal, and named by `compare.for` if it narrows). */
  subject: boolean;
  /** The contract of a partner the verdict judges (role partner, named by `compare.for` if it narrows); null otherwise. */
  partner: PartnerContract | null;
}

/** A window during which a fault is active, in seconds from the start of the run. */
export interface FaultWindow {
  kind: string;
  startS: number;
  endS: number;
}

/** What set an action off: a fixed time, or a condition on a signal that held. */
export type ActionTrigger =
  | { kind: 'at' }
  | {
      kind: 'signal';
      signal: string;
      /** The threshold: the condition was signal > above, or signal < below. */
      above?: number;
      below?: number;
      /** How long it had to hold, the check interval, and the delay to act (s). */
      forS: number;
      everyS: number;
      afterS: number;
      /** When the condition had held for forS (s): the action took effect afterS later. */
      heldAtS: number;
      /** The signal's value at that check. */
      value: number;
    }
  | {
      kind: 'autoscaler';
      metric: string;
      /** The metric's value when the decision was taken, and when it was (s). */
      value: number;
      decidedAtS: number;
    };

/** An operator action (or an automation's decision) that took effect during the run. */
export interface FiredAction {
  name: string;
  /** The effect's kind: block, disable-route, add-stage, scale, undo… */
  kind: string;
  /** When the effect took place (s from the start of the run). */
  atS: number;
  trigger: ActionTrigger;
  /** Present when the effect changed nothing, saying why (an undo of an action that had not happened). */
  note?: string;
  /** For scale decisions: the instances behind the balancer after it. */
  instances?: number;
}

/** Everything one run produced, before any measure is computed. */
/**
 * One service of a graph (issue 14), as a run saw it: the calls it got (its "actions": for
 * the edge, the users' actions), the attempts that reached it, and its own server's work.
 * Only scenarios with `services:` have tiers; the edge comes first.
 */
export interface TierRecord {
  name: string;
  /** The services whose routes call it (empty for the edge, which users call). */
  callers: string[];
  totals: {
    /** Calls made to it (edge: user actions started), and how they ended. */
    calls: number;
    callsOk: number;
    callsFailed: number;
    attempts: number;
    retries: number;
    attemptsOk: number;
    served: number;
    queueWaitS: number;
    workS: number;
    wastedWorkS: number;
    capacityS: number;
  };
  /** Attempts that reached it per bucket (the run's buckets). */
  attempts: Float64Array;
  /** Mean queue length per bucket. */
  queueLen: Float64Array;
}

export interface RunRecord {
  horizonS: number;
  series: BucketSeries;
  faults: FaultWindow[];
  /**
   * attemptsPerAction[k] = number of finished user actions (succeeded or failed) that took
   * exactly k attempts, over every population. Actions still in flight at the horizon are not counted.
   */
  attemptsPerAction: number[];
  /** The same histogram per population (index into `populations`). */
  attemptsPerActionByPopulation: number[][];
  /** Route names, by route index. */
  routes: string[];
  /** The populations, in scenario order. */
  populations: PopulationInfo[];
  /** The subject's outcomes per second, for recovery time. */
  fine: FineSeries;
  /** Quota use of each dependency that has a quota. */
  quotas: QuotaReport[];
  /** Operator actions and automation decisions that took effect, in time order. */
  actions: FiredAction[];
  /** The services of a graph, edge first (absent without `services:`). */
  tiers?: TierRecord[];
  /** Whole-run totals used by queueing checks (M/M/c) and the summary. */
  totals: {
    actionsStarted: number;
    actionsOk: number;
    actionsFailed: number;
    attempts: number;
    /** Attempts that started service (got a slot). */
    served: number;
    /** Sum over served attempts of the time spent waiting in the queue (s). */
    queueWaitS: number;
    /** Slot-seconds of work done (finished services, plus the elapsed part of services in progress at the horizon). */
    workS: number;
    wastedWorkS: number;
    /** Integral over time of available slots (slot-seconds of capacity). */
    capacityS: number;
    eventsProcessed: number;
    /** Peak number of fingerprints the server's retry detection held (0 without detection). */
    fingerprintPeakEntries: number;
    /** Attempts lost to crashes and restarts. */
    lostAttempts: number;
  };
  /**
   * Per population (index into populations): the user actions that ended by the horizon
   * (succeeded, failed or abandoned), and the sum of their durations from start to end (s).
   * timeS / ended is the population's mean response time: the R of the interactive response
   * time law a closed population follows, and what fair queueing protects.
   */
  actionTimes: Array<{ ended: number; timeS: number }>;
  /** Per population (index into populations): the latency sketches of its actions and attempts. */
  latency: PopulationLatency[];
  /** What each of the edge's rate-limit stages saw: its shared store's queue, its top consumers (absent without one). */
  rateLimits?: RateLimitReport[];
}

/** What a dependency's quota went through in one run (filled by model/server/dependencies.ts). */
export interface QuotaReport {
  name: string;
  limit: number;
  windowS: number;
  /** Highest share of the quota used in any window. */
  peakWindowUse: number;
  /** Calls the provider refused (429) and calls our guard refused before it. */
  providerRefused: number;
  guardRefused: number;
  /** Calls answered by local validation instead of the provider. */
  failedOver: number;
  alerts: Array<{ threshold: number; firstS: number | null }>;
}
