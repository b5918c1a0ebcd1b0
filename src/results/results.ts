/**
 * The typed results of an experiment: one value that every writer renders (terminal table,
 * summary.md, report.html) and that summary.json serialises. Its shape is this zod schema, so
 * the type, the strict parser of `retrystorm report DIR` and the version check are one
 * declaration: summary.json is parsed back into exactly the value `run` rendered from, or
 * refused with the field that is wrong. Nothing downstream reads files tolerantly or guesses.
 *
 * Change the shape here and bump SUMMARY_FORMAT: an older or newer file is then refused with
 * a message saying which version it is and which this retrystorm reads.
 */
import { z } from 'zod';
import { searchResultsSchema } from './search.js';
import { ROLES } from '../scenario/schema-clients.js';

// 3: populations carry the roles partner and internal and a partner's contract; measures
// have the scope partners; the ranking weighs trade-offs (fronts, floors, weights, paired
// seeds) and measures say which are costs and which are context.
// 4: the ranking says its confidence and the pairs its seeds left undecided; `seeding` says
// how many seeds each cell of a `seeds: auto` experiment got, and why.
export const SUMMARY_FORMAT = 'retrystorm-summary/4';

const value = z.union([z.string(), z.number()]);
const values = z.record(z.string(), value);
const num = z.number();
const maybe = z.number().nullable();

export const aggregateSchema = z.strictObject({ value: maybe, lo: maybe, hi: maybe });
const aggregates = z.record(z.string(), aggregateSchema);

const scopeSchema = z.strictObject({ name: z.string(), measures: aggregates });

/** One service of a graph (issue 14): its tier measures (src/measures/tiers.ts) and who calls it. */
const tierSchema = z.strictObject({ name: z.string(), callers: z.array(z.string()), measures: aggregates });

export const faultWindowSchema = z.strictObject({
  kind: z.string(),
  startS: num,
  /** null: a fault that lasts past the horizon (JSON has no Infinity). */
  endS: maybe,
});

const quotaSchema = z.strictObject({
  name: z.string(),
  peakWindowUse: num,
  providerRefused: num,
  guardRefused: num,
  failedOver: num,
  alerts: z.array(z.strictObject({ threshold: num, firstS: maybe })),
});

const topKeySchema = z.strictObject({ key: z.string(), seen: num, refused: num });

/** A rate-limit stage of the edge (src/measures/top-consumers.ts): what it checked and refused, and its busiest keys. */
const rateLimitSchema = z.strictObject({
  stage: z.number().int(),
  key: z.enum(['ip', 'client', 'route', 'global']),
  store: z.enum(['local', 'shared']),
  checked: num,
  refused: num,
  topBySeen: z.array(topKeySchema),
  topByRefused: z.array(topKeySchema),
});

/** An operator action or an automation decision that took effect in one run (model/series.ts FiredAction). */
export const firedActionSchema = z.strictObject({
  name: z.string(),
  kind: z.string(),
  atS: num,
  trigger: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('at') }),
    z.strictObject({
      kind: z.literal('signal'),
      signal: z.string(),
      above: num.optional(),
      below: num.optional(),
      forS: num,
      everyS: num,
      afterS: num,
      heldAtS: num,
      value: num,
    }),
    z.strictObject({ kind: z.literal('autoscaler'), metric: z.string(), value: num, decidedAtS: num }),
  ]),
  note: z.string().optional(),
  instances: z.number().int().optional(),
});

export const pointSchema = z.strictObject({
  /** Sweep point index (0 without a sweep). */
  point: z.number().int(),
  /** The swept parameters' values as written ({} without a sweep). */
  values,
  runs: z.number().int(),
  measures: aggregates,
  attemptsHistogram: z.array(num),
  populations: z.array(scopeSchema),
  routes: z.array(scopeSchema),
  quotas: z.array(quotaSchema),
  /** Each service of a graph, the edge first; absent for a single server. */
  tiers: z.array(tierSchema).optional(),
  /** Each rate-limit stage of the edge, with its top consumers; absent without one. */
  rateLimits: z.array(rateLimitSchema).optional(),
  faults: z.array(faultWindowSchema),
  /** Each seed's measures, and the actions that took effect in its run, in time order. */
  perSeed: z.array(z.strictObject({ seed: z.number().int(), measures: z.record(z.string(), maybe), actions: z.array(firedActionSchema) })),
});

const variantSchema = z.strictObject({
  name: z.string(),
  description: z.string().nullable(),
  /** The variant's own horizon and bucket width, only where its overlay changes the scenario's (read them with clockOf). */
  horizonS: num.optional(),
  bucketS: num.optional(),
  /** The variant's own hold (measures.hold), only where its overlay changes the scenario's (read it with holdOf). */
  holdS: num.optional(),
  points: z.array(pointSchema),
});

