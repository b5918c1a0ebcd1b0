/**
 * `retrystorm diff --markdown`: the diff as one pull-request comment. A reviewer reads the
 * part above the fold; it stays within about 60 lines whatever the experiment's size (the
 * verdict first, capped, then the ranking before and after), and everything else goes
 * into <details> sections. Text from the scenario is escaped so it cannot break the table
 * or the page.
 */
import type { ResultsDiff } from '../../results/diff/results-diff.js';
import type { DiffReport } from '../../results/diff/diff-report.js';
import { changeText } from '../../results/diff/scenario-diff.js';
import { guardStatus } from '../../results/diff/guards.js';
import { pointLabel } from '../cells.js';
import { changeLine, deltaText, flaggedCount, nothingCompared, oneSeedNote, pointListLabel, scenarioTitle, seedsSummary, sideText, verdictChanges, whereText } from './diff-cells.js';

/** The verdict lines shown above the fold; the rest are counted and folded. */
export const VERDICT_LINES = 12;
/** The scenario changes shown above the fold. */
export const SCENARIO_LINES = 10;

/** Markdown and HTML special characters in text from a scenario, escaped. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#!~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/**
 * GitHub refuses a comment body over 65,536 characters: the folded part is cut short of it,
 * saying how much was left out (all of it is in `diff --json`).
 */
export const COMMENT_CHARS = 60_000;

/** A hidden marker: the CI recipe finds and updates its own comment by it. */
export const COMMENT_MARKER = '<!-- retrystorm-diff -->';

export function diffMarkdown(report: DiffReport): string {
  const diff = report.results;
  const out: string[] = [COMMENT_MARKER];
  const verdict = verdictChanges(diff);
  const worse = verdict.filter((v) => v.change.direction === 'worse').length;
  const better = verdict.filter((v) => v.change.direction === 'better').length;
  const flips = diff.expectations.filter((e) => e.before !== e.after);
  const failing = flips.filter((e) => e.after === false).length;
  const head = nothingCompared(diff) ?? (verdict.length === 0 ? 'no change beyond seed noise'
    : [worse ? `${worse} worse` : '', better ? `${better} better` : '', verdict.length - worse - better ? `${verdict.length - worse - better} changed` : ''].filter(Boolean).join(', ') + ' beyond seed noise');
  const failedGuards = report.guards.filter((g) => !g.passed);
  out.push(`### retrystorm diff: ${md(scenarioTitle(diff, '→'))}: ${head}${failing ? `, ${failing} expectation(s) now failing` : ''}${failedGuards.length ? `, ${failedGuards.length} guard(s) failed` : ''}`, '');
  const oneSeed = oneSeedNote(diff);
  if (oneSeed) out.push(`> ${md(oneSeed)}`, '');
  for (const g of failedGuards.slice(0, 5)) out.push(`- ⛔ guard failed: ${md(g.name)} (${md(g.actual)})`);
  if (failedGuards.length > 5) out.push(`- … and ${failedGuards.length - 5} more failed guard(s) (below)`);
  if (failedGuards.length) out.push('');
  for (const { point, change } of verdict.slice(0, VERDICT_LINES)) {
    out.push(`- ${change.direction === 'worse' ? '🔴' : change.direction === 'better' ? '🟢' : '🟡'} ${md(changeLine(point, change, '→'))}`);
  }
  if (verdict.length > VERDICT_LINES) out.push(`- … and ${verdict.length - VERDICT_LINES} more (below)`);
  if (verdict.length === 0) out.push(`No measure the verdict reads changed beyond seed noise (${flaggedCount(diff)} other change(s) beyond noise, below).`);
  const passedGuards = report.guards.filter((g) => g.passed && g.compared).length;
  const uncompared = report.guards.filter((g) => !g.compared).length;
  if (passedGuards || uncompared) out.push('', [passedGuards ? `${passedGuards} guard(s) on change passed.` : '', uncompared ? `${uncompared} not compared (the base has no such variant or sweep point).` : ''].filter(Boolean).join(' '));
  out.push('', `<sub>${seedsSummary(diff)}; "beyond seed noise": Welch's t test on the per-seed values, p < 0.05, and more than the measure's tie tolerance.</sub>`);

  if (flips.length) out.push('');
  for (const e of flips.slice(0, 6)) {
    out.push(`- expectation ${e.before === null ? 'new' : e.before ? 'PASS' : 'FAIL'} → **${e.after === null ? 'removed' : e.after ? 'PASS' : 'FAIL'}**: ${md(e.name)}${e.actualAfter ? ` (${md(e.actualAfter)})` : ''}`);
  }
  if (flips.length > 6) out.push(`- … and ${flips.length - 6} more expectation change(s) (below)`);
  const added = [
    ...(diff.variantsAdded.length ? [`new variant(s): ${diff.variantsAdded.map(md).join(', ')}`] : []),
    ...(diff.variantsRemoved.length ? [`removed variant(s): ${diff.variantsRemoved.map(md).join(', ')}`] : []),
    ...(diff.pointsAdded.length ? [`new sweep point(s): ${diff.pointsAdded.map((p) => md(pointListLabel(p))).join('; ')}`] : []),
    ...(diff.pointsRemoved.length ? [`removed sweep point(s): ${diff.pointsRemoved.map((p) => md(pointListLabel(p))).join('; ')}`] : []),
  ];
  if (added.length) out.push('', ...added.map((a) => `- ${a}`));

  const changes = report.scenario?.changes ?? [];
  if (report.scenario) {
    out.push('', changes.length ? '**What changed in the scenario** (overlays, defaults and presets resolved):' : '**The scenario** runs the same world and experiment once resolved (no change).');
    for (const c of changes.slice(0, SCENARIO_LINES)) out.push(`- ${md(changeText(c, '→'))}`);
    if (changes.length > SCENARIO_LINES) out.push(`- … and ${changes.length - SCENARIO_LINES} more (below)`);
  } else if (report.scenarioNote) out.push('', `Scenario diff: ${md(report.scenarioNote)}`);

  // The ranking before and after: the compared point's (one table), or a line per point.
  const ranked = diff.ranking;
  if (ranked.length === 1 || (ranked.length > 1 && ranked.every((k) => !k.changed))) {
    const k = ranked[0];
    const at = pointLabel(k.values);
    if (ranked.length > 1) out.push('', `**Ranking**: unchanged at all ${ranked.length} points.`);
    else if (!k.changed) out.push('', `**Ranking${at ? ` at ${md(at)}` : ''}**: unchanged (${k.after.map((e) => `${e.rank}. ${md(e.variant)}`).join(', ')}).`);
    else {
      out.push('', `**Ranking${at ? ` at ${md(at)}` : ''}**, before → after:`, '', '| rank | before | after |', '|---:|---|---|');
      const rows = Math.max(k.before.length, k.after.length);
      for (let i = 0; i < rows; i++) {
        const b = k.before[i], a = k.after[i];
        out.push(`| ${a?.rank ?? b?.rank ?? ''} | ${b ? md(b.variant) : ''} | ${a ? (b?.variant === a.variant ? md(a.variant) : `**${md(a.variant)}**`) : ''} |`);
      }
    }
  } else if (ranked.length > 1) {
    const changed = ranked.filter((k) => k.changed);
    out.push('', `**Ranking** changed at ${changed.length} of ${ranked.length} points (below).`);
  }

  const guardFold = report.guards.length ? ['', '<details><summary>Guards on change</summary>', '', ...report.guards.slice(0, 200).map((g) => `- ${guardStatus(g) === 'FAIL' ? '**FAIL**' : guardStatus(g)} ${md(g.name)} (${md(g.actual)})`), '', '</details>'] : [];
  const folded = changes.length > SCENARIO_LINES ? ['', '<details><summary>Every scenario change</summary>', '', ...changes.slice(0, 400).map((c) => `- ${md(changeText(c, '→'))}`), '', '</details>'] : [];
  folded.push(...guardFold);
  const top = out.join('\n');
  return `${top}\n\n${details(diff, COMMENT_CHARS - top.length - folded.join('\n').length).join('\n')}${folded.join('\n')}\n`;
}

