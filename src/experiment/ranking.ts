/**
 * The ranking of the variants: which policy an engineer should pick, best first, what it
 * saves against a baseline, and how each place was decided.
 *
 * Per ranked point (the scenario's `compare.at`, default every point, each on its own), the
 * variants fall into four gates, each below the one before, whatever the objectives say:
 * 1. healthy before the first trigger, every floor met, and recovered in every seed;
 * 2. the same, but not recovered in every seed (only when `recovered` is an objective);
 * 3. below a floor (`compare.floors`, or by default a legitimate population that succeeds
 *    more than 3 points less before the first trigger than under the baseline): a policy that
 *    sacrifices a small population never ranks first silently;
 * 4. unhealthy before the first trigger (a service already failing cannot "recover in 0 s"
 *    its way to the top).
 * Inside a gate the objectives (`compare.objectives`; default DEFAULT_OBJECTIVES, the users'
 * outcomes then the costs) are weighed as trade-offs, not in a lexicographic order: every
 * pair of variants is compared on every objective seed by seed (src/experiment/paired.ts:
 * beyond the measure's tie tolerance and beyond seed noise), the variants are cut into Pareto
 * fronts (a variant worse or equal on every objective than another, and worse on one, is in a
 * later front: it never ranks above it), and each front is ordered by a weighed vote between
 * its members (src/experiment/pareto.ts). The default weights make the costs together never
 * outweigh one objective users feel (DEFAULT_COST_WEIGHT, outcomeWeight); `compare.weights`
 * sets them. Variants that no objective sets apart share a rank ("1, 2, 2, 4") and keep the
 * scenario's order. A variant without runs at a point (an interrupted experiment) is left
 * out of that point.
 *
 * With one swept parameter whose values are durations (an outage length), each variant also
 * gets how far it recovers, as a threshold: the longest swept value such that every seed
 * recovered at it and at every shorter swept value (null when not even the shortest). Recovery
 * need not be monotone in the outage's length (a seed can fail at 6m and recover at 30m);
 * "recovers up to 30m" beside "not recovered at 12m" would contradict itself.
 */
import type { CompareSpec } from '../scenario/schema.js';
import { parseDuration } from '../scenario/units.js';
import { FAULT_LENGTH, sameValue } from '../scenario/sweep.js';
import type { MeasureDescriptor } from '../measures/measure.js';
import type { MeasureRegistry } from '../measures/registry.js';
import type { PointAggregate, VariantAggregate } from './aggregate.js';
import type { ResolvedFloor } from './expectations.js';
import { floorsBroken, type FloorBreach } from './floors.js';
import { acrossPoints, type AcrossPoints, type RankedEntries } from './across-points.js';
import { PAIRED_CONFIDENCE, commonSeeds, judge, type Side } from './paired.js';
export { tied } from './paired.js';
import { dominates, orderByTradeOffs } from './pareto.js';
import { PARTNER_OBJECTIVES } from '../measures/partner.js';

type Value = string | number;

/**
 * The default objectives: what users feel first (recovered, how soon, how long they were
 * without service, whether new users were served when the fault ended, and how long their
 * actions took when the registry measures it), then what the policy costs. A key the
 * registry does not hold is skipped.
 */
export const DEFAULT_OBJECTIVES = ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'originalSuccessAfterFault', 'actionLatencyP99S', 'peakLoadMultiple', 'excessAttempts', 'wastedWorkShare', 'attemptsPerAction'] as const;

/** Measures every ranking entry carries besides its objectives, for the writers' columns. */
export const RANKING_CONTEXT = [...DEFAULT_OBJECTIVES, 'successRatio', 'retryWaves', 'relapses', 'retryShareAtPeak'] as const;

/** The default weight of a cost objective (a measure declared `cost`). */
export const DEFAULT_COST_WEIGHT = 1;

/** Why a variant sits in a lower gate than the variant above it: see the header. */
export type Gate = 'healthyBeforeTrigger' | 'floors' | 'recovered';

