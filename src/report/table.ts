/**
 * What `retrystorm run` prints: the comparison, one line per variant (and sweep point), the
 * headline measures in their units, then the ranking in a few lines, best first, with what
 * decided each place. Built from the same cells as summary.md and report.html.
 */
import type { Results } from '../results/results.js';
import { formatValue } from '../measures/format.js';
import { UNHEALTHY_TEXT, cellOf, headlineMeasures, healthyBefore, pointLabel, printable } from './cells.js';

function pad(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
}

export function summaryTable(r: Results): string {
  const swept = r.sweep !== null;
  const measures = headlineMeasures(r);
  const header = ['variant', ...(swept ? ['point'] : []), ...measures.map((m) => m.label)];
  const rows = r.variants.flatMap((v) =>
    v.points.map((p) => [
      printable(v.name) + (p.runs > 0 && !healthyBefore(p) ? ` (${UNHEALTHY_TEXT})` : ''),
      ...(swept ? [printable(pointLabel(p.values) ?? '')] : []),
      ...measures.map((m) => cellOf(m, p).text),
    ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const lines = pad([header, widths.map((w) => '─'.repeat(w)), ...rows]);
  return lines.join('\n');
}

/** The ranking, then with a swept duration how long an outage each variant still recovers from. */
export function rankingText(r: Results): string {
  const k = r.ranking;
  if (!k || k.points.length === 0) return '';
  const label = (key: string) => r.measures.find((m) => m.key === key)?.label ?? key;
  const out = [`ranking, best first (outage saved against ${printable(k.baseline)}; objectives: ${k.objectives.map(label).join(', ')}):`];
  for (const p of k.points) {
    const at = pointLabel(p.values);
    if (at) out.push(`  at ${printable(at)}`);
    const rows = p.entries.map((e) => {
      const rt = e.values.recoveryTimeS ?? null;
      const recovered = e.values.recovered ?? null;
      const recovery = rt !== null ? `recovered in ${formatValue('duration', rt)}`
        : `not recovered${e.runs > 1 && recovered !== null ? ` (${Math.round(recovered * e.runs)}/${e.runs} seeds)` : ''}`;
      const saved = e.variant === k.baseline ? 'baseline'
        : e.outageSavedS === null ? ''
        : `${e.outageSavedS < 0 ? 'costs' : 'saves'} ${formatValue('duration', Math.abs(e.outageSavedS))}${e.outageSavedRatio === null ? '' : ` (${formatValue('share', Math.abs(e.outageSavedRatio))} of its outage)`}`;
      const decided = e.decidedBy === null ? '' : e.decidedBy === 'healthyBeforeTrigger' ? `below: ${UNHEALTHY_TEXT}` : `decided by ${label(e.decidedBy)}`;
      return [
        `${at ? '    ' : '  '}${e.rank}.`,
        printable(e.variant),
        e.healthyBefore ? recovery : UNHEALTHY_TEXT,
        `perceived outage ${formatValue('duration', e.values.perceivedOutageS ?? null)}`,
        `peak ${formatValue('multiple', e.values.peakLoadMultiple ?? null)}`,
        saved,
        decided,
      ];
    });
    out.push(...pad(rows));
  }
  if (k.longestRecoveredParameter) {
    const byVariant = new Map<string, string>();
    for (const p of k.points) for (const e of p.entries) byVariant.set(e.variant, e.longestRecovered === null || e.longestRecovered === undefined ? 'none' : String(e.longestRecovered));
    out.push(`  longest ${k.longestRecoveredParameter} at which every seed recovered: ${[...byVariant].map(([v, x]) => `${printable(v)} ${x}`).join(', ')}`);
  }
  return out.join('\n');
}
