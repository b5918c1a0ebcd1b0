/**
 * Defaults the simulation needs for a setting whose whole object may be absent. The schema
 * owns every other default (`.default` / `.prefault`, shown in docs/scenario-format.md);
 * CoDel is the exception: `discipline: adaptive-lifo` turns CoDel on without a `codel:`
 * block, so the frontend fills in the same values the schema gives a block that leaves them
 * out. Kept free of zod so the worker threads' import graph stays small.
 */

/** CoDel's M and N ("Fail at Scale", 2015): 5 ms queued while the queue stands, 100 ms otherwise. */
export const CODEL_DEFAULTS = { targetS: 0.005, intervalS: 0.1 } as const;