export interface RankingEntry {
  /** 1 is best; tied variants share a rank. */
  rank: number;
  variant: string;
  runs: number;
  /** False when any seed was unhealthy before the first trigger: the variant ranks below every healthy one. */
  healthyBefore: boolean;
  /**
   * What put this variant below the one above it: a gate ('healthyBeforeTrigger', 'floors',
   * 'recovered': that one passed it, this one not), else the first objective (in the
   * objectives' order) on which the one above is better beyond seed noise; null for the first
   * and for a tie, and when the one above is better on nothing (placed by the vote against the others).
   */
  decidedBy: string | null;
  /** The gate it fell below (see the header), null when it passed them all: the top group. */
  gate: Gate | null;
  /** The Pareto front inside the variant's gate: 1 when no variant of its gate is better or equal on every objective and better on one. */
  front: number;
  /** The variants of its gate that dominate it (better or equal on every objective, better on one), in rank order. */
  dominatedBy: string[];
  /**
   * Against the pick, the first-ranked variant at the point that had a fault (when any did;
   * a control without one is no pick): the objectives on which this one is worse and better,
   * beyond tolerance and seed noise, in the objectives' order. Both empty for the pick itself
   * and for a tie with it; both non-empty is a trade-off, which the verdict states.
   */
  versusFirst: {
    worseOn: string[];
    betterOn: string[];
    /** Better than the first on average beyond the tie tolerance, but not beyond seed noise (a tie for the ranking). */
    betterWithinNoiseOn: string[];
  };
  /** The floors it is below at this point (empty when it meets them all). */
  floorsBroken: FloorBreach[];
  /** Means across seeds (recovered: the fraction of seeds) of the objectives and RANKING_CONTEXT. */
  values: Record<string, number | null>;
  /** The baseline's perceived outage minus this one's (s): positive when this variant saves users time. */
  outageSavedS: number | null;
  /** outageSavedS as a share of the baseline's perceived outage; null when the baseline's is 0. */
  outageSavedRatio: number | null;
  /**
   * The longest swept value (as written) such that every seed recovered at it and at every
   * shorter swept value: a threshold ("recovers up to"); null when not even the shortest.
   * Only with one duration-valued parameter.
   */
  longestRecovered?: Value | null;
}

export interface RankedPoint {
  /** Sweep point index (0 without a sweep). */
  point: number;
  values: Record<string, Value>;
  /**
   * The fewest seeds two of the point's variants ran in common: the pairs compared seed by
   * seed. Below 2 nothing is judged against seed noise, only against the tie tolerances.
   */
  pairedSeeds: number;
  entries: RankingEntry[];
  /**
   * The pairs of one gate whose order the seeds have not decided: on each objective of `on`,
   * their means differ beyond the tie tolerance, but the paired seeds cannot tell the
   * difference from noise (a tie for the ranking, which more seeds could break). `above`
   * is the one ranked higher. This is where `seeds: auto` adds seeds.
   */
  undecided: UndecidedPair[];
}

export interface UndecidedPair {
  above: string;
  below: string;
  on: string[];
}

export interface Ranking {
  baseline: string;
  /** The objectives, in order. */
  objectives: string[];
  /** Each objective's weight in the vote between variants that trade objectives (same order). */
  weights: number[];
  /**
   * The confidence of the paired comparisons: 0.95, or higher when the seeds were added look
   * by look (`seeds: auto`), so that a false difference stays at 5% over every look.
   */
  confidence: number;
  /** compare.at as written; absent when every point is ranked. */
  at?: Record<string, Value>;
  /** The swept duration that `longestRecovered` refers to; absent without one. */
  longestRecoveredParameter?: string;
  points: RankedPoint[];
  /** With two ranked points or more: how each variant fares across them, best first (see acrossPoints). */
  acrossPoints?: AcrossPoints;
}

export type { FloorBreach } from './floors.js';
export { DEFAULT_FLOOR_DROP } from './floors.js';
export type { AcrossPoints } from './across-points.js';

export interface RankingOptions {
  compare?: CompareSpec;
  /** Swept parameter paths, in the scenario's order (empty without a sweep). */
  parameters: readonly string[];
  /** compare.floors, resolved against the registry (src/experiment/expectations.ts). */
  floors?: readonly ResolvedFloor[];
  /** The populations whose success the default floor protects (legitimate users); none: no default floor. */
  protectedPopulations?: readonly string[];
  /** Who the verdict judges (default: users, no partners): picks the default objectives. */
  judged?: Judged;
  /** The confidence of the paired comparisons (default PAIRED_CONFIDENCE). */
  confidence?: number;
}


const healthyAt = (p: PointAggregate) => (p.measures.healthyBeforeTrigger?.value ?? 1) >= 1;

/** Who the verdict judges, as the default objectives need to know: users (or internal traffic), partners held to a contract. */
export interface Judged {
  users: boolean;
  partners: boolean;
}

