/**
 * How the users fared: success, goodput, what became of their actions (finished, failed,
 * abandoned, dead-lettered), what they sent (retries, futile retries) and the 4xx answers
 * they got. Users measures: each can be read for the verdict's users, a route or one
 * population (the per-population table shows those marked perPopulation).
 */
import { FAILURE_CAUSES, type FailureCause } from '../model/series.js';
import { defineMeasure, type MeasureDescriptor } from './measure.js';
import type { RunView } from './view.js';

const total = (xs: Float64Array) => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

export const successRatio = defineMeasure({
  key: 'successRatio',
  headline: true,
  label: 'success',
  doc: "Share of the users' ended actions that succeeded over the whole run; null when none ended.",
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  scope: 'users',
  perPopulation: true,
  range: { min: 0, max: 1 },
  tie: { absolute: 0.01 },
  compute: (v) => {
    const ok = total(v.users.actionsOk);
    const ended = ok + total(v.users.actionsFailed);
    return ended > 0 ? ok / ended : null;
  },
});

/**
 * Do new users get served while the returning wave arrives? Of the original requests (first
 * tries) sent in the `hold` after the last trigger ended, the share answered with success.
 * A reserve for originals is meant to hold this up while retries are refused.
 */
export const originalSuccessAfterFault = defineMeasure({
  key: 'originalSuccessAfterFault',
  headline: true,
  label: 'new users served',
  doc: 'Of the original requests (first tries) sent during the `hold` after the last trigger ended, the share answered with success: do new users get served while the returning wave arrives? null without triggers, or when none was sent then.',
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  scope: 'users',
  range: { min: 0, max: 1 },
  compute: (v) => {
    const lastEnd = v.lastTriggerEndS;
    if (lastEnd === null) return null;
    const to = lastEnd + v.settings.holdS;
    // The verdict's users are counted per second, so the window is the hold to the second. For
    // other views (a route), buckets cut by the window's ends count for the part inside it.
    // (Whole buckets starting in the window skipped what followed a fault ending mid-bucket,
    // when the backlog drains and originals time out: 0.82 where the hold's own seconds gave 0.57.)
    const f = v.record.fine;
    const sent = v.isSubject ? v.fineSum(f.firstTries, lastEnd, to) : v.bucketSum(v.users.firstTries, lastEnd, to);
    const ok = v.isSubject ? v.fineSum(f.firstTriesOk, lastEnd, to) : v.bucketSum(v.users.firstTriesOk, lastEnd, to);
    return sent > 0 ? ok / sent : null;
  },
});

export const goodputMean = defineMeasure({
  key: 'goodputMean',
  label: 'goodput',
  doc: "The users' actions completed successfully per second, averaged over the whole run.",
  unit: 'rate',
  better: 'higher',
  aggregate: 'mean',
  scope: 'users',
  compute: (v) => (v.horizonS > 0 ? total(v.users.actionsOk) / v.horizonS : 0),
});

/** A count of one of the users' per-bucket counters over the whole run. */
function count<const K extends string>(key: K, label: string, doc: string, pick: (v: RunView) => Float64Array, extra: Partial<MeasureDescriptor> = {}): MeasureDescriptor<K> {
  return defineMeasure<K>({ label, doc, unit: 'count', better: 'none', aggregate: 'mean', scope: 'users', perPopulation: true, compute: (v) => total(pick(v)), ...extra, key });
}

export const actionsStarted = count('actionsStarted', 'actions started', 'User actions that arrived during the run.', (v) => v.users.actionsStarted);
export const actionsOk = count('actionsOk', 'actions succeeded', 'User actions that completed successfully.', (v) => v.users.actionsOk);
export const actionsFailed = count('actionsFailed', 'actions failed', 'User actions that ended in failure (out of attempts, or their user gave up).', (v) => v.users.actionsFailed);
export const actionsAbandoned = count(
  'actionsAbandoned',
  'gave up',
  'User actions their user abandoned (gave up waiting, or after too many failures); they are counted among the failed too.',
  (v) => v.users.actionsAbandoned,
  { better: 'lower', headline: true },
);
export const deadLettered = count(
  'deadLettered',
  'dead letters',
  'Calls that exhausted a dead-lettering layer (a queue moved the message to its dead-letter queue).',
  (v) => v.users.deadLettered,
  { better: 'lower', headline: true },
);

