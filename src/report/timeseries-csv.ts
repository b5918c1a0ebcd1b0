/**
 * timeseries.csv: one row per (variant, seed, time bucket), for spreadsheets, notebooks and
 * the report. Counts are per bucket; columns ending in _per_s, _ms or ratios are as named.
 * Empty cells mean "no value" (e.g. no latency in a bucket where nothing was answered).
 */
import type { RunResult } from '../experiment/run-one.js';
import { round6 } from './numbers.js';

export function timeseriesCsv(results: Array<RunResult | undefined>): string {
  const done = results.filter((r): r is RunResult => !!r);
  if (done.length === 0) return 'variant,point,seed\n';
  const cols = Object.keys(done[0].columns);
  const lines = [['variant', 'point', 'seed', ...cols].join(',')];
  for (const r of done) {
    const c = r.columns as unknown as Record<string, number[]>;
    const n = c.t_s.length;
    for (let i = 0; i < n; i++) {
      let line = `${r.variant},${r.point},${r.seed}`;
      for (const k of cols) {
        const v = c[k][i];
        line += Number.isFinite(v) ? `,${round6(v)}` : ',';
      }
      lines.push(line);
    }
  }
  return lines.join('\n') + '\n';
}
