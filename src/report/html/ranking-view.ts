/**
 * The ranking (summary.json `ranking`, computed by src/report/ranking.ts) as text cells:
 * report.html and summary.md render these, so the two never disagree, and the browser test
 * checks the page against the same formatting of summary.json's numbers.
 */
import { formatDuration } from '../../scenario/units.js';
import { MEASURE_DOCS } from '../../measures/measures.js';
import { fmt, seedsRecoveredText } from './comparison.js';
import type { RankingResult, RankingRow } from './results.js';

export interface RankingCell {
  /** The entry field this cell shows (data-field in the HTML). */
  key: string;
  text: string;
  /** The number from summary.json (data-value in the HTML); null when there is none. */
  value: number | string | null;
}

export interface RankingColumn { key: string; header: string; definition: string }

export function rankingColumns(r: RankingResult): RankingColumn[] {
  return [
    { key: 'recoveredFraction', header: 'recovered', definition: 'How many seeds recovered before the horizon: the first thing the ranking orders by.' },
    { key: 'recoveryTimeS', header: 'recovery time', definition: `${MEASURE_DOCS.recoveryTimeS} Across seeds: the mean, shown only when every seed recovered. Orders variants that recovered equally often.` },
    { key: 'perceivedOutageS', header: 'perceived outage', definition: `${MEASURE_DOCS.perceivedOutageS} Breaks ties in recovery time; then the success ratio does.` },
    { key: 'outageSavedS', header: `outage saved vs ${r.baseline}`, definition: `The perceived outage of ${r.baseline} minus this variant's, and in parentheses as a share of ${r.baseline}'s (negative: users saw a longer outage).` },
    { key: 'peakLoadMultiple', header: 'peak load', definition: MEASURE_DOCS.peakLoadMultiple },
    { key: 'retryShareAtPeak', header: 'retries at peak', definition: MEASURE_DOCS.retryShareAtPeak },
    { key: 'originalSuccessAfterFault', header: 'new users served', definition: MEASURE_DOCS.originalSuccessAfterFault },
    { key: 'relapses', header: 'relapses', definition: MEASURE_DOCS.relapses },
    { key: 'retryWaves', header: 'retry waves', definition: MEASURE_DOCS.retryWaves },
    ...(r.longestRecoveredParameter !== null
      ? [{ key: 'longestRecovered', header: 'recovers up to', definition: `The longest swept ${r.longestRecoveredParameter} at which every seed recovered.` }]
      : []),
  ];
}

const signed = (x: number, f: (x: number) => string) => (x < 0 ? `−${f(-x)}` : f(x));

export function savedText(e: RankingRow, baseline: string): string {
  if (e.variant === baseline) return 'baseline';
  if (e.outageSavedS === null) return '—';
  const d = signed(e.outageSavedS, (x) => formatDuration(Math.round(x)));
  return e.outageSavedRatio === null ? d : `${d} (${signed(e.outageSavedRatio, (x) => `${(x * 100).toFixed(0)}%`)})`;
}

export function rankingCells(r: RankingResult, e: RankingRow): RankingCell[] {
  const text: Record<string, [string, number | string | null]> = {
    recoveredFraction: [seedsRecoveredText(e.recoveredFraction, e.runs), e.recoveredFraction],
    recoveryTimeS: [e.recoveryTimeS === null ? 'not recovered' : fmt.duration(e.recoveryTimeS), e.recoveryTimeS],
    perceivedOutageS: [fmt.duration(e.perceivedOutageS), e.perceivedOutageS],
    outageSavedS: [savedText(e, r.baseline), e.outageSavedS],
    peakLoadMultiple: [fmt.multiple(e.peakLoadMultiple), e.peakLoadMultiple],
    retryShareAtPeak: [fmt.pct(e.retryShareAtPeak), e.retryShareAtPeak],
    originalSuccessAfterFault: [fmt.pct(e.originalSuccessAfterFault), e.originalSuccessAfterFault],
    relapses: [fmt.count(e.relapses), e.relapses],
    retryWaves: [fmt.count(e.retryWaves), e.retryWaves],
    longestRecovered: [e.longestRecovered === undefined || e.longestRecovered === null ? 'none' : String(e.longestRecovered), e.longestRecovered ?? null],
  };
  return rankingColumns(r).map((c) => ({ key: c.key, text: text[c.key][0], value: text[c.key][1] }));
}

/** "faults[0].duration = 12m" for a ranked point; null without a sweep. */
export function rankedPointLabel(values: Record<string, string | number>): string | null {
  const e = Object.entries(values);
  return e.length === 0 ? null : e.map(([k, v]) => `${k} = ${v}`).join(', ');
}