export const measureInfoSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  doc: z.string(),
  unit: z.enum(['duration', 'share', 'count', 'multiple', 'rate', 'slot-seconds', 'bytes', 'number']),
  better: z.enum(['lower', 'higher', 'none']),
  aggregate: z.enum(['mean', 'share', 'fraction', 'max']),
  scope: z.enum(['users', 'subject', 'server', 'partners']),
  perPopulation: z.boolean(),
  headline: z.boolean(),
  cost: z.boolean(),
  inPopulationTable: z.boolean(),
});

export const columnInfoSchema = z.strictObject({
  name: z.string(),
  unit: z.enum(['seconds', 'count', 'level', 'ms', 'rate', 'share', 'multiple', 'slot-seconds']),
  doc: z.string(),
});

const expectationSchema = z.strictObject({
  name: z.string(),
  variant: z.string(),
  at: values,
  scope: z.strictObject({ population: z.string().optional(), route: z.string().optional(), tier: z.string().optional() }),
  measure: z.string(),
  kind: z.enum(['atMost', 'atLeast']),
  limit: num,
  value: maybe,
  passed: z.boolean(),
  check: z.string(),
  actual: z.string(),
});

const rankingEntrySchema = z.strictObject({
  rank: z.number().int(),
  variant: z.string(),
  runs: z.number().int(),
  healthyBefore: z.boolean(),
  decidedBy: z.string().nullable(),
  gate: z.enum(['healthyBeforeTrigger', 'floors', 'recovered']).nullable(),
  front: z.number().int(),
  dominatedBy: z.array(z.string()),
  versusFirst: z.strictObject({ worseOn: z.array(z.string()), betterOn: z.array(z.string()), betterWithinNoiseOn: z.array(z.string()) }),
  floorsBroken: z.array(z.strictObject({ population: z.string(), measure: z.string(), kind: z.enum(['atLeast', 'atMost']), limit: num, value: maybe, byDefault: z.boolean() })),
  values: z.record(z.string(), maybe),
  outageSavedS: maybe,
  outageSavedRatio: maybe,
  longestRecovered: value.nullable().optional(),
});

const rankingSchema = z.strictObject({
  baseline: z.string(),
  objectives: z.array(z.string()),
  weights: z.array(num),
  confidence: num,
  at: values.optional(),
  longestRecoveredParameter: z.string().optional(),
  points: z.array(z.strictObject({
    point: z.number().int(),
    values,
    pairedSeeds: z.number().int(),
    entries: z.array(rankingEntrySchema),
    undecided: z.array(z.strictObject({ above: z.string(), below: z.string(), on: z.array(z.string()) })),
  })),
  acrossPoints: z.strictObject({
    points: z.number().int(),
    variants: z.array(z.strictObject({ variant: z.string(), first: z.number().int(), ranked: z.number().int(), worstRegretS: maybe })),
  }).optional(),
});

/** How many seeds each cell of a `seeds: auto` experiment got, and why (src/experiment/adaptive-seeds.ts). */
const seedingSchema = z.strictObject({
  start: z.number().int(),
  max: z.number().int(),
  budget: z.number().int().nullable(),
  levels: z.array(z.number().int()),
  confidence: num,
  cells: z.array(z.strictObject({
    variant: z.string(),
    point: z.number().int(),
    seeds: z.number().int(),
    reason: z.enum(['decided', 'max', 'budget', 'gated', 'unranked', 'partial']),
    undecidedAgainst: z.array(z.string()),
  })),
});

/**
 * What a real incident showed beside what each variant simulated (the scenario's observed:
 * block; src/results/observed-fit.ts): each observed series on the run's clock, in the chart
 * unit of its simulated column (counts per second, ratios 0-1, ms, levels), and per variant,
 * point and series the fit. Optional without a format bump: a folder written before has no
 * observed block and reads as before, and a scenario with one could not be run by an older
 * retrystorm at all (its schema refuses the key).
 */
const observedResultsSchema = z.strictObject({
  /** NRMSE is the RMSE divided by the observed mean over the compared intervals (by their range when the mean is 0). */
  normalisation: z.literal('observed-mean'),
  series: z.array(z.strictObject({
    name: z.string(),
    column: z.string(),
    unit: z.string(),
    file: z.string(),
    stepS: num,
    /** Run time of the first value kept (the first whole interval inside the run). */
    startS: num,
    values: z.array(maybe),
  })),
  fits: z.array(z.strictObject({
    variant: z.string(),
    point: z.number().int(),
    name: z.string(),
    column: z.string(),
    /** Intervals compared (inside the run, a value on both sides), the most of any seed. */
    intervals: z.number().int(),
    /** Per seed, then averaged over seeds like a measure (mean, with its interval). */
    nrmse: aggregateSchema,
    /** For an observed success_ratio: when recovery began, observed (by the simulated rule) and simulated (recoveredAtS); differenceS = simulated − observed. */
    recovery: z.strictObject({ observedAtS: maybe, simulatedAtS: aggregateSchema, differenceS: maybe }).nullable(),
  })),
});

