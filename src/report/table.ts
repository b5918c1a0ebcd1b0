/**
 * The short table `retrystorm run` prints: one line per variant, the measures that answer
 * "did it come back, and how fast" first.
 */
import type { VariantAggregate } from '../experiment/aggregate.js';
import { formatDuration } from '../scenario/units.js';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

export function summaryTable(variants: VariantAggregate[]): string {
  const header = ['variant', 'recovery', 'perceived outage', 'peak load', 'peak retries', 'attempts/action (mean/p99/max)', 'success', 'wasted work'];
  const rows = variants.map((v) => {
    const m = v.measures;
    const recovery = m.recovered && m.recoveryTimeS !== null
      ? formatDuration(Math.round(m.recoveryTimeS))
      : v.runs === 0 ? 'no runs' : 'not recovered';
    return [
      v.name,
      v.runs > 1 ? `${recovery} (${pct(v.recoveredFraction)} of seeds)` : recovery,
      formatDuration(Math.round(m.perceivedOutageS)),
      `${m.peakLoadMultiple.toFixed(1)}x`,
      pct(m.peakRetryShare),
      `${m.attemptsPerAction.mean.toFixed(2)} / ${m.attemptsPerAction.p99} / ${m.attemptsPerAction.max}`,
      pct(m.successRatio),
      `${formatDuration(Math.round(m.wastedWorkS))} slot-time`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}
