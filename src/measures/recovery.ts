/**
 * Did the service come back, and how fast? After the faults ended, or while one still went
 * on (an operator's switch during an attack). The measures that answer the project's
 * question; the health rule and the per-second search they read live in the view
 * (RunView.recovery), so every measure and chart agrees on what "healthy" was.
 */
import { defineMeasure } from './measure.js';
import type { RunView } from './view.js';

/**
 * A run with triggers whose verdict has no users (a scenario of partners only): nobody's
 * recovery can be judged, and "not recovered" (what the search for a healthy stretch would
 * say, since no user action ends) would be false. Without triggers there is nothing to
 * recover from, as for any run.
 */
const nobodyToRecover = (v: RunView) => !v.hasMembers && v.lastTriggerEndS !== null;

export const recovered = defineMeasure({
  key: 'recovered',
  headline: true,
  label: 'recovered',
  doc: 'Whether the users were restored to a lasting healthy state after the first trigger (fault, surge or offline window) began: healthy (success ratio, and from the last trigger\'s end on the load, within their limits) for the hold before the run ended and, begun while a trigger was still on, without a break through its end and the hold after it or to the horizon: 1 or 0 per run; across seeds, the fraction that did; null when the run had triggers but the verdict has no users (a scenario of partners only: nobody\'s recovery to judge).',
  unit: 'share',
  better: 'higher',
  aggregate: 'fraction',
  scope: 'subject',
  range: { min: 0, max: 1 },
  // No tolerance: a seed that did not recover is never noise (not the shares' default point).
  tie: { absolute: 0 },
  compute: (v) => (nobodyToRecover(v) ? null : v.recovery.recovered ? 1 : 0),
});

export const recoveryTimeS = defineMeasure({
  key: 'recoveryTimeS',
  headline: true,
  label: 'recovery time',
  doc: 'Seconds from the end of the last trigger to the start of the lasting healthy stretch (see recovered; every window of the health width healthy), resolved to the second: 0 when the users were restored before the last trigger ended; when a trigger is still on at the end of the run, from the start of the triggers in force when the stretch began instead (how long users had been without service); null when the service did not recover (across seeds: unless every seed recovered), 0 without triggers or when never disrupted; null also when the run had triggers but the verdict has no users (partners only).',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'subject',
  range: { min: 0, max: 'horizon' },
  tie: { relative: 0.05, absolute: 10 },
  nullIsWorst: true,
  compute: (v) => (nobodyToRecover(v) ? null : v.recovery.recoveryTimeS),
});

export const recoveredAtS = defineMeasure({
  key: 'recoveredAtS',
  label: 'recovered at',
  doc: 'Time (s) from the start of the run at which the lasting healthy stretch began (see recovered): during a trigger for users restored while it went on, the first trigger\'s start for users never disrupted, 0 without triggers; null when the service did not recover (across seeds: unless every seed recovered).',
  unit: 'duration',
  better: 'none',
  aggregate: 'mean',
  scope: 'subject',
  range: { min: 0, max: 'horizon' },
  compute: (v) => v.recovery.healthyFromS,
});

export const healthyBeforeTrigger = defineMeasure({
  key: 'healthyBeforeTrigger',
  label: 'healthy before the fault',
  doc: 'Whether the service was healthy before the first trigger, over the pre-trigger window after the warm-up: each of the verdict\'s user and internal populations, on its own (not pooled), with a success ratio at or above the perceived-outage threshold, and the server below saturation; partners and attackers are never judged by it. A variant that was not is marked "unhealthy before the fault" and ranks below every healthy one: 1 or 0 per run; across seeds, the fraction that was.',
  unit: 'share',
  better: 'higher',
  aggregate: 'fraction',
  scope: 'subject',
  range: { min: 0, max: 1 },
  // No tolerance: one seed more or less is a real difference (not the shares' default point).
  tie: { absolute: 0 },
  compute: (v) => (v.healthyBeforeTrigger ? 1 : 0),
});
