/**
 * What a measure is: one declaration of its key, its one-sentence definition, its unit, which
 * direction is better, how it folds across seeds, the range its values can take, and how it
 * is computed over one run's view. Everything downstream (summaries, aggregation and
 * intervals, expectations, the ranking, every writer, docs/measures.md) reads these fields
 * and never re-declares them.
 */
import type { RunView } from './view.js';

/** How a value reads: the writers format each unit one way, everywhere. */
export type Unit =
  /** seconds */
  | 'duration'
  /** a ratio in [0, 1], shown as a percentage */
  | 'share'
  /** a number of things (per run) */
  | 'count'
  /** a multiple of the 1x baseline ("10.2x") */
  | 'multiple'
  /** per second */
  | 'rate'
  /** slot-seconds of server work */
  | 'slot-seconds'
  | 'bytes'
  /** a plain number (attempts per action) */
  | 'number';

/** Which way is better for users: the ranking and the `diff` read it; `none` for context. */
export type Better = 'lower' | 'higher' | 'none';

/**
 * How one run's values fold across seeds.
 * - mean: the mean, with a Student t interval clamped to the measure's range; null when any seed is null.
 * - share: the mean of per-seed shares, with a proportion interval (Wilson at the seeds' effective size).
 * - fraction: each run says yes (1) or no (0); the fraction of seeds, with a Wilson interval.
 * - max: the largest value over the seeds; no interval.
 */
export type Aggregation = 'mean' | 'share' | 'fraction' | 'max';

/**
 * Whose numbers they are.
 * - users: computed over a set of users (the verdict's, a route's, a population's).
 * - subject: needs the verdict's users (recovery is resolved from their per-second series).
 * - server: the server's, whoever sent the traffic (load, work, detection).
 * - partners: the partners the verdict judges, each against its contract (src/measures/partner.ts).
 */
export type Scope = 'users' | 'subject' | 'server' | 'partners';

export interface MeasureDescriptor<K extends string = string> {
  /** The name in summary.json, expectations and `compare.objectives`. */
  key: K;
  /** A short column header. */
  label: string;
  /** One sentence: what it is, how it is counted, what null means. */
  doc: string;
  unit: Unit;
  better: Better;
  aggregate: Aggregation;
  scope: Scope;
  /** Shown in the per-population outcomes (users measures only). */
  perPopulation?: boolean;
  /**
   * Whether a perPopulation measure has a column in the per-population tables (report,
   * summary.md); default true. False keeps it per population in summary.json, for floors and
   * expectations, without a column: a reference such as pre-fault success, or latency's p95
   * and mean beside the p50 and p99 the tables show (fourteen columns fit a 1280 px window).
   */
  inPopulationTable?: boolean;
  /**
   * What a policy costs the system (load, work, attempts) rather than what its users feel.
   * The ranking weighs the two apart: by default the costs together never outweigh one thing
   * users feel (src/experiment/ranking.ts).
   */
  cost?: boolean;
  /** A column of the comparison (terminal table, summary.md, report.html); counts only where some variant has one. */
  headline?: boolean;
  /** Smallest and largest value a run can give ('horizon': the run's length); intervals never leave it. Default [0, ∞). */
  range?: { min?: number; max?: number | 'horizon' };
  /**
   * The tie tolerance, read by the ranking and by `diff` (through tieTolerance): two values no
   * further apart than the larger of `absolute` (in the measure's unit) and `relative` x the
   * larger value are a tie on this measure. Default: the unit's (DEFAULT_TIE). `{ absolute: 0 }`
   * is no tolerance: equal as summary.json writes them.
   */
  tie?: Tie;
  /**
   * Null means the worst outcome (recovery time: the service never came back), not "no
   * data": `diff` then calls more seeds without a value a change for the worse.
   */
  nullIsWorst?: boolean;
  /** The value for one run; null where the doc says so (never NaN or Infinity). */
  compute(view: RunView): number | null;
}

/** A tie tolerance: the larger of `absolute` (in the measure's unit) and `relative` x the larger of the two values. */
export interface Tie { relative?: number; absolute?: number }

/**
 * The tie tolerance of a measure that declares none, by its unit: durations within 1 s or 5%,
 * shares within one percentage point, everything else (multiples, counts, rates, plain
 * numbers, slot-seconds, bytes) within 5%. Without it a measure would have no tolerance at
 * all, and `diff` would flag a 2 ms queue wait that moved by a tenth of a millisecond.
 */
export const DEFAULT_TIE: Readonly<Record<Unit, Readonly<Required<Tie>>>> = Object.freeze({
  duration: { relative: 0.05, absolute: 1 },
  share: { relative: 0, absolute: 0.01 },
  count: { relative: 0.05, absolute: 0 },
  multiple: { relative: 0.05, absolute: 0 },
  rate: { relative: 0.05, absolute: 0 },
  'slot-seconds': { relative: 0.05, absolute: 0 },
  bytes: { relative: 0.05, absolute: 0 },
  number: { relative: 0.05, absolute: 0 },
});

/**
 * The one place a measure's tie tolerance is read (the ranking's ties, `diff`'s "beyond seed
 * noise"): its own `tie`, else its unit's default. A measure that declares only one part of
 * `tie` has no other part (recovery time's `{ relative: 0.05, absolute: 10 }` is both).
 */
export function tieTolerance(m: { unit: Unit; tie?: Tie }): Required<Tie> {
  if (m.tie === undefined) return DEFAULT_TIE[m.unit] ?? { relative: 0, absolute: 0 };
  return { relative: m.tie.relative ?? 0, absolute: m.tie.absolute ?? 0 };
}

/** How far apart two values of the measure may be and still tie: the larger of the absolute and relative tolerance. */
export function tieLimit(m: { unit: Unit; tie?: Tie }, a: number, b: number): number {
  const { relative, absolute } = tieTolerance(m);
  return Math.max(absolute, relative * Math.max(Math.abs(a), Math.abs(b)));
}

/** A measure, checked for the mistakes a new one is likely to make (a doc with no sentence, a range upside down). */
export function defineMeasure<const K extends string>(d: MeasureDescriptor<K>): MeasureDescriptor<K> {
  if (!/^[a-z][A-Za-z0-9]*$/.test(d.key)) throw new Error(`measure key "${d.key}" must be camelCase`);
  if (!d.doc.trim().endsWith('.')) throw new Error(`measure ${d.key}: its doc is a sentence ending with a full stop`);
  if (d.perPopulation && d.scope !== 'users') throw new Error(`measure ${d.key}: only users measures can be shown per population`);
  const { min = 0, max = Infinity } = d.range ?? {};
  if (typeof max === 'number' && max < min) throw new Error(`measure ${d.key}: range max below min`);
  if (d.tie && [d.tie.relative, d.tie.absolute].some((x) => x !== undefined && !(x >= 0))) throw new Error(`measure ${d.key}: a tie tolerance is a number at or above 0`);
  return Object.freeze(d);
}

/** JSON has no NaN or Infinity: such a value becomes null. */
export function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
