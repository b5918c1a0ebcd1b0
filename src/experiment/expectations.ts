/**
 * Expectations written in the scenario ("variant reserve-and-spread recovers within 10m
 * in at least 95% of seeds"), checked against the aggregated results, so that a pull
 * request that makes a policy worse fails its check and says which expectation broke.
 */
import type { Expectation } from '../scenario/schema.js';
import type { VariantAggregate, PointAggregate } from './aggregate.js';
import { formatDuration } from '../scenario/units.js';
import { sameValue } from '../scenario/sweep.js';

export interface ExpectationResult {
  /** e.g. "short-queue: recovery time at most 2m". */
  name: string;
  variant: string;
  /** The sweep point's values ({} without a sweep). */
  at: Record<string, string | number>;
  passed: boolean;
  /** What was measured, in words: "recovered after 1m40s", "not recovered in 2 of 8 seeds". */
  actual: string;
}

const pct = (x: number) => `${+(x * 100).toFixed(1)}%`;

// A mean across seeds of identical values can land a rounding error off them (three 0.95s
// average to 0.9499999999999998): bounds are compared with that much slack.
const SLACK = 1e-9;
const atMost = (x: number, bound: number) => x <= bound + SLACK * Math.max(1, Math.abs(bound));
const atLeast = (x: number, bound: number) => x >= bound - SLACK * Math.max(1, Math.abs(bound));

type Check = (p: PointAggregate) => { label: string; passed: boolean; actual: string };

function checksOf(e: Expectation): Check[] {
  const out: Check[] = [];
  if (e.recoveryTime) {
    const max = e.recoveryTime.atMost;
    out.push((p) => {
      const t = p.measures.recoveryTimeS;
      const notRecovered = p.perSeed.filter((s) => !s.recovered).length;
      return {
        label: `recovery time at most ${formatDuration(max)}`,
        passed: t !== null && atMost(t, max),
        actual: t === null ? `not recovered in ${notRecovered} of ${p.runs} seed(s)` : `recovered after ${formatDuration(Math.round(t))} (mean)`,
      };
    });
  }
  if (e.recovered) {
    const min = e.recovered.atLeast;
    out.push((p) => ({ label: `recovered in at least ${pct(min)} of seeds`, passed: atLeast(p.recoveredFraction, min), actual: `recovered in ${pct(p.recoveredFraction)} of ${p.runs} seed(s)` }));
  }
  if (e.perceivedOutage) {
    const max = e.perceivedOutage.atMost;
    out.push((p) => ({ label: `perceived outage at most ${formatDuration(max)}`, passed: atMost(p.measures.perceivedOutageS, max), actual: `perceived outage ${formatDuration(Math.round(p.measures.perceivedOutageS))}` }));
  }
  if (e.peakLoadMultiple) {
    const max = e.peakLoadMultiple.atMost;
    out.push((p) => ({ label: `peak load at most ${max}x`, passed: atMost(p.measures.peakLoadMultiple, max), actual: `peak load ${p.measures.peakLoadMultiple.toFixed(2)}x` }));
  }
  if (e.peakRetryShare) {
    const max = e.peakRetryShare.atMost;
    out.push((p) => ({ label: `peak retry share at most ${pct(max)}`, passed: atMost(p.measures.peakRetryShare, max), actual: `peak retry share ${pct(p.measures.peakRetryShare)}` }));
  }
  if (e.successRatio) {
    const min = e.successRatio.atLeast;
    const route = e.route;
    out.push((p) => {
      const r = route === undefined ? p.measures.successRatio : p.measures.routes?.[route]?.successRatio ?? null;
      const what = route === undefined ? 'success ratio' : `${route} success ratio`;
      return { label: `${what} at least ${pct(min)}`, passed: r !== null && atLeast(r, min), actual: r === null ? `no ${route ?? ''} user action ended`.replace('  ', ' ') : `${what} ${pct(r)}` };
    });
  }
  if (e.attemptsPerAction) {
    const max = e.attemptsPerAction.atMost;
    out.push((p) => ({ label: `at most ${max} attempts per action`, passed: atMost(p.measures.attemptsPerAction.mean, max), actual: `${p.measures.attemptsPerAction.mean.toFixed(2)} attempts per action` }));
  }
  return out;
}

function matches(at: Expectation['at'], p: PointAggregate): boolean {
  if (!at) return true;
  return Object.entries(at).every(([k, v]) => p.values[k] !== undefined && sameValue(p.values[k], v));
}

/** Checks every expectation at every matching point. Points without runs (partial results) are skipped. */
export function checkExpectations(expectations: Expectation[] | undefined, variants: VariantAggregate[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  for (const e of expectations ?? []) {
    const v = variants.find((x) => x.name === e.variant);
    if (!v) continue; // the loader rejects unknown variants; nothing to check here
    for (const p of v.points) {
      if (p.runs === 0 || !matches(e.at, p)) continue;
      for (const check of checksOf(e)) {
        const r = check(p);
        const where = Object.keys(p.values).length ? ` at ${Object.entries(p.values).map(([k, x]) => `${k}=${x}`).join(', ')}` : '';
        results.push({ name: `${e.variant}${where}: ${r.label}`, variant: e.variant, at: p.values, passed: r.passed, actual: r.actual });
      }
    }
  }
  return results;
}
