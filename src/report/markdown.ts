/**
 * summary.md: the results as GitHub-flavoured Markdown, for pull-request comments and CI
 * step summaries, where the HTML report is one click away but the verdict should not be.
 * It shows the same cells as the HTML tables (both come from cells.ts). User text is
 * entity-escaped: GitHub renders some HTML in Markdown, and a scenario's question is not
 * supposed to add markup to a PR comment; pipes are escaped so a cell cannot break a table.
 */
import { inertNotes } from './inert-view.js';
import { showControls } from './visible-text.js';
import { isReportLink } from './report-link.js';
import { seedRange, seedingRows, seedingRule } from './seeding-view.js';
import type { ResultsBundle } from '../results/bundle.js';
import { clockOf, type ExpectationOutcome, type Results } from '../results/results.js';
import { formatDuration } from '../scenario/units.js';
import { UNHEALTHY_TEXT, atPoint, cellOf, featuredPointIndex, headlineMeasures, healthyBefore, pointLabel } from './cells.js';
import { compactRankingColumns, rankingCells, rankingColumns, rankingNote } from './ranking-view.js';
import { verdictPoint, verdictText } from './verdict.js';
import { populationRows, populationMeasures, roleFlag } from './populations-view.js';
import { TIER_MEASURE_INFO, tierRows } from './tiers-view.js';
import { topConsumerRows } from './top-consumers-view.js';
import { FIT_HEADER, FIT_NOTE, fitRows } from './observed-view.js';
import { searchHeading, tippingSentence, triedRows, TRIED_HEADER } from './search-view.js';

