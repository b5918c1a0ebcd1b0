/**
 * Server defaults that more than the schema reads. The schema owns defaults (`.default` /
 * `.prefault`, shown in docs/scenario-format.md); a value lives here when the simulation also
 * needs it where no parsed field carries it. Kept free of zod so the worker threads' import
 * graph stays small.
 */

/** The route a population or a service call uses when it names none. */
export const DEFAULT_ROUTE = 'default';

/**
 * What the server sees of clients that say nothing about themselves (clients.<name>.identity):
 * the schema's defaults, and the identity of a service call's caller inside the called service
 * (src/model/graph/graph.ts), which has no identity block of its own.
 */
export const IDENTITY_DEFAULTS = { route: DEFAULT_ROUTE, clientsPerIp: 1, idempotencyKeys: false, distinctBodies: 1000 } as const;

/**
 * CoDel's values: `discipline: adaptive-lifo` turns CoDel on without a `codel:` block, so the
 * frontend fills in the same values the schema gives a block that leaves them out: M and N
 * ("Fail at Scale", 2015), 5 ms queued while the queue stands, 100 ms otherwise.
 */
export const CODEL_DEFAULTS = { targetS: 0.005, intervalS: 0.1 } as const;
