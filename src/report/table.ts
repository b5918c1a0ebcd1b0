/**
 * What `retrystorm run` prints: the comparison, one line per variant (and sweep point), the
 * headline measures in their units, then the ranking in a few lines, best first, with what
 * decided each place. Built from the same cells as summary.md and report.html.
 */
import type { Results } from '../results/results.js';
import { formatValue, seedCount } from '../measures/format.js';
import { FLOOR_TEXT, UNHEALTHY_TEXT, cellOf, objectiveInfo, headlineMeasures, healthyBefore, pointLabel, printable } from './cells.js';

function pad(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
}

/** A header on at most two lines, as narrow as its words allow ("attempts per action" → "attempts", "per action"). */
function twoLines(label: string): [string, string] {
  // Split at spaces, or after a dot in a path ("faults[0]." / "duration").
  const words = label.includes(' ') ? label.split(' ') : label.split(/(?<=\.)/);
  const glue = label.includes(' ') ? ' ' : '';
  let best: [string, string] = [label, ''];
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(glue), b = words.slice(i).join(glue);
    if (Math.max(a.length, b.length) < Math.max(best[0].length, best[1].length)) best = [a, b];
  }
  return best;
}

/**
 * Which headline columns a narrow terminal keeps longest: the outcome first (recovered,
 * recovery time, perceived outage), then its costs; counts and context go first.
 */
const KEEP_ORDER = ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'wastedWorkShare', 'successRatio', 'attemptsPerAction', 'originalSuccessAfterFault', 'excessAttempts', 'retryShareAtPeak'];
const keepRank = (key: string) => (KEEP_ORDER.includes(key) ? KEEP_ORDER.indexOf(key) : KEEP_ORDER.length);

/** Lays out header + rows: `wrap` puts headers on two lines; returns the lines and the widest. */
function layout(header: string[], rows: string[][], wrap: boolean): { lines: string[]; width: number } {
  const heads = header.map((h) => (wrap ? twoLines(h) : [h, ''] as [string, string]));
  const widths = header.map((_, i) => Math.max(heads[i][0].length, heads[i][1].length, ...rows.map((r) => r[i].length)));
  const top = heads.map((h) => h[0]), second = heads.map((h) => h[1]);
  const all = [top, ...(second.some((x) => x) ? [second] : []), widths.map((w) => '─'.repeat(w)), ...rows];
  const lines = all.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  return { lines, width: widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1) };
}

/**
 * The comparison as the terminal shows it, within `width` columns (the terminal's; unlimited
 * when unknown): all columns on one header line when they fit, else headers on two lines,
 * else the least telling columns left out (and named below the table: summary.md and
 * report.html have them all). With one swept parameter its values get their own column.
 */
export function summaryTable(r: Results, width = Infinity): string {
  const params = r.sweep?.parameters ?? [];
  const oneParam = params.length === 1 ? params[0] : null;
  const measures = headlineMeasures(r);
  const pointHeader = r.sweep ? [oneParam ?? 'point'] : [];
  const rows = r.variants.flatMap((v) =>
    v.points.map((p, i) => {
      const unhealthy = p.runs > 0 && !healthyBefore(p);
      // With a sweep the variant is named once, on its first row (and again where a flag needs it).
      const name = i > 0 && !unhealthy ? '' : printable(v.name) + (unhealthy ? ` (${UNHEALTHY_TEXT})` : '');
      return [
        name,
        ...(r.sweep ? [printable(oneParam ? String(p.values[oneParam] ?? '') : pointLabel(p.values) ?? '')] : []),
        ...measures.map((m) => cellOf(m, p).text),
      ];
    }),
  );
  const fixed = 1 + pointHeader.length;
  let shown = measures.map((_, i) => i);
  const build = (wrap: boolean) => layout(
    ['variant', ...pointHeader, ...shown.map((i) => measures[i].label)],
    rows.map((row) => [...row.slice(0, fixed), ...shown.map((i) => row[fixed + i])]),
    wrap,
  );
  let t = build(false);
  if (t.width > width) t = build(true);
  // Leave out the least telling column until the table fits (keeping at least two measures).
  const byKeep = [...shown].sort((a, b) => keepRank(measures[b].key) - keepRank(measures[a].key) || b - a);
  while (t.width > width && shown.length > 2) {
    const drop = byKeep.shift()!;
    shown = shown.filter((i) => i !== drop);
    t = build(true);
  }
  const left = measures.filter((_, i) => !shown.includes(i)).map((m) => m.label);
  const note = left.length > 0 ? [`(${left.length} more column${left.length === 1 ? '' : 's'} in summary.md and report.html: ${left.join(', ')})`] : [];
  return [...t.lines, ...note.map((n) => wrapWords(n, width))].join('\n');
}

