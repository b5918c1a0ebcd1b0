/**
 * How many seeds an experiment runs per variant and sweep point: a fixed number, or `auto`,
 * where each cell starts with a few seeds and only the cells whose place in the ranking the
 * seeds have not yet decided get more (src/experiment/adaptive-seeds.ts). The guards on an
 * experiment's size (limits, memory held) read the most an `auto` experiment may run.
 */
export interface AutoSeeds {
  /** Seeds every cell runs first. */
  start: number;
  /** The most seeds a cell can get. */
  max: number;
  /** The most runs the experiment may do in all; none: cells x max. */
  budget?: number;
}

/** The scenario's `seeds` once read: a fixed count, or the adaptive plan ("auto": its defaults). */
export type SeedCount = number | 'auto' | { auto: AutoSeeds };

/** `seeds: auto`: two seeds to start, at most eight per cell (looks at 2, 4 and 8 seeds). */
export const AUTO_SEEDS_DEFAULT: Readonly<AutoSeeds> = Object.freeze({ start: 2, max: 8 });

/** The adaptive plan, or null for a fixed count. */
export const autoSeeds = (seeds: SeedCount): AutoSeeds | null => (typeof seeds === 'number' ? null : seeds === 'auto' ? AUTO_SEEDS_DEFAULT : seeds.auto);

/** Seeds every cell runs first: the fixed count, or `auto`'s start. */
export const startSeeds = (seeds: SeedCount): number => autoSeeds(seeds)?.start ?? (seeds as number);

/** The most seeds a cell can run: for the guards on the experiment's size. */
export const mostSeeds = (seeds: SeedCount): number => autoSeeds(seeds)?.max ?? (seeds as number);
