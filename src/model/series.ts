/**
 * The shape of what one simulation run records, shared by the model (which fills it as
 * events happen) and by the measures (which read it afterwards). It lives on its own so
 * that neither side depends on the other's internals.
 *
 * Memory grows with the number of buckets, never with the number of events: every
 * quantity is aggregated into its time bucket as it happens.
 */
import type { QuotaReport } from './server/dependencies.js';

/**
 * Why a try failed, as the client saw it. Index into `BucketSeries.failures`; the outcome
 * code of a failure is 1 + its index here (0 = ok). See model/outcomes.ts for what each
 * means on the wire (status code, retryable flag).
 */
// New causes go at the end: a cause's index is its outcome code, and appending keeps the
// existing codes and the order of the CSV's fail_* columns.
export const FAILURE_CAUSES = ['timeout', 'dependency', 'queue-full', 'shed', 'server-deadline', 'rate-limited', 'invalid', 'reset', 'refused-locally', 'unsupported-version', 'blocked', 'disabled', 'error', 'execution-deadline'] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

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
  /** Time-averaged number of attempts waiting in the server's queue. */
  queueLen: Float64Array;
  /** Time-averaged number of busy server slots. */
  busySlots: Float64Array;
  /** Time-averaged number of server slots available (drops during a capacity cut). */
  slots: Float64Array;
  /** Median and 99th percentile of client-observed response latency (s) of attempts answered in the bucket; NaN when none. */
  latencyP50S: Float64Array;
  latencyP99S: Float64Array;
  /** User actions that succeeded / failed, per route (index into RunRecord.routes). */
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
export interface RunRecord {
  horizonS: number;
  series: BucketSeries;
  faults: FaultWindow[];
  /**
   * attemptsPerAction[k] = number of finished user actions (succeeded or failed) that took
   * exactly k attempts. Actions still in flight at the horizon are not counted.
   */
  attemptsPerAction: number[];
  /** Route names, by route index. */
  routes: string[];
  /** Quota use of each dependency that has a quota. */
  quotas: QuotaReport[];
  /** Operator actions and automation decisions that took effect, in time order. */
  actions: FiredAction[];
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
}
