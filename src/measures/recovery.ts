/**
 * Did the service come back after the faults ended, and how fast? The measures that answer the
 * project's question; the health rule and the per-second search they read live in the view
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
  doc: 'Whether the service became healthy after the last trigger (fault, surge or offline window) and stayed healthy for the hold before the run ended: 1 or 0 per run; across seeds, the fraction that did; null when the run had triggers but the verdict has no users (a scenario of partners only: nobody\'s recovery to judge).',
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
  doc: 'Seconds from the end of the last trigger to the start of the first stretch, lasting the hold, in which every window of the health width was healthy (success ratio and load within their limits), resolved to the second; null when the service did not recover (across seeds: unless every seed recovered), or when the run had triggers but the verdict has no users (partners only); 0 without triggers.',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'subject',
  range: { min: 0, max: 'horizon' },
  tie: { relative: 0.05, absolute: 10 },
  nullIsWorst: true,
  compute: (v) => (nobodyToRecover(v) ? null : v.recovery.recoveryTimeS),
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
