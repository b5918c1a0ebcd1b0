/**
 * report.html: one self-contained page that opens offline, from a laptop, a CI artifact or
 * a mail attachment. The text (question, ranking, settings, comparison table, scenario file) is
 * rendered here, escaped, so it reads even without JavaScript; the charts are drawn in the
 * browser by the inlined vega builds from one JSON data block.
 *
 * A Content-Security-Policy allows only the page's own scripts (by hash), no network at all
 * (default-src 'none'), and no inline event handlers: a second line of defence should a
 * piece of user text ever slip through unescaped. Vega compiles its expressions with
 * `new Function`, hence 'unsafe-eval'; vega-embed injects its own <style>, hence
 * 'unsafe-inline' for styles. The output is deterministic: same results, same bytes.
 */
import { seedingRows, seedingRule, unrankedCells } from '../seeding-view.js';
import { createHash } from 'node:crypto';
import type { ResultsBundle } from '../../results/bundle.js';
import type { ExpectationOutcome, RankingResult, Results } from '../../results/results.js';
import { planReport, seriesFields, type ReportPlan } from './plan.js';
import { DATASETS } from '../charts/common.js';
import { FLOOR_TEXT, UNHEALTHY_TEXT, atPoint, cellOf, featuredPointIndex, headlineMeasures, healthyBefore, pointLabel } from '../cells.js';
import { keySettings } from './settings.js';
import { compactRankingColumns, onFront, rankingCells, rankingColumns, rankingNote } from '../ranking-view.js';
import { verdictPoint, verdictText } from '../verdict.js';
import { inertNotes } from '../inert-view.js';
import { populationMeasures, populationRows, roleFlag } from '../populations-view.js';
import { actionRows, whenText } from '../actions-view.js';
import { escapeHtml as esc, inlineJson, inlineScript } from './escape.js';
import { vendorScripts } from './vendor.js';
import { PAGE_SCRIPT } from './page-script.js';
import { STYLE } from './style.js';
import { TIER_MEASURE_INFO, tierRows } from '../tiers-view.js';
import { topConsumerRows } from '../top-consumers-view.js';
import { FIT_HEADER, FIT_NOTE, fitRows } from '../observed-view.js';

type RankedPoint = RankingResult['points'][number];

