/**
 * What the server spent: work done for callers who had already left (the trap of a deep
 * queue in a storm), how busy it was, how long served attempts queued. Server measures.
 */
import { defineMeasure } from './measure.js';

export const wastedWorkS = defineMeasure({
  key: 'wastedWorkS',
  cost: true,
  label: 'wasted work',
  doc: 'Server slot-seconds spent on attempts whose caller had already stopped waiting.',
  unit: 'slot-seconds',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => v.record.totals.wastedWorkS,
});

export const wastedWorkShare = defineMeasure({
  key: 'wastedWorkShare',
  cost: true,
  headline: true,
  label: 'wasted work share',
  doc: 'Wasted work as a share of all server work done; 0 when no work was done. Work still in service when the run ends is in the total but not yet judged wasted or useful, so the share reads low by at most that work\'s share (slots × service time at the end against all the run\'s work: nothing to speak of for sub-second service over hours, a fifth for minute-long jobs over a few minutes).',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  tie: { absolute: 0.01 },
  compute: (v) => {
    const { wastedWorkS, workS } = v.record.totals;
    return workS > 0 ? wastedWorkS / workS : 0;
  },
});

export const utilisation = defineMeasure({
  key: 'utilisation',
  label: 'utilisation',
  doc: 'Slot-seconds of work done divided by slot-seconds of capacity available (refusals with a rejection cost are work that holds no slot, so it can exceed 1).',
  unit: 'share',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => {
    const { workS, capacityS } = v.record.totals;
    return capacityS > 0 ? workS / capacityS : 0;
  },
});

export const meanQueueWaitS = defineMeasure({
  key: 'meanQueueWaitS',
  label: 'queue wait',
  doc: "Mean time (s) a served attempt waited in the server's queue before getting a slot; 0 when none was served.",
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  range: { min: 0, max: 'horizon' },
  // Queue waits are milliseconds to seconds: 10 ms or 5%, not the durations' default second.
  tie: { relative: 0.05, absolute: 0.01 },
  compute: (v) => {
    const { served, queueWaitS } = v.record.totals;
    return served > 0 ? queueWaitS / served : 0;
  },
});

export const attempts = defineMeasure({
  key: 'attempts',
  label: 'attempts',
  doc: 'Attempts that reached, or tried to reach, the server (first tries plus retries, every population).',
  unit: 'count',
  better: 'none',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => v.record.totals.attempts,
});
