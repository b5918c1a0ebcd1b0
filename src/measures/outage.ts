/**
 * What users lived through: how long the service looked down to them, and how often it came
 * back only to fall again. Both read the view's perceived states, so they agree on "down".
 */
import { defineMeasure } from './measure.js';
import { DOWN, IDLE, UP } from './view.js';

export const perceivedOutageS = defineMeasure({
  key: 'perceivedOutageS',
  headline: true,
  label: 'perceived outage',
  doc: "Seconds during which users' success ratio was below the perceived-outage threshold, counting buckets where users started actions but none ended.",
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'users',
  perPopulation: true,
  range: { min: 0, max: 'horizon' },
  tie: { relative: 0.05, absolute: 10 },
  compute: (v) => {
    const states = v.perceived;
    const w = v.widths;
    let total = 0;
    for (let i = 0; i < states.length; i++) if (states[i] === DOWN) total += w[i];
    return total;
  },
});

/**
 * Re-collapses: after the last trigger ended, users saw the service up for at least
 * `relapseUp` and then down again. 0 for a service that came back and stayed, and also for
 * one that never came back at all (it never rose to fall again). Requiring a sustained
 * up-stretch keeps one lucky bucket inside a storm from counting; idle buckets are neutral.
 */
export const relapses = defineMeasure({
  key: 'relapses',
  headline: true,
  label: 'relapses',
  doc: 'Re-collapses: times, after the last trigger ended, that users saw the service up (success ratio at or above the perceived-outage threshold) for at least `relapseUp` and then down again. 0 both for a service that came back and stayed and for one that never came back.',
  unit: 'count',
  better: 'lower',
  aggregate: 'mean',
  scope: 'users',
  compute: (v) => {
    const lastEnd = v.lastTriggerEndS;
    if (lastEnd === null) return 0;
    const states = v.perceived;
    const w = v.widths;
    let count = 0;
    let upS = 0; // time seen up since the service last looked down
    for (let i = 0; i < states.length; i++) {
      if (i * v.bucketS < lastEnd || states[i] === IDLE) continue;
      if (states[i] === UP) {
        upS += w[i];
        continue;
      }
      if (upS >= v.settings.relapseUpS) count++;
      upS = 0;
    }
    return count;
  },
});