const TIME_SERIES = new Set(['load', 'user-latency', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'extra']);

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy above for a page whose only scripts are `scripts` (as inlined): report.html's, and calibration.html's. */
export function contentSecurityPolicy(scripts: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(' ')} 'unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderReportHtml(b: ResultsBundle): string {
  const r = b.results;
  const plan = planReport(b);
  const scripts = [...vendorScripts().map((v) => inlineScript(v.source)), inlineScript(PAGE_SCRIPT)];
  const csp = contentSecurityPolicy(scripts);

  // Every point's series and point datasets travel once; the page draws the featured one first.
  const data = {
    timeDivisor: plan.ctx.time.divisor,
    featured: plan.featured,
    points: plan.points.map((p) => ({ index: p.index, series: p.series?.variants ?? [], datasets: p.datasets })),
    datasets: { [DATASETS.sweep]: plan.datasets[DATASETS.sweep], [DATASETS.heatmap]: plan.datasets[DATASETS.heatmap], [DATASETS.populations]: plan.datasets[DATASETS.populations], ...(plan.datasets[DATASETS.observed]?.length ? { [DATASETS.observed]: plan.datasets[DATASETS.observed] } : {}) },
    charts: plan.charts.map((c) => ({ id: c.id, datasets: c.datasets, fields: seriesFields(c, plan.series), spec: c.spec })),
  };

  const figure = (c: (typeof plan.charts)[number]) =>
    `<figure class="chart" id="figure-${esc(c.id)}">\n<h3>${esc(c.title)}</h3>\n<p class="caption">${esc(c.caption)}</p>\n<div class="chart-view" id="chart-${esc(c.id)}"></div>\n</figure>`;
  // The first screen: the recovery-time curve (the cliff) with a sweep, else offered load.
  const answerId = plan.charts.some((c) => c.id === 'recovery') ? 'recovery' : 'load';
  const answer = plan.charts.filter((c) => c.id === answerId);
  const over = plan.charts.filter((c) => TIME_SERIES.has(c.id) && c.id !== answerId);
  const heatmap = plan.charts.filter((c) => c.id === 'heatmap');
  const populations = plan.charts.filter((c) => c.id === 'populations');
  const across = plan.charts.filter((c) => !TIME_SERIES.has(c.id) && c.id !== answerId && c.id !== 'heatmap' && c.id !== 'populations');
  const verdict = verdictText(r);

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<title>${esc(r.scenario)} · retrystorm report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<p class="kicker">retrystorm report</p>
<h1 id="scenario-name">${esc(r.scenario)}</h1>
${r.question ? `<p class="question" id="question">${esc(r.question.trim())}</p>` : ''}
${verdict ? `<p class="verdict" id="verdict">${esc(verdict)}</p>` : ''}${inertNotes(r).map((n) => `<p class="note inert">${esc(n)}</p>`).join('')}
${partialWarning(r)}
</header>
<main>
${answerSection(r, plan.ctx.colors, answer.map(figure).join('\n'))}
${comparisonSection(r, plan.ctx.colors, heatmap.map(figure).join('\n'))}${fitSection(r)}
${populationSection(r, plan.ctx.colors, populations.map(figure).join('\n'))}${tierSection(r)}${topConsumersSection(r)}
${actionsSection(r, plan.ctx.colors)}
${over.length > 0 ? `<section id="over-time">\n<h2>Over time</h2>\n${seriesControls(r, plan)}\n${plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}\n${over.map(figure).join('\n')}\n</section>` : plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
${across.length > 0 ? `<section id="across-variants">\n<h2>Across variants</h2>\n${across.map(figure).join('\n')}\n</section>` : ''}
<section id="settings">
<h2>Settings</h2>
${r.description ? `<p class="description" id="description">${esc(r.description.trim())}</p>` : ''}
<dl>
${keySettings(r).map((s) => `<dt>${esc(s.label)}</dt><dd>${esc(s.value)}</dd>`).join('\n')}
</dl>
</section>
<section id="scenario-file">\n<h2>Scenario file</h2>\n<pre id="scenario-source">${esc(b.scenarioSource)}</pre>\n</section>
</main>
<footer>Written by retrystorm from the summary.json and timeseries.csv beside this page (the same bytes whichever folder holds them). Charts: ${vendorScripts().map((v) => `${esc(v.name)} ${esc(v.version)}`).join(', ')}, inlined; this page makes no network request.</footer>
<script type="application/json" id="report-data">${inlineJson(data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

/**
 * What the time series show: a sweep point selector (every point's series are in the page)
 * and a variant filter. It stays at the top of the window while the charts scroll by.
 * Without a script (or a sweep) there is nothing to choose.
 */
function seriesControls(r: Results, plan: ReportPlan): string {
  const select = plan.points.length > 1
    ? `<label>Sweep point <select id="sweep-point">${plan.points.map((p) => `<option value="${p.index}"${p.index === plan.featured ? ' selected' : ''}>${esc(p.label)}${r.ranking?.at && r.ranking.points.some((k) => k.point === p.index) ? ' (compared)' : ''}</option>`).join('')}</select></label>`
    : '';
  const swatch = swatchOf(r, plan.ctx.colors);
  const filter = r.variants.length > 1
    ? `<fieldset id="variant-filter"><legend>Variants</legend>${r.variants.map((v) => `<label>${swatch(v.name)}<input type="checkbox" value="${esc(v.name)}" checked> ${esc(v.name)}</label>`).join('')}</fieldset>`
    : '';
  return select || filter ? `<div class="series-controls" id="series-controls">${select}${filter}</div>` : '';
}

function partialWarning(r: Results): string {
  const msgs: string[] = [];
  if (r.partial) msgs.push(`Partial results: the experiment was interrupted after ${r.runsFinished} of ${r.runsPlanned} runs. Measures cover the finished runs only.`);
  if (r.failedRuns.length > 0) msgs.push(`${r.failedRuns.length} run(s) failed and are left out; see summary.json (failedRuns).`);
  return msgs.map((m) => `<p class="warning" role="alert">${esc(m)}</p>`).join('\n');
}

const swatchOf = (r: Results, colors: string[]) => (variant: string) =>
  `<span class="swatch" style="background:${colors[r.variants.findIndex((v) => v.name === variant)] ?? '#888'}"></span>`;

/** One ranking table: the variants best first at one point, `compact` with the outcome and cost columns only. */
function rankingTable(r: Results, p: RankedPoint, colors: string[], compact: boolean): string {
  const k = r.ranking!;
  const cols = compact ? [...compactRankingColumns(r), ...rankingColumns(r).filter((c) => c.key === 'longestRecovered')] : rankingColumns(r);
  const swatch = swatchOf(r, colors);
  const head = `<tr><th scope="col">#</th><th scope="col">variant</th>${cols.map((c) => `<th scope="col" title="${esc(c.definition)}">${esc(c.header)}</th>`).join('')}</tr>`;
  const value = (v: number | string | null) => (v === null ? '' : esc(String(v)));
  const rows = p.entries.map((e) => {
    const cls = [e.variant === k.baseline ? 'baseline' : '', e.healthyBefore ? '' : 'unhealthy'].filter(Boolean).join(' ');
    const cells = rankingCells(r, e);
    // The front's mark is drawn by CSS beside the rank (.front::after), so it widens no column.
    const front = onFront(e) ? ' class="front" title="On the Pareto front: no variant is as good or better on every objective"' : '';
    return `<tr data-variant="${esc(e.variant)}" data-rank="${e.rank}" data-front="${onFront(e)}"${cls ? ` class="${cls}"` : ''}><td data-field="rank" data-value="${e.rank}"${front}>${e.rank}</td>` +
      `<th scope="row">${swatch(e.variant)}<span class="variant-name">${esc(e.variant)}</span>` +
      `${e.healthyBefore ? '' : `<span class="flag">${UNHEALTHY_TEXT}</span>`}${e.floorsBroken.length > 0 ? `<span class="flag">${FLOOR_TEXT}</span>` : ''}</th>` +
      cols.map((col) => {
        const c = cells.find((x) => x.key === col.key)!;
        // The share saved goes on its own line, so it is not read as an interval.
        const m = col.key === 'outageSavedS' ? /^(.*) \((.*)\)$/.exec(c.text) : null;
        const text = m ? `<span class="value">${esc(m[1])}</span><span class="interval">${esc(m[2])}</span>` : `<span class="value">${esc(c.text)}</span>`;
        return `<td data-field="${esc(c.key)}" data-value="${value(c.value)}">${text}</td>`;
      }).join('') +
      '</tr>';
  }).join('\n');
  return `<div class="table-wrap"><table class="ranking-table${compact ? ' compact' : ''}" data-point="${p.point}">
<thead>${head}</thead>
<tbody>
${rows}
</tbody>
</table></div>`;
}

/**
 * The first screen: the chart that answers the question (recovery time by outage length, or
 * the offered load without a sweep) and the compact ranking at the compared point; every
 * column and the other ranked points are folded below it.
 */
function answerSection(r: Results, colors: string[], chart: string): string {
  const k = r.ranking;
  const shown = verdictPoint(r);
  if (!k || !shown) return chart ? `<section id="answer">\n${chart}\n</section>` : '';
  const label = pointLabel(shown.values);
  const others = k.points.filter((p) => p !== shown);
  return `<section id="answer">
${chart}
<div id="ranking">
<h2>Ranking${label ? ` at ${esc(label)}` : ''}</h2>
${rankingTable(r, shown, colors, true)}
<details id="ranking-details">
<summary>Every ranking column${others.length > 0 ? `, the ranking at ${others.length} other point${others.length === 1 ? '' : 's'}` : ''} and the rule</summary>
<p class="note">${esc(rankingNote(r))} Means across seeds; hover a column header for its definition.</p>
${[shown, ...others].map((p) => `${pointLabel(p.values) ? `<h3>At ${esc(pointLabel(p.values)!)}</h3>\n` : ''}${rankingTable(r, p, colors, false)}`).join('\n')}
${seedingBlock(r)}
</details>
</div>
</section>`;
}

/** With `seeds: auto`: the seeds each variant got at each ranked point, and why. */
function seedingBlock(r: Results): string {
  if (!r.seeding) return '';
  const rows = seedingRows(r);
  const unranked = unrankedCells(r);
  const rest = unranked > 0 ? ` The ${unranked} variant-and-point cells outside the ranked points kept their ${r.seeding.start} start seeds: they draw the curves, not the pick.` : '';
  const sweep = rows.some((row) => row.at !== '');
  return `<div id="seeding">
<h3>Seeds each variant got</h3>
<p class="note">${esc(seedingRule(r.seeding))}${esc(rest)}</p>
<table class="seeding"><thead><tr><th>variant</th>${sweep ? '<th>at</th>' : ''}<th>seeds</th><th>why</th></tr></thead><tbody>
${rows.map((row) => `<tr data-variant="${esc(row.variant)}"><td>${esc(row.variant)}</td>${sweep ? `<td>${esc(row.at)}</td>` : ''}<td class="num">${row.seeds}</td><td>${esc(row.why)}</td></tr>`).join('\n')}
</tbody></table>
</div>`;
}

/** Expectations that apply to a variant at a point. */
function expectationsAt(r: Results, variant: string, values: Record<string, string | number>): ExpectationOutcome[] {
  return r.expectations.filter((e) => e.variant === variant && Object.entries(e.at).every(([k, v]) => String(values[k]) === String(v)));
}

function expectationText(e: ExpectationOutcome): string {
  return `${e.check} (${e.actual})`;
}

function comparisonSection(r: Results, colors: string[], heatmap: string): string {
  const measures = headlineMeasures(r);
  const withExpectations = r.expectations.length > 0;
  const swatch = swatchOf(r, colors);
  const head = `<tr><th scope="col">variant</th>${measures.map((m) => `<th scope="col" title="${esc(m.doc)}">${esc(m.label)}</th>`).join('')}${withExpectations ? '<th scope="col">expectations</th>' : ''}</tr>`;
  const body = r.variants.flatMap((v) => v.points.map((p, i) => {
    const at = pointLabel(p.values);
    const unhealthy = p.runs > 0 && !healthyBefore(p);
    const name = `<th scope="row" data-variant="${esc(v.name)}">${swatch(v.name)}<span class="variant-name">${esc(v.name)}</span>` +
      `${at ? `<span class="point">${esc(at)}</span>` : ''}${unhealthy ? `<span class="flag">${UNHEALTHY_TEXT}</span>` : ''}${v.description && i === 0 ? `<span class="variant-description">${esc(v.description)}</span>` : ''}</th>`;
    const cells = measures.map((m) => {
      const c = cellOf(m, p);
      return `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span>${c.interval ? `<span class="interval">${esc(c.interval).replace('–', '–<wbr>')}</span>` : ''}</td>`;
    }).join('');
    const mine = expectationsAt(r, v.name, p.values);
    const exp = withExpectations
      ? `<td data-measure="expectations">${mine.map((e) => `<span class="${e.passed ? 'pass' : 'fail'}" title="${esc(expectationText(e))}">${e.passed ? '✓' : '✗'} ${esc(e.check)}<span class="interval">${esc(e.actual)}</span></span>`).join('') || '—'}</td>`
      : '';
    return `<tr data-variant="${esc(v.name)}"${i > 0 ? ' class="same-variant"' : ''}>${name}${cells}${exp}</tr>`;
  })).join('\n');
  const failed = r.expectations.filter((e) => !e.passed).length;
  const summary = withExpectations
    ? `<p class="${failed > 0 ? 'warning' : 'ok'}" id="expectations-summary">${failed > 0 ? `${failed} of ${r.expectations.length} expectation(s) failed.` : `All ${r.expectations.length} expectation(s) passed.`}</p>`
    : '';
  const rows = r.variants.reduce((n, v) => n + v.points.length, 0);
  const table = `<p class="note">Means across seeds; under each mean, its 95% confidence interval across seeds. Hover a column header for its definition. "not recovered": at least one seed had not recovered when the run ended (a metastable failure).</p>
<div class="table-wrap"><table id="comparison-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>`;
  // With a sweep the heatmap is the comparison to scan; the numbers stay one click away.
  return `<section id="comparison">
<h2>Comparison</h2>
${summary}
${heatmap ? `${heatmap}\n<details id="comparison-details">\n<summary>Full comparison table (${rows} rows, ${measures.length} measures, with intervals${withExpectations ? ' and expectations' : ''})</summary>\n${table}\n</details>` : table}
</section>`;
}

/** Outcomes per population at the featured point: whose users fared how. */
/**
 * What operators and automation did during the runs at the compared point, in time order per
 * variant, and why: the same rows the time series mark with dashed lines.
 */
function actionsSection(r: Results, colors: string[]): string {
  const featured = featuredPointIndex(r);
  const rows = actionRows(r, featured);
  if (rows.length === 0) return '';
  const swatch = swatchOf(r, colors);
  const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
  const body = rows.map((a, i) =>
    `<tr data-variant="${esc(a.variant)}" data-action="${esc(a.name)}"${i > 0 && rows[i - 1].variant === a.variant ? ' class="same-variant"' : ''}>` +
    `<th scope="row">${swatch(a.variant)}<span class="variant-name">${esc(a.variant)}</span></th>` +
    `<td class="when">${esc(whenText(a))}</td><td>${esc(a.name)}</td><td>${esc(a.kind)}</td>` +
    `<td>${esc(a.why)}${a.note ? ` <span class="flag">${esc(a.note)}</span>` : ''}</td><td>${a.seeds} of ${a.of}</td></tr>`).join('\n');
  return `<section id="actions">
<h2>Operator actions${at ? ` at ${esc(at)}` : ''}</h2>
<p class="note">Actions and autoscaler decisions that took effect during the runs, earliest first (over the seeds, when they differ); the time series mark them with dashed lines.</p>
<div class="table-wrap"><table id="actions-table">
<thead><tr><th scope="col">variant</th><th scope="col">at</th><th scope="col">action</th><th scope="col">effect</th><th scope="col">why</th><th scope="col">seeds</th></tr></thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}

/** The per-tier table of a graph (issue 14), with the call edges as a line of text: edge → api → db. */
function tierSection(r: Results): string {
  const featured = featuredPointIndex(r);
  const rows = tierRows(r, featured);
  if (rows.length === 0) return '';
  const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
  const head = `<tr><th scope="col">variant</th><th scope="col">tier</th>${TIER_MEASURE_INFO.map((m) => `<th scope="col" title="${esc(m.doc)}">${esc(m.label)}</th>`).join('')}</tr>`;
  const body = rows.map((row, i) =>
    `<tr data-variant="${esc(row.variant)}" data-tier="${esc(row.tier)}"${i > 0 && rows[i - 1].variant === row.variant ? ' class="same-variant"' : ''}>` +
    `<th scope="row"><span class="variant-name">${esc(row.variant)}</span></th>` +
    `<td>${esc(row.tier)}${row.callers.length ? ` <span class="note">← ${esc(row.callers.join(', '))}</span>` : ''}</td>` +
    row.cells.map((c) => `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span></td>`).join('') +
    '</tr>').join('\n');
  // The topology as its edges, each with the peak amplification of the tier it reaches.
  const peak = TIER_MEASURE_INFO.findIndex((m) => m.key === 'tierPeakAmplification');
  const variants = [...new Set(rows.map((row) => row.variant))];
  const topology = variants.map((v) => {
    const edges = rows.filter((row) => row.variant === v).flatMap((row) => row.callers.map((c) => `${esc(c)} → ${esc(row.tier)} <span class="value">${esc(row.cells[peak].text)}</span>`));
    return `<li><span class="variant-name">${esc(v)}</span>: users → server; ${edges.join('; ')}</li>`;
  }).join('\n');
  return `<section id="tiers">
<h2>Per tier${at ? ` at ${esc(at)}` : ''}</h2>
<p class="note">Each service of the graph, the edge (server) first, with the services that call it. Amplification: attempts that reached the tier per user action started at the edge (over the run, and at its peak bucket). The calls, with the peak amplification where each one arrives:</p>
<ul id="tier-topology">
${topology}
</ul>
<div class="table-wrap"><table id="tier-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}

/** Each rate-limit stage's busiest keys at the featured point (none without a rate-limit stage). */
function topConsumersSection(r: Results): string {
  const rows = topConsumerRows(r, featuredPointIndex(r));
  if (rows.length === 0) return '';
  const list = (xs: string[]) => xs.map((x) => esc(x)).join('<br>');
  const body = rows.map((row) =>
    `<tr data-variant="${esc(row.variant)}"><th scope="row"><span class="variant-name">${esc(row.variant)}</span></th>` +
    `<td>${esc(row.stage)}</td><td><span class="value">${esc(row.checked)}</span></td><td><span class="value">${esc(row.refused)}</span></td>` +
    `<td>${list(row.bySeen)}</td><td>${row.byRefused ? list(row.byRefused) : '<span class="note">the same</span>'}</td></tr>`).join('\n');
  return `<section id="top-consumers">
<h2>Rate limits: top consumers</h2>
<p class="note">Each rate-limit stage, with the keys that sent it the most requests (and, where they differ, got the most refusals), counted over the run.</p>
<div class="table-wrap"><table id="top-consumers-table">
<thead><tr><th scope="col">variant</th><th scope="col">stage</th><th scope="col">checked</th><th scope="col">refused</th><th scope="col">top keys by requests</th><th scope="col">top keys by refusals</th></tr></thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}

function populationSection(r: Results, colors: string[], chart: string): string {
  const featured = featuredPointIndex(r);
  const rows = populationRows(r, featured);
  if (rows.length === 0) return '';
  const measures = populationMeasures(r);
  const swatch = swatchOf(r, colors);
  const at = pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {});
  const head = `<tr><th scope="col">variant</th><th scope="col">population</th>${measures.map((m) => `<th scope="col" title="${esc(m.doc)}">${esc(m.label)}</th>`).join('')}</tr>`;
  const body = rows.map((row, i) =>
    `<tr data-variant="${esc(row.variant)}" data-population="${esc(row.population)}"${i > 0 && rows[i - 1].variant === row.variant ? ' class="same-variant"' : ''}>` +
    `<th scope="row">${swatch(row.variant)}<span class="variant-name">${esc(row.variant)}</span></th>` +
    `<td>${esc(row.population)}${roleFlag(row.role) ? ` <span class="flag">${esc(roleFlag(row.role)!)}</span>` : ''}</td>` +
    row.cells.map((c) => `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span></td>`).join('') +
    '</tr>').join('\n');
  return `<section id="populations">
<h2>Per population${at ? ` at ${esc(at)}` : ''}</h2>
<p class="note">How each population's users fared at the compared point: the verdict is about ${r.subject.length ? esc(r.subject.join(', ')) : 'no users (only partners, judged by their contracts)'}; a partner refused above its contract, or an attacker refused, is the service working.</p>
${chart}
<details id="population-details"${chart ? '' : ' open'}>
<summary>Every population measure, as a table</summary>
<div class="table-wrap"><table id="population-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>
</details>
</section>`;
}

/** Each variant's fit to the observed incident at the compared point (none without an observed: block). */
function fitSection(r: Results): string {
  const rows = fitRows(r);
  if (rows.length === 0) return '';
  const body = rows.map((f) =>
    `<tr data-variant="${esc(f.variant)}" data-observed="${esc(f.name)}"><th scope="row"><span class="variant-name">${esc(f.variant)}</span></th>` +
    [f.name, f.column, String(f.intervals), f.nrmse, f.observedAt, f.simulatedAt, f.difference].map((c, i) => `<td${i === 3 ? ' data-measure="nrmse"' : ''}><span class="value">${esc(c)}</span></td>`).join('') + '</tr>').join('\n');
  return `
<section id="observed-fit">
<h2>Fit to the observed incident</h2>
<p class="note">${esc(FIT_NOTE)}</p>
<div class="table-wrap"><table id="fit-table">
<thead><tr>${FIT_HEADER.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}
