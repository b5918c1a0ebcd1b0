/**
 * summary.md: the comparison as GitHub-flavoured Markdown, for pull-request comments and CI
 * step summaries, where the HTML report is one click away but the verdict should not be.
 * It shows the same cells as the HTML table (both come from comparisonRows). User text is
 * entity-escaped: GitHub renders some HTML in Markdown, and a scenario's question is not
 * supposed to add markup to a PR comment; pipes are escaped so a cell cannot break the table.
 */
import type { Results } from './html/results.js';
import { COLUMNS, comparisonRows, expectationText } from './html/comparison.js';
import { formatDuration } from '../scenario/units.js';
import { rankedPointLabel, rankingCells, rankingColumns } from './html/ranking-view.js';

/** Text safe in Markdown: no HTML, no table breaks, on one line when `oneLine`. */
export function mdText(text: string, oneLine = false): string {
  const t = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
  return oneLine ? t.replace(/\s*\n\s*/g, ' ') : t;
}

export function summaryMarkdown(r: Results): string {
  const out: string[] = [];
  out.push(`## retrystorm: ${mdText(r.scenario, true)}`, '');
  if (r.partial) {
    const runs = r.runsPlanned !== null ? ` after ${r.runsFinished ?? '?'} of ${r.runsPlanned} runs` : '';
    out.push(`> [!WARNING]`, `> Partial results: the experiment was interrupted${runs}. Measures cover the finished runs only.`, '');
  }
  if (r.failedRuns > 0) out.push(`> [!WARNING]`, `> ${r.failedRuns} run(s) failed and are left out (see summary.json).`, '');
  if (r.question) out.push(`**Question:** ${mdText(r.question.trim(), true)}`, '');

  out.push(...rankingMarkdown(r));

  const rows = comparisonRows(r);
  const header = ['variant', ...COLUMNS.map((c) => c.header)];
  out.push(`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) {
    const name = `**${mdText(row.variant, true)}**${row.point ? ` (${mdText(row.point, true)})` : ''}`;
    const cells = row.cells.map((c) => mdText(c.interval ? `${c.text} (95%: ${c.interval})` : c.text, true));
    out.push(`| ${[name, ...cells].join(' | ')} |`);
  }
  out.push('');

  const ex = r.expectations ?? [];
  if (ex.length > 0) {
    const failed = ex.filter((e) => !e.passed).length;
    out.push(failed > 0 ? `**Expectations: ${failed} of ${ex.length} failed**` : `**Expectations: all ${ex.length} passed**`, '');
    for (const e of ex) {
      const who = e.variant ? `${mdText(e.variant, true)}: ` : '';
      out.push(`- ${e.passed ? '✅' : '❌'} ${who}${mdText(expectationText(e), true)}`);
    }
    out.push('');
  }

  const seeds = r.seeds.length;
  out.push(`<sub>${formatDuration(r.horizonS)} simulated per run, ${seeds} seed${seeds === 1 ? '' : 's'} per variant; "not recovered": at least one seed had not recovered when the run ended. Charts and the scenario file: report.html.</sub>`);
  return out.join('\n') + '\n';
}

/** The "Ranking" section: one table per ranked point, best first; nothing without a ranking. */
function rankingMarkdown(r: Results): string[] {
  const k = r.ranking;
  if (!k || k.points.length === 0) return [];
  const out = ['### Ranking', '', `Best first: the most seeds recovered, then the shortest recovery time, then the shortest perceived outage, then the highest success ratio. Savings are against **${mdText(k.baseline, true)}**.${k.longestRecoveredParameter !== null ? ` "recovers up to": the longest ${mdText(k.longestRecoveredParameter, true)} swept at which every seed recovered.` : ''}`, ''];
  const header = ['rank', 'variant', ...rankingColumns(k).map((c) => c.header)].map((h) => mdText(h, true));
  for (const p of k.points) {
    const label = rankedPointLabel(p.values);
    if (label) out.push(`**At ${mdText(label, true)}**`, '');
    out.push(`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
    for (const e of p.entries) {
      out.push(`| ${[String(e.rank), `**${mdText(e.variant, true)}**`, ...rankingCells(k, e).map((c) => mdText(c.text, true))].join(' | ')} |`);
    }
    out.push('');
  }
  out.push('### Comparison', '');
  return out;
}