/** Wraps text at spaces to `width` columns (no wrapping when unlimited). */
export function wrapWords(text: string, width: number, indent = ''): string {
  if (!Number.isFinite(width) || text.length <= width) return text;
  const lead = /^ */.exec(text)![0];
  const out: string[] = [];
  let line = lead;
  for (const w of text.slice(lead.length).split(' ')) {
    if (line.trim() && (line + ' ' + w).length > width) { out.push(line); line = indent + w; }
    else line = line.trim() ? `${line} ${w}` : line + w;
  }
  if (line) out.push(line);
  return out.join('\n');
}

/**
 * The ranking, then with a swept duration how long an outage each variant still recovers
 * from, within `width` columns: on a narrow terminal the share saved, the peak and what
 * decided each place are left out, in that order (summary.md has them).
 */
export function rankingText(r: Results, width = Infinity): string {
  const k = r.ranking;
  if (!k || k.points.length === 0) return '';
  const label = (key: string) => objectiveInfo(r, key)?.label ?? key;
  const oneSeed = k.points.some((p) => p.pairedSeeds < 2) ? '; one seed: no difference is judged against seed noise' : '';
  const out = [wrapWords(`ranking, best first (outage saved against ${printable(k.baseline)}; objectives: ${k.objectives.map(label).join(', ')}${oneSeed}):`, width, '  ')];
  for (const p of k.points) {
    const at = pointLabel(p.values);
    if (at) out.push(`  at ${printable(at)}`);
    // The share saved is of the baseline's perceived outage at this point, said with its length ("of as-is's 5m outage").
    const baseOutage = p.entries.find((e) => e.variant === k.baseline)?.values.perceivedOutageS ?? null;
    const ofBaseline = baseOutage === null ? 'the baseline\'s outage' : `${printable(k.baseline)}'s ${formatValue('duration', baseOutage)} outage`;
    const rowsWith = (detail: number) => p.entries.map((e) => {
      const rt = e.values.recoveryTimeS ?? null;
      const recovered = e.values.recovered ?? null;
      const recovery = rt !== null ? `${detail >= 1 ? 'recovered in' : 'back in'} ${formatValue('duration', rt)}`
        : `not recovered${e.runs > 1 && recovered !== null ? ` (${seedCount(recovered, e.runs)}/${e.runs} seeds)` : ''}`;
      const ratio = detail >= 4 && e.outageSavedRatio !== null ? ` (${formatValue('share', Math.abs(e.outageSavedRatio))} of ${ofBaseline})` : '';
      const saved = e.variant === k.baseline ? 'baseline'
        : e.outageSavedS === null ? ''
        : `${e.outageSavedS < 0 ? 'costs' : 'saves'} ${formatValue('duration', Math.abs(e.outageSavedS))}${ratio}`;
      const decided = e.decidedBy === null ? '' : e.decidedBy === 'healthyBeforeTrigger' ? `below: ${UNHEALTHY_TEXT}` : e.decidedBy === 'floors' ? `below: ${FLOOR_TEXT}` : `decided by ${label(e.decidedBy)}`;
      return [
        `${at ? '    ' : '  '}${e.rank}.`,
        printable(e.variant),
        e.healthyBefore ? recovery : UNHEALTHY_TEXT,
        `${detail >= 1 ? 'perceived outage' : 'outage'} ${formatValue('duration', e.values.perceivedOutageS ?? null)}`,
        ...(detail >= 3 ? [`${label('peakLoadMultiple').replace('peak load', 'peak')} ${formatValue('multiple', e.values.peakLoadMultiple ?? null)}`] : []),
        saved,
        ...(detail >= 2 ? [decided] : []),
      ];
    });
    let lines = pad(rowsWith(4));
    for (let detail = 3; detail >= 0 && Math.max(...lines.map((l) => l.length)) > width; detail--) lines = pad(rowsWith(detail));
    out.push(...lines);
  }
  if (k.longestRecoveredParameter) {
    const byVariant = new Map<string, string>();
    for (const p of k.points) for (const e of p.entries) byVariant.set(e.variant, e.longestRecovered === null || e.longestRecovered === undefined ? 'none' : String(e.longestRecovered));
    out.push(wrapWords(`  recovers up to (every seed recovered at each ${k.longestRecoveredParameter} swept up to it): ${[...byVariant].map(([v, x]) => `${printable(v)} ${x}`).join(', ')}`, width, '    '));
  }
  return out.join('\n');
}
