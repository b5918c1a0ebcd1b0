/**
 * summary.md: the results as GitHub-flavoured Markdown, for pull-request comments and CI
 * step summaries, where the HTML report is one click away but the verdict should not be.
 * It shows the same cells as the HTML tables (both come from cells.ts). User text is
 * entity-escaped: GitHub renders some HTML in Markdown, and a scenario's question is not
 * supposed to add markup to a PR comment; pipes are escaped so a cell cannot break a table.
 */
import type { ResultsBundle } from '../results/bundle.js';
import type { Results } from '../results/results.js';
import { formatDuration } from '../scenario/units.js';
import { UNHEALTHY_TEXT, atPoint, cellOf, featuredPointIndex, headlineMeasures, healthyBefore, pointLabel } from './cells.js';
import { rankingCells, rankingColumns, rankingNote } from './ranking-view.js';
import { populationRows, populationMeasures } from './populations-view.js';

/** Text safe in Markdown: no HTML, no table breaks, on one line when `oneLine`. */
export function mdText(text: string, oneLine = false): string {
  const t = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
  return oneLine ? t.replace(/\s*\n\s*/g, ' ') : t;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [row(header), row(header.map(() => '---')), ...rows.map(row)];

export function summaryMarkdown(b: ResultsBundle): string {
  const r = b.results;
  const out: string[] = [];
  out.push(`## retrystorm: ${mdText(r.scenario, true)}`, '');
  if (r.partial) {
    out.push(`> [!WARNING]`, `> Partial results: the experiment was interrupted after ${r.runsFinished} of ${r.runsPlanned} runs. Measures cover the finished runs only.`, '');
  }
  if (r.failedRuns.length > 0) out.push(`> [!WARNING]`, `> ${r.failedRuns.length} run(s) failed and are left out (see summary.json).`, '');
  if (r.question) out.push(`**Question:** ${mdText(r.question.trim(), true)}`, '');

  out.push(...rankingMarkdown(r));
  out.push(...expectationsMarkdown(r));

  out.push('### Comparison', '');
  const measures = headlineMeasures(r);
  out.push(...table(['variant', ...measures.map((m) => mdText(m.label, true))], r.variants.flatMap((v) => v.points.map((p) => {
    const at = pointLabel(p.values);
    const name = `**${mdText(v.name, true)}**${at ? ` (${mdText(at, true)})` : ''}${p.runs > 0 && !healthyBefore(p) ? ` ⚠ ${UNHEALTHY_TEXT}` : ''}`;
    return [name, ...measures.map((m) => {
      const c = cellOf(m, p);
      return mdText(c.interval ? `${c.text} (95% CI ${c.interval})` : c.text, true);
    })];
  }))));
  out.push('');

  const featured = featuredPointIndex(r);
  const pops = populationRows(r, featured);
  if (pops.length > 0) {
    const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
    out.push(`### Per population${at ? ` (at ${mdText(at, true)})` : ''}`, '');
    const ms = populationMeasures(r);
    out.push(...table(['variant', 'population', ...ms.map((m) => mdText(m.label, true))], pops.map((p) => [mdText(p.variant, true), mdText(p.population, true) + (p.role === 'attacker' ? ' (attacker)' : ''), ...p.cells.map((c) => mdText(c.text, true))])));
    out.push('');
  }

  const seeds = r.seeds.length;
  out.push(`<sub>${formatDuration(r.horizonS)} simulated per run, ${seeds} seed${seeds === 1 ? '' : 's'} per variant; "not recovered": at least one seed had not recovered when the run ended. Charts and the scenario file: report.html.</sub>`);
  return out.join('\n') + '\n';
}

/** Failed expectations first: they are what a reviewer has to act on. */
function expectationsMarkdown(r: Results): string[] {
  const ex = r.expectations;
  if (ex.length === 0) return [];
  const failed = ex.filter((e) => !e.passed);
  const out = [failed.length > 0 ? `**Expectations: ${failed.length} of ${ex.length} failed**` : `**Expectations: all ${ex.length} passed**`, ''];
  for (const e of [...failed, ...ex.filter((x) => x.passed)]) {
    out.push(`- ${e.passed ? '✅' : '❌'} ${mdText(e.name, true)}: ${mdText(e.actual, true)}`);
  }
  out.push('');
  return out;
}

/** The "Ranking" section: one table per ranked point, best first; nothing without a ranking. */
function rankingMarkdown(r: Results): string[] {
  const k = r.ranking;
  if (!k || k.points.length === 0) return [];
  const out = ['### Ranking', '', mdText(rankingNote(r), true), ''];
  const cols = rankingColumns(r);
  for (const p of k.points) {
    const label = pointLabel(p.values);
    if (label) out.push(`**At ${mdText(label, true)}**`, '');
    out.push(...table(['rank', 'variant', ...cols.map((c) => mdText(c.header, true))], p.entries.map((e) => [String(e.rank), `**${mdText(e.variant, true)}**`, ...rankingCells(r, e).map((c) => mdText(c.text, true))])));
    out.push('');
  }
  return out;
}