/**
 * The objectives as measures, checked by the caller (see resolveMeasureReferences): the
 * scenario's, else the defaults for who is judged. Users' outcomes when there are users;
 * with partners, whether each was served up to its contract and held to it
 * (PARTNER_OBJECTIVES), before the costs.
 */
export function objectivesOf(compare: CompareSpec | undefined, registry: MeasureRegistry, judged: Judged = { users: true, partners: false }, populations: readonly string[] = []): MeasureDescriptor[] {
  if (compare?.objectives) return compare.objectives.map((k) => registry.get(k)).filter((m): m is MeasureDescriptor => m !== undefined);
  const keys: string[] = [...DEFAULT_OBJECTIVES];
  const latency = keys.filter((k) => LATENCY_OBJECTIVES.includes(k));
  const outcomes = keys.filter((k) => !registry.get(k)?.cost && !latency.includes(k));
  const costs = keys.filter((k) => registry.get(k)?.cost);
  const found = (ks: readonly string[]) => ks.map((k) => registry.get(k)).filter((m): m is MeasureDescriptor => m !== undefined);
  return [
    ...(judged.users ? [...found(outcomes), ...populationSuccess(registry, populations), ...found(latency)] : []),
    ...(judged.partners ? found(PARTNER_OBJECTIVES) : []),
    ...found(costs),
  ];
}

/** The default objectives on how long users waited: after every objective on whether they were served. */
const LATENCY_OBJECTIVES: readonly string[] = ['actionLatencyP99S'];

/** The separator of a per-population objective's key: "successRatio@signups". */
export const POPULATION_OBJECTIVE = '@';

/**
 * With two protected populations or more, each one's success is an objective of its own
 * ("successRatio@signups"): pooled, a population that is 2% of the actions cannot move the
 * users' success, and a policy that fails it would look as good as one that serves it. Read
 * from the point's per-population means (per-seed population values are not kept, so these
 * are compared by their means beyond the tolerance, not against seed noise).
 */
function populationSuccess(registry: MeasureRegistry, populations: readonly string[]): MeasureDescriptor[] {
  const success = registry.get('successRatio');
  if (!success || populations.length < 2) return [];
  return populations.map((name) => ({ ...success, key: `${success.key}${POPULATION_OBJECTIVE}${name}`, label: `${name} ${success.label}`, headline: false }));
}

/** The point with its per-population objectives readable as measures (key "measure@population"). */
function withPopulationObjectives(p: PointAggregate, objectives: readonly MeasureDescriptor[]): PointAggregate {
  const extra = objectives.filter((m) => m.key.includes(POPULATION_OBJECTIVE));
  if (extra.length === 0) return p;
  const measures = { ...p.measures };
  for (const m of extra) {
    const [key, name] = m.key.split(POPULATION_OBJECTIVE);
    measures[m.key] = p.populations.find((x) => x.name === name)?.measures[key] ?? { value: null, lo: null, hi: null };
  }
  return { ...p, measures };
}

/**
 * Each objective's weight in the vote between variants that trade objectives:
 * - compare.weights where it names one (the others by kind, as below);
 * - objectives the scenario lists without weights: by their order, each weighing more than
 *   all later ones together (2^(n-1-k)): "most important first" then means what it says;
 * - the default objectives: a cost weighs DEFAULT_COST_WEIGHT and an objective users feel
 *   weighs the costs' total plus one, so that being better on every cost never outweighs
 *   being worse on one thing users feel.
 */
export function weightsOf(objectives: readonly MeasureDescriptor[], compare: CompareSpec | undefined): number[] {
  if (compare?.objectives && !compare.weights) return objectives.map((_, k) => 2 ** (objectives.length - 1 - k));
  const set = compare?.weights ?? {};
  const costs = objectives.filter((m) => m.cost).reduce((sum, m) => sum + (set[m.key] ?? DEFAULT_COST_WEIGHT), 0);
  return objectives.map((m) => set[m.key] ?? (m.cost ? DEFAULT_COST_WEIGHT : costs + 1));
}