function details(diff: ResultsDiff, budget: number): string[] {
  const out: string[] = [];
  const flagged = diff.points.filter((d) => d.changes.some((c) => c.beyondNoise));
  out.push(`<details><summary>Every change beyond seed noise (${flaggedCount(diff)}, at ${flagged.length} of ${diff.points.length} variant-points)</summary>`, '');
  // The rankings and expectations below take at most this much; the tables get the rest.
  let left = budget - 12_000;
  let cut = 0;
  for (const d of flagged) {
    const rows = [`**${md(whereText(d))}**`, '', '| measure | base | head | change | how decided |', '|---|---|---|---|---|'];
    for (const c of d.changes.filter((x) => x.beyondNoise)) {
      rows.push(`| ${md(c.label)} | ${sideText(c, c.base, d.baseRuns)} | ${sideText(c, c.head, d.headRuns)} | ${md(deltaText(c))} | ${md(c.why)} |`);
    }
    const size = rows.join('\n').length + 2;
    if (size > left) { cut++; continue; }
    left -= size;
    out.push(...rows, '');
  }
  if (cut) out.push(`(${cut} more variant-point(s) left out to keep the comment within GitHub's size limit: \`retrystorm diff --json\` has every change)`, '');
  out.push('</details>');
  const otherRankings = diff.ranking.length > 1 ? diff.ranking.filter((k) => k.changed) : [];
  if (otherRankings.length) {
    out.push('', '<details><summary>Rankings that changed</summary>', '');
    for (const k of otherRankings.slice(0, 40)) {
      out.push(`- ${md(pointLabel(k.values) ?? '')}: ${k.before.map((e) => md(e.variant)).join(' > ')} → ${k.after.map((e) => md(e.variant)).join(' > ')}`);
    }
    out.push('', '</details>');
  }
  const flips = diff.expectations.filter((e) => e.before !== e.after);
  if (flips.length > 6) {
    out.push('', '<details><summary>Every expectation that changed</summary>', '');
    for (const e of flips.slice(0, 40)) out.push(`- ${e.before === null ? 'new' : e.before ? 'PASS' : 'FAIL'} → ${e.after === null ? 'removed' : e.after ? 'PASS' : 'FAIL'}: ${md(e.name)}`);
    out.push('', '</details>');
  }
  return out;
}
