/**
 * The reference every other measure is read against: the 1x rate, how the service behaved
 * before the first trigger, and when the last trigger ended. Context, not a verdict: no
 * direction is better.
 */
import { defineMeasure, finiteOrNull } from './measure.js';

export const baselineRate = defineMeasure({
  key: 'baselineRate',
  label: 'baseline (1x)',
  doc: 'The 1x user-action rate (actions/s, every population): declared in the scenario, or measured as actions started per second in the pre-trigger window (after warm-up, before the first trigger).',
  unit: 'rate',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => finiteOrNull(v.baseline.rate) ?? 0,
});

export const preFaultSuccessRatio = defineMeasure({
  key: 'preFaultSuccessRatio',
  label: 'success before the fault',
  doc: "The users' success ratio in the pre-trigger window, pooled over its buckets; null when none of their actions ended there. Per population, the ranking's default floor reads it: a variant under which a legitimate population succeeds more than 3 points less here than under the baseline is flagged.",
  unit: 'share',
  better: 'none',
  aggregate: 'share',
  scope: 'users',
  perPopulation: true,
  inPopulationTable: false,
  range: { min: 0, max: 1 },
  compute: (v) => finiteOrNull(v.baseline.successRatio),
});

export const preFaultLoadMultiple = defineMeasure({
  key: 'preFaultLoadMultiple',
  label: 'load before the fault',
  doc: 'Attempts reaching the server per second in the pre-trigger window divided by the baseline rate (above 1 when clients already retry in good times); null when the baseline is 0.',
  unit: 'multiple',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => finiteOrNull(v.baseline.loadMultiple),
});

export const lastTriggerEndS = defineMeasure({
  key: 'lastTriggerEndS',
  label: 'last trigger ended',
  doc: 'Time (s) at which the last trigger (fault, surge or offline window) ended; null when the run had none.',
  unit: 'duration',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  range: { min: 0, max: 'horizon' },
  compute: (v) => v.lastTriggerEndS,
});

export const healthWindowS = defineMeasure({
  key: 'healthWindowS',
  label: 'health window',
  doc: 'Width (s) of the windows recovery judges health over: measures.healthWindow when set; else the bucket width, widened (to a round duration, at most the hold) until a window holds (5 / loadExcess)² attempts at the pre-fault load, so that Poisson noise stays inside the load allowance.',
  unit: 'duration',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => v.healthWindowS,
});
