/**
 * The short table `retrystorm run` prints: one line per variant (and sweep point), the
 * measures that answer "did it come back, and how fast" first.
 */
import type { VariantAggregate, PointAggregate } from '../experiment/aggregate.js';
import { formatDuration } from '../scenario/units.js';

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