export const peopleLeft = count(
  'peopleLeft',
  'people left',
  'People who left the service after a failed action (behaviour.leave), each departure counted: the people failure drove away for a while or for good.',
  (v) => v.users.peopleLeft,
  { better: 'lower' },
);
export const actionsStayedAway = count(
  'actionsStayedAway',
  'actions not made',
  'Actions people would have started but did not, because they had left the service after a failure and were not back yet (behaviour.leave): the demand the outage drove off.',
  (v) => v.users.actionsStayedAway,
  { better: 'lower' },
);

export const journeysStarted = count(
  'journeysStarted',
  'journeys started',
  'Journeys started (a journey is a chain of steps, arrivals kind after), counted on the population that starts them.',
  (v) => v.users.journeysStarted,
);

export const journeyCompletion = defineMeasure({
  key: 'journeyCompletion',
  label: 'journeys completed',
  doc: 'Of the journeys that ended (every step succeeded, or one failed), the share that completed: the person got through signup, login and every session refresh. Journeys still under way at the end of the run are not counted. null without journeys.',
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  scope: 'users',
  perPopulation: true,
  range: { min: 0, max: 1 },
  tie: { absolute: 0.01 },
  compute: (v) => {
    const done = total(v.users.journeysCompleted);
    const ended = done + total(v.users.journeysFailed);
    return ended > 0 ? done / ended : null;
  },
});

export const journeyTimeMean = defineMeasure({
  key: 'journeyTimeMean',
  label: 'journey time',
  doc: 'Mean time from a journey\'s first step starting to its last step succeeding, over the journeys that completed (delays between steps included). null when none completed.',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'users',
  perPopulation: true,
  compute: (v) => {
    const done = total(v.users.journeysCompleted);
    return done > 0 ? total(v.users.journeyTimeS) / done : null;
  },
});

/** Attempts answered with the status of one failure cause: the 4xx classes users meet. */
function answered<const S extends number>(status: S, cause: FailureCause, what: string): MeasureDescriptor<`answered${S}`> {
  const c = FAILURE_CAUSES.indexOf(cause);
  return count(`answered${status}`, `${status} answers`, `Attempts answered ${status} (${what}).`, (v) => v.users.failures[c]);
}

export const answered400 = answered(400, 'invalid', 'an invalid request, which no retry can fix');
export const answered426 = answered(426, 'unsupported-version', 'Upgrade Required: a client version below the server\'s minimum');
export const answered429 = answered(429, 'rate-limited', 'Too Many Requests: a rate limit refused it');

export const retryShare = defineMeasure({
  key: 'retryShare',
  cost: true,
  label: 'retry share',
  doc: "Share of the users' attempts that were retries over the whole run (ground truth, which the server cannot see); 0 when they sent none.",
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'users',
  perPopulation: true,
  range: { min: 0, max: 1 },
  compute: (v) => {
    const attempts = total(v.users.attempts);
    return attempts > 0 ? total(v.users.retries) / attempts : 0;
  },
});

export const futileRetryShare = defineMeasure({
  key: 'futileRetryShare',
  cost: true,
  label: 'futile retries',
  doc: "Retries of requests that can never succeed (validation loops) as a share of the users' attempts over the whole run; 0 when they sent none.",
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'users',
  range: { min: 0, max: 1 },
  compute: (v) => {
    const attempts = total(v.users.attempts);
    return attempts > 0 ? total(v.users.futileRetries) / attempts : 0;
  },
});
