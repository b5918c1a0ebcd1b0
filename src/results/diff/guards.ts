/**
 * Guards on change: expectations such as `recoveryTimeS: { worsenBy: { atMost: 10% } }`,
 * checked against a base's results, so that a pull request that makes a policy worse fails
 * its check even while every absolute bound still passes. A guard compares the means across
 * seeds (the fraction of seeds for `recovered`) at each variant and sweep point it names;
 * how much worse is read in the measure's better direction.
 */
import { scopeText, scopedMeasures, type ResolvedExpectation, type ResolvedGuard } from '../../experiment/expectations.js';
import { formatValue } from '../../measures/format.js';
import { sameValue } from '../../scenario/sweep.js';
import type { PointResult, Results } from '../results.js';

export interface GuardResult {
  /** "client-ceiling at faults[0].duration=12m: recovery time worsens by at most 10%". */
  name: string;
  variant: string;
  at: Record<string, string | number>;
  measure: string;
  base: number | null;
  head: number | null;
  /** How much worse the head is (negative: better); null when a side has no value. */
  worsening: number | null;
  /** The most it may get worse, in the measure's unit, at this point. */
  limit: number;
  passed: boolean;
  /**
   * Whether the guard was checked at all: false when the base has no such variant or sweep
   * point (a new one). It does not fail the check, and it is not said as a pass either.
   */
  compared: boolean;
  /** What was seen, in words: "2m31s -> 2m50s (+12.6%)", "2m31s -> not recovered". */
  actual: string;
}

/** A guard's status word, for the terminal and the pull-request comment. */
export function guardStatus(g: Pick<GuardResult, 'passed' | 'compared'>): 'PASS' | 'FAIL' | 'NOT COMPARED' {
  return !g.compared ? 'NOT COMPARED' : g.passed ? 'PASS' : 'FAIL';
}

const SLACK = 1e-9;

function valueAt(p: PointResult, e: ResolvedExpectation, key: string): number | null {
  return scopedMeasures(p, e.scope)?.[key]?.value ?? null;
}

function matches(at: ResolvedExpectation['at'], values: Record<string, string | number>): boolean {
  return !at || Object.entries(at).every(([k, v]) => Object.hasOwn(values, k) && sameValue(values[k], v));
}

function samePoint(a: Record<string, string | number>, b: Record<string, string | number>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

function show(g: ResolvedGuard, x: number | null): string {
  if (x === null) return g.measure.nullIsWorst ? 'not recovered' : 'no value';
  return formatValue(g.measure.unit, x);
}

/**
 * An amount of change in the measure's unit. A share's is said in percentage points: "2%"
 * read the same for `atMost: 0.02` (two points) and `atMost: 2%` (2% of the base's value).
 */
function amountText(g: ResolvedGuard, x: number): string {
  return g.measure.unit === 'share' ? `${Number((x * 100).toFixed(2))} percentage point${x * 100 === 1 ? '' : 's'}` : formatValue(g.measure.unit, x);
}

function limitText(g: ResolvedGuard): string {
  if (g.relative === undefined) return amountText(g, g.absolute ?? 0);
  // A share's percentage of itself is said as one, beside its points.
  return `${Number((g.relative * 100).toFixed(4))}%${g.measure.unit === 'share' ? ' of the base\'s value' : ''}`;
}

/** One guard at one point: pass or fail, and why. */
function judge(g: ResolvedGuard, base: number | null, head: number | null): { worsening: number | null; limit: number; passed: boolean; note: string } {
  const limit = g.relative !== undefined ? g.relative * Math.abs(base ?? 0) : g.absolute ?? 0;
  if (base === null || head === null) {
    if (base === null && head === null) return { worsening: null, limit, passed: true, note: 'no value on either side' };
    // Null is the worst outcome for such a measure; for the others a missing value cannot be compared, which is not a pass.
    if (g.measure.nullIsWorst) return { worsening: null, limit, passed: head !== null, note: head === null ? 'got worse without bound' : 'better' };
    return { worsening: null, limit, passed: false, note: 'cannot be compared: one side has no value' };
  }
  const worsening = g.measure.better === 'lower' ? head - base : base - head;
  const passed = worsening <= limit + SLACK * Math.max(1, Math.abs(limit));
  const pct = base !== 0 ? ` (${worsening >= 0 ? '+' : '-'}${Math.abs((worsening / Math.abs(base)) * 100).toFixed(1)}% worse)` : '';
  return { worsening, limit, passed, note: worsening > 0 ? `${amountText(g, worsening)} worse${pct}` : worsening < 0 ? 'better' : 'unchanged' };
}

/**
 * Every guard of the head's expectations at every point of its variant that the base also
 * ran. A variant or point the base does not have is not checked (nothing to compare with),
 * and says so.
 */
export function checkGuards(expectations: readonly ResolvedExpectation[], base: Results, head: Results): GuardResult[] {
  const out: GuardResult[] = [];
  for (const e of expectations) {
    if (e.guards.length === 0) continue;
    const hv = head.variants.find((v) => v.name === e.variant);
    const bv = base.variants.find((v) => v.name === e.variant);
    for (const hp of hv?.points ?? []) {
      if (hp.runs === 0 || !matches(e.at, hp.values)) continue;
      const bp = bv?.points.find((p) => samePoint(p.values, hp.values) && p.runs > 0);
      const where = Object.keys(hp.values).length ? ` at ${Object.entries(hp.values).map(([k, x]) => `${k}=${x}`).join(', ')}` : '';
      for (const g of e.guards) {
        const name = `${e.variant}${where}: ${g.measure.label}${scopeText(e.scope)} worsens by at most ${limitText(g)}`;
        const h = valueAt(hp, e, g.measure.key);
        if (!bp) {
          out.push({ name, variant: e.variant, at: hp.values, measure: g.measure.key, base: null, head: h, worsening: null, limit: 0, passed: true, compared: false, actual: `the base has no ${bv ? 'such sweep point' : `variant ${e.variant}`}` });
          continue;
        }
        const b = valueAt(bp, e, g.measure.key);
        const j = judge(g, b, h);
        out.push({ name, variant: e.variant, at: hp.values, measure: g.measure.key, base: b, head: h, worsening: j.worsening, limit: j.limit, passed: j.passed, compared: true, actual: `${show(g, b)} -> ${show(g, h)}: ${j.note}` });
      }
    }
  }
  return out;
}