/** The ranking, or null when there is no variant to rank. */
export function rankVariants(variants: readonly VariantAggregate[], registry: MeasureRegistry, opts: RankingOptions): Ranking | null {
  if (variants.length === 0) return null;
  const objectives = objectivesOf(opts.compare, registry, opts.judged, opts.protectedPopulations);
  const weights = weightsOf(objectives, opts.compare);
  const baseline = opts.compare?.baseline ?? variants[0].name;
  const at = opts.compare?.at;
  const picked = (p: PointAggregate) => !at || Object.entries(at).every(([k, v]) => Object.hasOwn(p.values, k) && sameValue(p.values[k], v));
  const longest = longestRecovered(variants, opts.parameters);
  const gateOnRecovery = objectives.some((m) => m.key === 'recovered');
  const confidence = opts.confidence ?? PAIRED_CONFIDENCE;

  const shown = [...new Set([...objectives.map((m) => m.key), ...RANKING_CONTEXT.filter((k) => registry.get(k) !== undefined)])];
  const indices = [...new Set(variants.flatMap((v) => v.points.map((p) => p.point)))].sort((a, b) => a - b);
  const points: RankedPoint[] = [];
  const ranked: RankedEntries[] = [];
  for (const index of indices) {
    const here = variants.flatMap((v) => {
      const p = v.points.find((x) => x.point === index);
      return p && p.runs > 0 && picked(p) ? [{ name: v.name, p: withPopulationObjectives(p, objectives) }] : [];
    });
    if (here.length === 0) continue;
    const base = here.find((x) => x.name === baseline)?.p;
    const outage = (p: PointAggregate) => p.measures.perceivedOutageS?.value ?? null;
    const baseOutage = base ? outage(base) : null;
    const breaches = here.map(({ p }) => floorsBroken(p, base, opts));
    const triggered = here.map(({ p }) => (p.measures.lastTriggerEndS?.value ?? null) !== null);
    // The gate of each variant (0 best): see the header.
    const gates = here.map(({ p }, i) => {
      if (!healthyAt(p)) return 3;
      if (breaches[i].length > 0) return 2;
      return gateOnRecovery && (p.measures.recovered?.value ?? 0) < 1 ? 1 : 0;
    });
    const GATE_NAMES: Array<Gate | null> = [null, 'recovered', 'floors', 'healthyBeforeTrigger'];
    // Every pair on every objective, judged once: sides[i][j][k] ('a': i better) mirrors
    // sides[j][i][k]; leanings the same, for a tie whose means lean one way within seed noise.
    const sides: Side[][][] = here.map(() => here.map(() => [] as Side[]));
    const leanings: Side[][][] = here.map(() => here.map(() => [] as Side[]));
    const flip = (x: Side): Side => (x === null ? null : x === 'a' ? 'b' : 'a');
    for (let i = 0; i < here.length; i++) {
      for (let j = i + 1; j < here.length; j++) {
        for (const m of objectives) {
          const { side, leaning } = judge(m, here[i].p, here[j].p, confidence);
          sides[i][j].push(side);
          sides[j][i].push(flip(side));
          leanings[i][j].push(leaning);
          leanings[j][i].push(flip(leaning));
        }
      }
    }
    const order: number[] = [];
    const front = new Map<number, number>();
    for (let g = 0; g <= 3; g++) {
      const members = here.map((_, i) => i).filter((i) => gates[i] === g);
      if (members.length === 0) continue;
      const ordered = orderByTradeOffs(sides, weights, members);
      order.push(...ordered.order);
      for (const [i, f] of ordered.front) front.set(i, f);
    }
    const keysWhere = (i: number, j: number, side: Side, of: Side[][][] = sides) => objectives.filter((_, k) => of[i][j][k] === side).map((m) => m.key);
    // A rank is shared by a run of variants of one gate that no objective sets apart, each
    // from every other in the run (ties are not transitive: 100, 109 and 118 s of recovery
    // against 10 s of tolerance are not one rank).
    let rank = 0, group: number[] = [];
    const tiedWith = (i: number, j: number) => gates[i] === gates[j] && sides[i][j].every((s) => s === null);
    const entries = order.map((i, position): RankingEntry => {
      const { name, p } = here[i];
      const above = position > 0 ? order[position - 1] : null;
      let decidedBy: string | null = null;
      if (above !== null && gates[above] !== gates[i]) decidedBy = GATE_NAMES[gates[i]];
      else if (above !== null) decidedBy = keysWhere(above, i, 'a')[0] ?? null;
      // The pick: the first-ranked variant that had a fault, when any did (a control
      // without one "recovers" in 0 s by definition: src/report/verdict.ts leaves it out too).
      const first = order.find((j) => triggered[j]) ?? order[0];
      if (above !== null && group.every((j) => tiedWith(j, i))) group.push(i);
      else {
        rank = position + 1;
        group = [i];
      }
      const own = outage(p);
      const saved = baseOutage !== null && own !== null ? baseOutage - own : null;
      return {
        rank,
        variant: name,
        runs: p.runs,
        healthyBefore: healthyAt(p),
        gate: GATE_NAMES[gates[i]],
        decidedBy,
        front: front.get(i) ?? 1,
        dominatedBy: order.filter((j) => gates[j] === gates[i] && j !== i && dominates(sides, j, i)).map((j) => here[j].name),
        versusFirst: i === first ? { worseOn: [], betterOn: [], betterWithinNoiseOn: [] } : {
          worseOn: keysWhere(first, i, 'a'),
          betterOn: keysWhere(first, i, 'b'),
          betterWithinNoiseOn: keysWhere(i, first, 'a', leanings),
        },
        floorsBroken: breaches[i],
        values: Object.fromEntries(shown.map((key) => [key, p.measures[key]?.value ?? null])),
        outageSavedS: saved,
        outageSavedRatio: saved !== null && baseOutage! > 0 ? saved / baseOutage! : null,
        ...(longest ? { longestRecovered: longest.byVariant.get(name) ?? null } : {}),
      };
    });
    let pairedSeeds = here.length > 1 ? Infinity : here[0].p.perSeed.length;
    for (let i = 0; i < here.length; i++) for (let j = i + 1; j < here.length; j++) pairedSeeds = Math.min(pairedSeeds, commonSeeds(here[i].p, here[j].p).length);
    const undecided: UndecidedPair[] = [];
    for (const [x, i] of order.entries()) {
      for (const j of order.slice(x + 1)) {
        const on = gates[i] === gates[j] ? keysWhere(i, j, 'a', leanings).concat(keysWhere(i, j, 'b', leanings)) : [];
        if (on.length > 0) undecided.push({ above: here[i].name, below: here[j].name, on: objectives.map((m) => m.key).filter((k) => on.includes(k)) });
      }
    }
    points.push({ point: index, values: here[0].p.values, pairedSeeds, entries, undecided });
    ranked.push({ entries, contenders: new Set(here.filter((_, i) => triggered[i] || !triggered.some(Boolean)).map((x) => x.name)) });
  }
  const across = points.length >= 2 ? acrossPoints(variants, ranked) : null;
  return {
    baseline,
    objectives: objectives.map((m) => m.key),
    weights,
    confidence,
    ...(across ? { acrossPoints: across } : {}),
    ...(at && Object.keys(at).length > 0 ? { at } : {}),
    ...(longest ? { longestRecoveredParameter: longest.parameter } : {}),
    points,
  };
}

