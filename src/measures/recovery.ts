/**
 * Did the service come back after the faults ended, and how fast? The measures that answer the
 * project's question; the health rule and the per-second search they read live in the view
 * (RunView.recovery), so every measure and chart agrees on what "healthy" was.
 */
import { defineMeasure } from './measure.js';

export const recovered = defineMeasure({
  key: 'recovered',
  headline: true,
  label: 'recovered',
  doc: 'Whether the service became healthy after the last trigger (fault, surge or offline window) and stayed healthy for the hold before the run ended: 1 or 0 per run; across seeds, the fraction that did.',
  unit: 'share',
  better: 'higher',
  aggregate: 'fraction',
  scope: 'subject',
  range: { min: 0, max: 1 },
  // No tolerance: a seed that did not recover is never noise (not the shares' default point).
  tie: { absolute: 0 },
  compute: (v) => (v.recovery.recovered ? 1 : 0),
});

export const recoveryTimeS = defineMeasure({
  key: 'recoveryTimeS',
  headline: true,
  label: 'recovery time',
  doc: 'Seconds from the end of the last trigger to the start of the first stretch, lasting the hold, in which every window of the health width was healthy (success ratio and load within their limits), resolved to the second; null when the service did not recover (across seeds: unless every seed recovered), 0 without triggers.',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'subject',
  range: { min: 0, max: 'horizon' },
  tie: { relative: 0.05, absolute: 10 },
  nullIsWorst: true,
  compute: (v) => v.recovery.recoveryTimeS,
});

export const healthyBeforeTrigger = defineMeasure({
  key: 'healthyBeforeTrigger',
  label: 'healthy before the fault',
  doc: 'Whether the service was healthy before the first trigger, over the pre-trigger window after the warm-up: the users\' success ratio at or above the perceived-outage threshold and the server below saturation. A variant that was not is marked "unhealthy before the fault" and ranks below every healthy one: 1 or 0 per run; across seeds, the fraction that was.',
  unit: 'share',
  better: 'higher',
  aggregate: 'fraction',
  scope: 'subject',
  range: { min: 0, max: 1 },
  // No tolerance: one seed more or less is a real difference (not the shares' default point).
  tie: { absolute: 0 },
  compute: (v) => (v.healthyBeforeTrigger ? 1 : 0),
});
