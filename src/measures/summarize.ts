/**
 * One run reduced to what its outputs need: every measure of the registry for the verdict's
 * users (the server's for the server, the partners' for the partners), the per-population
 * and per-route outcomes, the users' histogram of attempts per action and the dependencies'
 * quotas. Plain JSON-able data: it crosses the worker-thread boundary, and every number is
 * finite or null.
 */
import type { RunRecord } from '../model/series.js';
import { finiteOrNull, type MeasureDescriptor } from './measure.js';
import { MEASURES, type MeasureRegistry, type MeasureValues } from './registry.js';
import { DEFAULT_MEASURE_SETTINGS, type MeasureSettings } from './settings.js';
import { RunView } from './view.js';
import { tierOutcomes, type TierOutcome } from './tiers.js';
import { rateLimitOutcomes, type RateLimitOutcome } from './top-consumers.js';

/** How one population's, or one route's, users fared. */
export interface ScopeOutcome {
  name: string;
  /** The perPopulation measures only. */
  measures: Record<string, number | null>;
}

/** What a dependency's quota went through. */
export interface QuotaOutcome {
  name: string;
  /** Highest share of the quota used in any window. */
  peakWindowUse: number;
  /** Calls the provider refused (429), calls our guard refused before it, calls failed over to local validation. */
  providerRefused: number;
  guardRefused: number;
  failedOver: number;
  /** When each alert threshold (a share of the quota) was first crossed; null: never. */
  alerts: Array<{ threshold: number; firstS: number | null }>;
}

export interface RunSummary {
  measures: MeasureValues;
  /** attemptsHistogram[k] = the verdict's users' finished actions that took exactly k attempts. */
  attemptsHistogram: number[];
  populations: ScopeOutcome[];
  routes: ScopeOutcome[];
  quotas: QuotaOutcome[];
  /** Each service of a graph, the edge first (absent without services). */
  tiers?: TierOutcome[];
  /** Each rate-limit stage of the edge: what it checked and refused, and its top consumers (absent without one). */
  rateLimits?: RateLimitOutcome[];
}

/** Each measure over `view`; the partner measures over `partners` (the run's partners) when given. */
function valuesOf(measures: readonly MeasureDescriptor[], view: RunView, partners?: RunView): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const m of measures) {
    const x = m.compute(m.scope === 'partners' && partners ? partners : view);
    out[m.key] = x === null ? null : finiteOrNull(x);
  }
  return out;
}

export function summarize(record: RunRecord, settings: MeasureSettings = DEFAULT_MEASURE_SETTINGS, registry: MeasureRegistry = MEASURES): RunSummary {
  const subject = RunView.subject(record, settings);
  const scoped = registry.perPopulation;
  const tiers = tierOutcomes(record, settings);
  return {
    ...(tiers ? { tiers } : {}),
    measures: valuesOf(registry.all, subject, RunView.partners(record, settings)) as MeasureValues,
    attemptsHistogram: subject.histogram,
    populations: record.populations.map((p, i) => ({ name: p.name, measures: valuesOf(scoped, RunView.population(record, settings, i)) })),
    routes: record.routes.map((name, r) => ({ name, measures: valuesOf(scoped, RunView.route(record, settings, r)) })),
    quotas: record.quotas.map((q) => ({
      name: q.name,
      peakWindowUse: q.peakWindowUse,
      providerRefused: q.providerRefused,
      guardRefused: q.guardRefused,
      failedOver: q.failedOver,
      alerts: q.alerts.map((a) => ({ threshold: a.threshold, firstS: a.firstS })),
    })),
    ...(record.rateLimits ? { rateLimits: rateLimitOutcomes(record.rateLimits) } : {}),
  };
}
