/**
 * A synthetic cliff whose probability of recovering is known by construction: a logistic
 * curve falling through 1/2 at `centre`, drawn as a Bernoulli per (repetition, value, seed)
 * from a hash, so a trial costs microseconds and the truth is exact. (sha256 rather than a
 * seeded generator's first draw: alea's first outputs for seeds that differ in one character
 * are nearly evenly spaced, which made neighbouring seeds agree far more often than chance.)
 */
import { createHash } from 'node:crypto';
import type { RunBatch, Trial } from '../../../src/experiment/search/design.js';

export function uniform(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/** Probability of recovering at x: 1/2 at centre, falling over a width of about 4 x scale. */
export function logistic(x: number, centre: number, scale: number): number {
  return 1 / (1 + Math.exp((x - centre) / scale));
}

/** The value at which the curve is at `level`. */
export function trueCrossing(centre: number, scale: number, level: number): number {
  return centre + scale * Math.log(1 / level - 1);
}

export function syntheticCliff(rep: number, centre: number, scale: number, log?: Trial[][]): RunBatch {
  return async (trials) => {
    log?.push([...trials]);
    return trials.map((t) => uniform(`${rep}/${t.value}/${t.seedIndex}`) < logistic(t.value, centre, scale));
  };
}
