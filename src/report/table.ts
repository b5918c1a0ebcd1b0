/**
 * The short table `retrystorm run` prints: one line per variant (and sweep point), the
 * measures that answer "did it come back, and how fast" first.
 */
import type { VariantAggregate, PointAggregate } from '../experiment/aggregate.js';
import { formatDuration } from '../scenario/units.js';
import type { Ranking } from './ranking.js';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const dur = (s: number) => formatDuration(Math.round(s));

/** "4m10s", "4m10s ± 20s" across seeds, "not recovered (3/8 seeds)". */
export function recoveryText(p: PointAggregate): string {
  if (p.runs === 0) return 'no runs';
  const t = p.measures.recoveryTimeS;
  if (t === null) {
    return p.runs > 1 ? `not recovered (${Math.round(p.recoveredFraction * p.runs)}/${p.runs} seeds did)` : 'not recovered';
  }
  const ci = p.intervals.recoveryTimeS;
  return ci && p.runs > 1 ? `${dur(t)} ± ${dur((ci[1] - ci[0]) / 2)}` : dur(t);
}

export function summaryTable(variants: VariantAggregate[]): string {
  const swept = variants.some((v) => v.points.length > 1 || Object.keys(v.points[0]?.values ?? {}).length > 0);
  const header = ['variant', ...(swept ? ['point'] : []), 'recovery', 'perceived outage', 'peak load', 'peak retries', 'attempts/action (mean/p99/max)', 'success', 'wasted work'];
  const rows = variants.flatMap((v) =>
    v.points.map((p) => {
      const m = p.measures;
      const empty = p.runs === 0;
      return [
        v.name,
        ...(swept ? [Object.entries(p.values).map(([k, x]) => `${k}=${x}`).join(' ')] : []),
        recoveryText(p),
        empty ? '—' : dur(m.perceivedOutageS),
        empty ? '—' : `${m.peakLoadMultiple.toFixed(1)}x`,
        empty ? '—' : pct(m.peakRetryShare),
        empty ? '—' : `${m.attemptsPerAction.mean.toFixed(2)} / ${m.attemptsPerAction.p99} / ${m.attemptsPerAction.max}`,
        empty ? '—' : pct(m.successRatio),
        empty ? '—' : `${(m.wastedWorkS / 3600).toFixed(1)} slot-h (${pct(m.wastedWorkShare)})`,
      ];
    }),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * The ranking in a few lines, printed after the table: per ranked point the variants best
 * first, whether and when they recovered, and the perceived outage they save against the
 * baseline; then, with a swept duration, how long an outage each still recovers from.
 */
export function rankingText(k: Ranking): string {
  if (k.points.length === 0) return '';
  const out = [`ranking, best first (outage saved against ${k.baseline}):`];
  const pad = (rows: string[][]) => {
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  };
  for (const p of k.points) {
    const label = Object.entries(p.values).map(([n, v]) => `${n}=${v}`).join(' ');
    if (label) out.push(`  at ${label}`);
    const rows = p.entries.map((e) => {
      const seeds = e.runs > 1 ? ` (${Math.round(e.recoveredFraction * e.runs)}/${e.runs} seeds)` : '';
      const recovery = e.recoveryTimeS !== null ? `recovered in ${dur(e.recoveryTimeS)}` : `not recovered${seeds}`;
      const saved = e.variant === k.baseline ? 'baseline'
        : e.outageSavedS === null ? ''
        : `${e.outageSavedS < 0 ? 'costs' : 'saves'} ${dur(Math.abs(e.outageSavedS))}${e.outageSavedRatio === null ? '' : ` (${Math.abs(e.outageSavedRatio * 100).toFixed(0)}%)`}`;
      const relapsed = e.relapses > 0 ? `relapsed ${+e.relapses.toFixed(1)}x` : '';
      const waves = e.retryWaves > 0 ? `${+e.retryWaves.toFixed(1)} retry wave${e.retryWaves === 1 ? '' : 's'}` : '';
      return [`${label ? '    ' : '  '}${e.rank}.`, e.variant, recovery, `perceived outage ${dur(e.perceivedOutageS)}`, saved, waves, relapsed];
    });
    out.push(...pad(rows));
  }
  const first = k.points[0]?.entries ?? [];
  if (k.longestRecoveredParameter && first.some((e) => e.longestRecovered !== undefined)) {
    const byVariant = new Map<string, string>();
    for (const p of k.points) for (const e of p.entries) byVariant.set(e.variant, e.longestRecovered === null || e.longestRecovered === undefined ? 'none' : String(e.longestRecovered));
    out.push(`  longest ${k.longestRecoveredParameter} at which every seed recovered: ${[...byVariant].map(([v, x]) => `${v} ${x}`).join(', ')}`);
  }
  return out.join('\n');
}