/**
 * With exactly one swept parameter, a fault's length (faults[i].duration): per variant, the
 * threshold it recovers up to. (Another duration, such as when a fault starts, has no "up
 * to": "recovers from every swept length up to 12h" was said of faults[0].at.) Its points are read from the shortest value up; the first at
 * which not every seed recovered ends it, and so does one without runs (an interrupted
 * experiment: nothing is known there, and "up to" would vouch for it). The answer is the last
 * value before that, absent (null) when the shortest already ends it.
 */
function longestRecovered(variants: readonly VariantAggregate[], parameters: readonly string[]): { parameter: string; byVariant: Map<string, Value> } | null {
  if (parameters.length !== 1) return null;
  const parameter = parameters[0];
  if (!FAULT_LENGTH.test(parameter)) return null;
  const all = variants.flatMap((v) => v.points.map((p) => p.values[parameter]));
  if (all.length === 0 || !all.every((x) => x !== undefined && parseDuration(x).ok)) return null;
  const seconds = (x: Value) => {
    const d = parseDuration(x);
    return d.ok ? d.value : -Infinity;
  };
  const byVariant = new Map<string, Value>();
  for (const v of variants) {
    // A stable sort: two values of one length ("60s", "1m") keep the sweep's order, and both must recover.
    const ascending = [...v.points].sort((a, b) => seconds(a.values[parameter]) - seconds(b.values[parameter]));
    let best: Value | undefined;
    for (const p of ascending) {
      // Unhealthy before the fault, "recovering" is returning to a broken state: not a recovery.
      if (p.runs === 0 || (p.measures.recovered?.value ?? 0) < 1 || !healthyAt(p)) break;
      best = p.values[parameter];
    }
    if (best !== undefined) byVariant.set(v.name, best);
  }
  return { parameter, byVariant };
}