export const resultsSchema = z.strictObject({
  format: z.literal(SUMMARY_FORMAT),
  /** The retrystorm version that made the results. */
  tool: z.string(),
  scenario: z.string(),
  question: z.string().nullable(),
  description: z.string().nullable(),
  partial: z.boolean(),
  shard: z.strictObject({ index: z.number().int(), count: z.number().int() }).nullable(),
  runsPlanned: z.number().int(),
  runsFinished: z.number().int(),
  failedRuns: z.array(z.strictObject({ index: z.number().int(), variant: z.string(), point: z.number().int(), seed: z.number().int(), message: z.string() })),
  horizonS: num,
  bucketS: num,
  seeds: z.array(z.number().int()),
  /** With `seeds: auto`: the seeds of each variant at each point, and why; null for a fixed number. */
  seeding: seedingSchema.nullable(),
  sweep: z.strictObject({ parameters: z.array(z.string()), points: z.array(z.strictObject({ index: z.number().int(), values })) }).nullable(),
  measureSettings: z.record(z.string(), num),
  /** Whose users the verdict is about (user and internal populations), and every population with its route, role and, for a partner, its contract. */
  subject: z.array(z.string()),
  populations: z.array(z.strictObject({
    name: z.string(),
    route: z.string(),
    role: z.enum(ROLES),
    /** What a partner is entitled to (at most `limit` requests served in any `windowS` seconds); null for the other roles. */
    contract: z.strictObject({ limit: num, windowS: num }).nullable(),
  })),
  measures: z.array(measureInfoSchema),
  columns: z.strictObject({ run: z.array(columnInfoSchema), population: z.array(columnInfoSchema) }),
  expectations: z.array(expectationSchema),
  ranking: rankingSchema.nullable(),
  variants: z.array(variantSchema),
  /** Each variant's tipping point, when the scenario has a search: block (docs/search.md). */
  search: searchResultsSchema.optional(),
  /** The scenario's observed series and each variant's fit to them (docs/traces.md, "Comparing with what happened"). */
  observed: observedResultsSchema.optional(),
  /** Variants that ran exactly as the baseline in every run, seed for seed: their change never took effect (src/results/inert.ts). */
  inert: z.array(z.strictObject({ variant: z.string(), like: z.string(), runs: z.number().int() })).optional(),
});

export type Results = z.infer<typeof resultsSchema>;
export type VariantResult = Results['variants'][number];

/**
 * A variant's horizon and bucket width: its own where its overlay sets them (signup-flood's
 * manual-switch-4h runs 4h30m in 1m buckets beside the others' 1h in 10s), else the
 * scenario's. Every reader of a variant's time series or windows goes through here.
 */
export function clockOf(r: Pick<Results, 'horizonS' | 'bucketS'>, v: Pick<VariantResult, 'horizonS' | 'bucketS'> | undefined): { horizonS: number; bucketS: number } {
  return { horizonS: v?.horizonS ?? r.horizonS, bucketS: v?.bucketS ?? r.bucketS };
}

/** How long a variant's recovery had to last (its own hold, else the scenario's); undefined in results that do not say. */
export function holdOf(r: Pick<Results, 'measureSettings'>, v: Pick<VariantResult, 'holdS'> | undefined): number | undefined {
  return v?.holdS ?? r.measureSettings?.holdS;
}

/** The longest horizon of any variant: what a shared time axis spans. */
export function longestHorizon(r: Pick<Results, 'horizonS' | 'variants'>): number {
  return Math.max(r.horizonS, ...r.variants.map((v) => v.horizonS ?? 0));
}
export type PointResult = z.infer<typeof pointSchema>;
export type MeasureInfo = z.infer<typeof measureInfoSchema>;
export type ColumnInfoResult = z.infer<typeof columnInfoSchema>;
export type AggregateResult = z.infer<typeof aggregateSchema>;
export type ExpectationOutcome = Results['expectations'][number];
export type RankingResult = NonNullable<Results['ranking']>;
export type SeedingResult = NonNullable<Results['seeding']>;
export type RankingRow = RankingResult['points'][number]['entries'][number];
export type TierResult = z.infer<typeof tierSchema>;
export type FaultWindowResult = z.infer<typeof faultWindowSchema>;
