/**
 * Hand-made aggregates for tests of what reads them (the ranking, the verdict): one point of
 * a variant whose measures are the given means across its seeds, with no intervals and
 * nothing else recorded.
 */
import type { PointAggregate, VariantAggregate } from '../../src/experiment/aggregate.js';

/** A measure's mean across seeds, by key (null: no value). */
export type Means = Record<string, number | null>;

/** Which point of the sweep, its swept values, and how many seeds ran. */
export interface PointInfo {
  point?: number;
  values?: Record<string, string | number>;
  runs?: number;
}

export function aggregatePoint(means: Means, { point = 0, values = {}, runs = 4 }: PointInfo = {}): PointAggregate {
  return {
    point, values, runs,
    measures: Object.fromEntries(Object.entries(means).map(([k, x]) => [k, { value: x, lo: null, hi: null }])),
    attemptsHistogram: [], populations: [], routes: [], quotas: [], perSeed: [], faults: [],
  };
}

export const variant = (name: string, ...points: PointAggregate[]): VariantAggregate => ({ name, points });
