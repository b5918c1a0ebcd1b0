/**
 * The Results value of an experiment, built once from what the experiment folded, with its
 * numbers already at the precision summary.json keeps: so the value `run` renders from and
 * the value `report DIR` parses back are the same, and so are the pages made from them.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import type { PointAggregate } from '../experiment/aggregate.js';
import type { Ranking } from '../experiment/ranking.js';
import { measureSettings } from '../experiment/settings.js';
import { bucketWidth } from '../model/simulate.js';
import { POPULATION_COLUMN_INFO, RUN_COLUMN_INFO } from '../measures/columns.js';
import { routeOf, subjectOf } from '../scenario/subject.js';
import { roundMeasured } from './numbers.js';
import { SUMMARY_FORMAT, type PointResult, type Results } from './results.js';
import { TOOL_VERSION } from '../experiment/tool-version.js';
import { buildSearchResults } from './search.js';
import { buildObserved } from './observed-fit.js';
import { inertVariants } from './inert.js';
import type { Scenario } from '../scenario/schema.js';

function pointOf(p: PointAggregate): PointResult {
  return roundMeasured({
    point: p.point,
    values: p.values,
    runs: p.runs,
    measures: p.measures,
    attemptsHistogram: p.attemptsHistogram,
    populations: p.populations,
    routes: p.routes,
    quotas: p.quotas,
    ...(p.tiers ? { tiers: p.tiers } : {}),
    ...(p.rateLimits ? { rateLimits: p.rateLimits } : {}),
    faults: p.faults.map((f) => ({ kind: f.kind, startS: f.startS, endS: Number.isFinite(f.endS) ? f.endS : null })),
    perSeed: p.perSeed.map((s) => ({ seed: s.seed, measures: s.measures, actions: s.actions })),
  }, ['point', 'values', 'runs', 'seed', 'instances']);
}

function rankingOf(k: Ranking): Results['ranking'] {
  return roundMeasured({
    baseline: k.baseline,
    objectives: k.objectives,
    weights: k.weights,
    confidence: k.confidence,
    ...(k.at ? { at: k.at } : {}),
    ...(k.longestRecoveredParameter !== undefined ? { longestRecoveredParameter: k.longestRecoveredParameter } : {}),
    ...(k.acrossPoints ? { acrossPoints: k.acrossPoints } : {}),
    points: k.points.map((p) => ({
      point: p.point,
      values: p.values,
      pairedSeeds: p.pairedSeeds,
      entries: p.entries.map((e) => ({
        rank: e.rank,
        variant: e.variant,
        runs: e.runs,
        healthyBefore: e.healthyBefore,
        decidedBy: e.decidedBy,
        gate: e.gate,
        front: e.front,
        dominatedBy: e.dominatedBy,
        versusFirst: e.versusFirst,
        floorsBroken: e.floorsBroken,
        // Measured values, rounded like every other (the outer call keeps `values` exact: elsewhere it names sweep values).
        values: roundMeasured(e.values),
        outageSavedS: e.outageSavedS,
        outageSavedRatio: e.outageSavedRatio,
        ...(e.longestRecovered !== undefined ? { longestRecovered: e.longestRecovered } : {}),
      })),
      undecided: p.undecided,
    })),
  }, ['at', 'values', 'point', 'rank', 'runs', 'longestRecovered', 'pairedSeeds', 'front', 'first', 'ranked']);
}

export function buildResults(x: ExperimentResult): Results {
  const base = x.loaded.base;
  const variants = x.variants.map((v) => ({ name: v.name, description: v.description ?? null, ...ownClock(base, x.loaded.variants.find((l) => l.name === v.name)?.scenario), points: v.points.map(pointOf) }));
  const inert = inertVariants(variants, x.ranking?.baseline ?? variants[0]?.name);
  const swept = x.loaded.points.length > 1 || Object.keys(x.loaded.points[0]?.values ?? {}).length > 0;
  const subject = subjectOf(base);
  const populations = Object.entries(base.clients);
  return {
    format: SUMMARY_FORMAT,
    tool: TOOL_VERSION,
    scenario: base.name,
    question: base.question ?? null,
    description: base.description ?? null,
    partial: x.partial,
    shard: x.shard ?? null,
    runsPlanned: x.runs.length,
    runsFinished: x.results.filter(Boolean).length,
    failedRuns: x.failures,
    horizonS: base.horizon,
    bucketS: bucketWidth(base),
    seeds: [...new Set(x.runs.map((r) => r.seed))],
    seeding: x.seeding ? roundMeasured(x.seeding, ['start', 'max', 'budget', 'levels', 'point', 'seeds']) : null,
    sweep: swept ? { parameters: (base.sweep ?? []).map((s) => s.parameter), points: x.loaded.points.map((p) => ({ index: p.index, values: p.values })) } : null,
    measureSettings: Object.fromEntries(Object.entries(measureSettings(base)).filter(([, v]) => typeof v === 'number')) as Record<string, number>,
    subject: populations.filter((_, i) => subject[i]).map(([name]) => name),
    populations: populations.map(([name, p]) => ({ name, route: routeOf(p), role: p.role, contract: p.contract ? { limit: p.contract.limit, windowS: p.contract.window } : null })),
    // In a graph of services the server's measures are the edge's: their labels say so (the
    // ranking's "wasted work 0%" beside a db tier wasting 92% of its slot time read as the whole).
    measures: x.measures.all.map((m) => ({
      key: m.key, label: m.scope === 'server' && Object.keys(base.services ?? {}).length > 0 ? `${m.label} (edge)` : m.label, doc: m.doc, unit: m.unit, better: m.better, aggregate: m.aggregate, scope: m.scope, perPopulation: m.perPopulation ?? false, headline: m.headline ?? false, cost: m.cost ?? false, inPopulationTable: (m.perPopulation ?? false) && m.inPopulationTable !== false,
    })),
    columns: { run: RUN_COLUMN_INFO.map((c) => ({ ...c })), population: POPULATION_COLUMN_INFO.map((c) => ({ ...c })) },
    expectations: x.expectations.map((e) => roundMeasured({
      name: e.name, variant: e.variant, at: e.at, scope: { ...e.scope }, measure: e.measure, kind: e.kind, limit: e.limit, value: e.value, passed: e.passed, check: e.check, actual: e.actual,
    }, ['at'])),
    ranking: x.ranking ? rankingOf(x.ranking) : null,
    variants,
    ...(x.search ? { search: buildSearchResults(x.search) } : {}),
    ...withObserved(buildObserved(x)),
    // Only when some variant is inert: summary.json stays as it was otherwise.
    ...(inert.length > 0 ? { inert } : {}),
  };
}

/**
 * A variant's horizon and bucket width, and its hold, where its overlay changed them (nothing
 * otherwise: summary.json stays as it was). The verdict reads the hold beside the horizon: a
 * run that ends less than a hold after its fault could not show a recovery.
 */
function ownClock(base: Scenario, s: Scenario | undefined): { horizonS?: number; bucketS?: number; holdS?: number } {
  if (!s) return {};
  const horizonS = s.horizon, bucketS = bucketWidth(s);
  const holdS = measureSettings(s).holdS;
  return {
    ...(horizonS === base.horizon && bucketS === bucketWidth(base) ? {} : { horizonS, bucketS }),
    ...(holdS === measureSettings(base).holdS ? {} : { holdS }),
  };
}

/** The observed block only when the scenario has one: summary.json stays as it was otherwise. */
function withObserved(o: Results['observed']): { observed?: NonNullable<Results['observed']> } {
  return o ? { observed: o } : {};
}