/** Text safe in Markdown: no HTML, no table breaks, on one line when `oneLine`. */
export function mdText(text: string, oneLine = false): string {
  // A "]" that would close a link's text or a reference ("](", "][", "]:") is escaped:
  // "[x](javascript:…)" in a question must not become a link where a renderer does not
  // sanitise, while "faults[0].duration" stays as written. Control characters shown, not obeyed.
  const t = showControls(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\](?=[([:])/g, '\\]');
  return oneLine ? t.replace(/\s*\n\s*/g, ' ') : t;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [row(header), row(header.map(() => '---')), ...rows.map(row)];

export interface SummaryOptions {
  /**
   * Where report.html is, as the reader of summary.md will reach it: by default the relative
   * path "report.html" (right when summary.md sits beside it); a CI job passes its artifact URL
   * (--report-url or RETRYSTORM_REPORT_URL).
   */
  reportLink?: string;
}

/**
 * A link target safe inside Markdown's (…): an http(s) URL or a relative path (anything with
 * another scheme, such as javascript:, is not a link to a report, and falls back to
 * "report.html"), with spaces, angle brackets, parentheses and control characters encoded.
 */
export function mdLink(url: string): string {
  const target = isReportLink(url) ? url.trim() : 'report.html';
  return target.replace(/[\s<>()\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}


/** Lines before the fold stay few: more failed expectations than this are listed in the fold. */
const MAX_FAILED_SHOWN = 15;
const MAX_PASSED_SHOWN = 5;

/**
 * summary.md: everything a reviewer needs before the `<details>` fold (28 lines for the
 * flagship): the question, the verdict sentence, the ranking at the compared point with its
 * cost columns, the failed expectations, and the link to report.html. The full comparison,
 * the per-population table and the other ranked points are folded below it.
 */
export function summaryMarkdown(b: ResultsBundle, opts: SummaryOptions = {}): string {
  const r = b.results;
  const link = mdLink(opts.reportLink ?? 'report.html');
  const out: string[] = [];
  out.push(`## retrystorm: ${mdText(r.scenario, true)}`, '');
  if (r.partial) {
    out.push(`> [!WARNING]`, `> Partial results: the experiment was interrupted after ${r.runsFinished} of ${r.runsPlanned} runs. Measures cover the finished runs only.`, '');
  }
  if (r.failedRuns.length > 0) out.push(`> [!WARNING]`, `> ${r.failedRuns.length} run(s) failed and are left out (see summary.json).`, '');
  if (r.question) out.push(`**Question:** ${mdText(r.question.trim(), true)}`, '');
  const verdict = verdictText(r);
  if (verdict) out.push(`**Verdict:** ${mdText(verdict, true)}`, '');
  for (const note of inertNotes(r)) out.push('> [!NOTE]', `> ${mdText(note, true)}`, '');

  const shown = verdictPoint(r);
  out.push(...rankingMarkdown(r, shown ? [shown] : [], true));
  if (r.search) {
    const s = r.search;
    out.push(`**${mdText(searchHeading(s), true)}**`, '', ...s.variants.map((v) => `- **${mdText(v.variant, true)}** ${mdText(tippingSentence(s, v), true)}`), '');
  }
  const ex = expectationsMarkdown(r);
  out.push(...ex.before);
  out.push(`**[Full report with charts](${link})** · ${formatDuration(r.horizonS)} simulated per run${ownHorizons(r)}, ${seedsPhrase(r)}; "not recovered": at least one seed had not recovered when the run ended.`, '');

  // The fold: what a reviewer reads only when they want the detail.
  const fits = fitRows(r);
  if (fits.length > 0) {
    out.push('### Fit to the observed incident', '', mdText(FIT_NOTE, true), '');
    out.push(...table(FIT_HEADER, fits.map((f) => [f.variant, f.name, f.column, String(f.intervals), f.nrmse, f.observedAt, f.simulatedAt, f.difference].map((c) => mdText(c, true)))), '');
  }
  out.push('<details>', `<summary>Full comparison${r.variants.length > 0 ? ` (${r.variants.reduce((n, v) => n + v.points.length, 0)} rows)` : ''}, per population${ex.folded.length > 0 ? ', more expectations' : ''} and the ranking rule</summary>`, '');
  out.push(...ex.folded);
  if (r.ranking && r.ranking.points.length > 0) {
    out.push(mdText(rankingNote(r), true), '');
    const others = r.ranking.points.filter((p) => p !== shown);
    out.push(...rankingMarkdown(r, others, false));
  }
  if (r.seeding) {
    const rows = seedingRows(r);
    const sweep = rows.some((row) => row.at !== '');
    out.push('### Seeds each variant got', '', mdText(seedingRule(r.seeding), true), '');
    out.push(...table(['variant', ...(sweep ? ['at'] : []), 'seeds', 'why'], rows.map((row) => [mdText(row.variant, true), ...(sweep ? [mdText(row.at, true)] : []), String(row.seeds), mdText(row.why, true)])), '');
  }
  if (r.search) {
    out.push('### Tipping points: the runs at each tried value', '', 'Recovered runs of all at each value the search tried; in brackets, the Wilson 95% interval of the probability of recovering.', '');
    for (const v of r.search.variants) {
      out.push(`**${mdText(v.variant, true)}**`, '', ...table(TRIED_HEADER, triedRows(r.search, v).map((row) => row.map((c) => mdText(c, true)))), '');
    }
  }
  out.push('### Comparison', '', 'Means across seeds; in brackets, the 95% confidence interval across seeds.', '');
  const measures = headlineMeasures(r);
  out.push(...table(['variant', ...measures.map((m) => mdText(m.label, true))], r.variants.flatMap((v) => v.points.map((p) => {
    const at = pointLabel(p.values);
    const name = `**${mdText(v.name, true)}**${at ? ` (${mdText(at, true)})` : ''}${p.runs > 0 && !healthyBefore(p) ? ` ⚠ ${UNHEALTHY_TEXT}` : ''}`;
    return [name, ...measures.map((m) => {
      const c = cellOf(m, p);
      return mdText(c.interval && c.interval !== `${c.text}–${c.text}` ? `${c.text} [${c.interval}]` : c.text, true);
    })];
  }))));
  out.push('');

  const featured = featuredPointIndex(r);
  const pops = populationRows(r, featured);
  if (pops.length > 0) {
    const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
    out.push(`### Per population${at ? ` (at ${mdText(at, true)})` : ''}`, '');
    const ms = populationMeasures(r);
    out.push(...table(['variant', 'population', ...ms.map((m) => mdText(m.label, true))], pops.map((p) => [mdText(p.variant, true), mdText(p.population, true) + (roleFlag(p.role) ? ` (${roleFlag(p.role)})` : ''), ...p.cells.map((c) => mdText(c.text, true))])));
    out.push('');
  }
  const tiers = tierRows(r, featured);
  if (tiers.length > 0) {
    const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
    out.push(`### Per tier${at ? ` (at ${mdText(at, true)})` : ''}`, '', 'Each service of the graph, the edge (server) first; amplification is attempts at the tier per user action at the edge.', '');
    out.push(...table(['variant', 'tier', ...TIER_MEASURE_INFO.map((m) => mdText(m.label, true))], tiers.map((t) => [mdText(t.variant, true), mdText(t.tier, true) + (t.callers.length ? ` ← ${mdText(t.callers.join(', '), true)}` : ''), ...t.cells.map((c) => mdText(c.text, true))])));
    out.push('');
  }
  const consumers = topConsumerRows(r, featured);
  if (consumers.length > 0) {
    out.push('### Rate limits: top consumers', '', 'Each rate-limit stage, with the keys that sent it the most requests (and, where they differ, got the most refusals).', '');
    out.push(...table(['variant', 'stage', 'checked', 'refused', 'top keys by requests', 'top keys by refusals'], consumers.map((c) => [mdText(c.variant, true), mdText(c.stage, true), c.checked, c.refused, mdText(c.bySeen.join('; '), true), mdText(c.byRefused ? c.byRefused.join('; ') : 'the same', true)])));
    out.push('');
  }
  out.push('</details>');
  return out.join('\n') + '\n';
}

/** "❌ retries at faults[0].duration=5m: recovery time at most 1m — measured: not every seed recovered (0 of 2 did)". */
function expectationLine(e: ExpectationOutcome): string {
  return `- ${e.passed ? '✅' : '❌'} ${mdText(e.name, true)} — measured: ${mdText(e.actual, true)}`;
}

/** Failed expectations first, before the fold: they are what a reviewer has to act on; passed ones are counted, listed when few. */
function expectationsMarkdown(r: Results): { before: string[]; folded: string[] } {
  const ex = r.expectations;
  if (ex.length === 0) return { before: [], folded: [] };
  const failed = ex.filter((e) => !e.passed);
  const passed = ex.filter((e) => e.passed);
  const before = [failed.length > 0 ? `**Expectations: ${failed.length} of ${ex.length} failed**` : `**Expectations: all ${ex.length} passed**`, ''];
  const folded: string[] = [];
  before.push(...failed.slice(0, MAX_FAILED_SHOWN).map(expectationLine));
  if (failed.length > MAX_FAILED_SHOWN) {
    before.push(`- … and ${failed.length - MAX_FAILED_SHOWN} more failed (below)`);
    folded.push(...failed.slice(MAX_FAILED_SHOWN).map(expectationLine));
  }
  if (passed.length <= MAX_PASSED_SHOWN) before.push(...passed.map(expectationLine));
  else {
    before.push(`- ✅ ${passed.length} passed (listed below)`);
    folded.push(...passed.map(expectationLine));
  }
  before.push('');
  if (folded.length > 0) {
    folded.unshift('### Expectations', '');
    folded.push('');
  }
  return { before, folded };
}

/** Ranking tables, best first, for the given points: compact (the cost columns) before the fold, every column inside it. */
function rankingMarkdown(r: Results, points: NonNullable<Results['ranking']>['points'], compact: boolean): string[] {
  const k = r.ranking;
  if (!k || points.length === 0) return [];
  const out: string[] = [];
  const cols = compact ? compactRankingColumns(r) : rankingColumns(r);
  for (const p of points) {
    const label = pointLabel(p.values);
    out.push(`### Ranking${label ? ` at ${mdText(label, true)}` : ''}`, '');
    out.push(...table(['#', 'variant', ...cols.map((c) => mdText(c.header, true))], p.entries.map((e) => {
      const cells = rankingCells(r, e);
      return [String(e.rank), `**${mdText(e.variant, true)}**`, ...cols.map((c) => mdText(cells.find((x) => x.key === c.key)!.text, true))];
    })));
    out.push('');
  }
  if (compact && k.longestRecoveredParameter) {
    out.push(`Recovers up to (every seed recovered at each ${mdText(k.longestRecoveredParameter, true)} swept up to it): ${points[0].entries.map((e) => `${mdText(e.variant, true)} ${e.longestRecovered === null || e.longestRecovered === undefined ? 'none' : mdText(String(e.longestRecovered), true)}`).join(', ')}.`, '');
  }
  return out;
}

/** " (manual-switch-4h: 4h30m)": the variants whose overlay sets a horizon of their own. */
function ownHorizons(r: Results): string {
  const own = r.variants.filter((v) => clockOf(r, v).horizonS !== r.horizonS).map((v) => `${v.name}: ${formatDuration(clockOf(r, v).horizonS)}`);
  return own.length === 0 ? '' : ` (${own.join(', ')})`;
}

/** "3 seeds per variant", or under `seeds: auto` "2 to 8 seeds per variant (seeds: auto: where they decide the ranking)". */
function seedsPhrase(r: Results): string {
  if (r.seeding) {
    const range = seedRange(r.seeding.cells);
    return `${range} seed${range === '1' ? '' : 's'} per variant (seeds: auto: more where they decide the ranking)${r.partial ? ' (partial: fewer where runs did not finish)' : ''}`;
  }
  return `${r.partial ? 'up to ' : ''}${r.seeds.length} seed${r.seeds.length === 1 ? '' : 's'} per variant${r.partial ? ' (partial: fewer where runs did not finish)' : ''}`;
}
