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
import { createHash } from 'node:crypto';
import type { Results } from './results.js';
import { planReport, seriesFields } from './plan.js';
import { COLUMNS, comparisonRows, expectationText } from './comparison.js';
import { keySettings } from './settings.js';
import { rankedPointLabel, rankingCells, rankingColumns } from './ranking-view.js';
import { escapeHtml as esc, inlineJson, inlineScript } from './escape.js';
import { vendorScripts } from './vendor.js';
import { PAGE_SCRIPT } from './page-script.js';
import { STYLE } from './style.js';

const TIME_SERIES = new Set(['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'extra']);

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export function renderReportHtml(r: Results): string {
  const plan = planReport(r);
  const scripts = [...vendorScripts().map((v) => inlineScript(v.source)), inlineScript(PAGE_SCRIPT)];
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(' ')} 'unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  const data = {
    timeDivisor: plan.ctx.time.divisor,
    series: plan.series?.variants ?? [],
    datasets: plan.datasets,
    charts: plan.charts.map((c) => ({ id: c.id, datasets: c.datasets, fields: seriesFields(c, plan.series), spec: c.spec })),
  };

  const figure = (c: (typeof plan.charts)[number]) =>
    `<figure class="chart" id="figure-${esc(c.id)}">\n<h3>${esc(c.title)}</h3>\n<p class="caption">${esc(c.caption)}</p>\n<div class="chart-view" id="chart-${esc(c.id)}"></div>\n</figure>`;
  const over = plan.charts.filter((c) => TIME_SERIES.has(c.id));
  const across = plan.charts.filter((c) => !TIME_SERIES.has(c.id));

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
${r.description ? `<p class="description" id="description">${esc(r.description.trim())}</p>` : ''}
${partialWarning(r)}
</header>
<main>
${rankingSection(r, plan.ctx.colors)}
<section id="settings">
<h2>Settings</h2>
<dl>
${keySettings(r).map((s) => `<dt>${esc(s.label)}</dt><dd>${esc(s.value)}</dd>`).join('\n')}
</dl>
</section>
${comparisonSection(r, plan.ctx.colors)}
${over.length > 0 ? `<section id="over-time">\n<h2>Over time</h2>\n${plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}\n${over.map(figure).join('\n')}\n</section>` : plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
${across.length > 0 ? `<section id="across-variants">\n<h2>Across variants</h2>\n${across.map(figure).join('\n')}\n</section>` : ''}
${r.scenarioSource !== null ? `<section id="scenario-file">\n<h2>Scenario file</h2>\n<pre id="scenario-source">${esc(r.scenarioSource)}</pre>\n</section>` : ''}
</main>
<footer>Written by retrystorm from ${esc(r.dir.split(/[\\/]/).pop() ?? '')}/summary.json and timeseries.csv. Charts: ${vendorScripts().map((v) => `${esc(v.name)} ${esc(v.version)}`).join(', ')}, inlined; this page makes no network request.</footer>
<script type="application/json" id="report-data">${inlineJson(data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

function partialWarning(r: Results): string {
  const msgs: string[] = [];
  if (r.partial) msgs.push(`Partial results: the experiment was interrupted${r.runsPlanned !== null ? ` after ${r.runsFinished ?? '?'} of ${r.runsPlanned} runs` : ''}. Measures cover the finished runs only.`);
  if (r.failedRuns > 0) msgs.push(`${r.failedRuns} run(s) failed and are left out; see summary.json (failedRuns).`);
  return msgs.map((m) => `<p class="warning" role="alert">${esc(m)}</p>`).join('\n');
}

/** The verdict first: the variants best first, one table per ranked point. Empty without a ranking in summary.json. */
function rankingSection(r: Results, colors: string[]): string {
  const k = r.ranking;
  if (!k || k.points.length === 0) return '';
  const cols = rankingColumns(k);
  const swatch = (variant: string) => `<span class="swatch" style="background:${colors[r.variants.findIndex((v) => v.name === variant)] ?? '#888'}"></span>`;
  const head = `<tr><th scope="col">rank</th><th scope="col">variant</th>${cols.map((c) => `<th scope="col" title="${esc(c.definition)}">${esc(c.header)}</th>`).join('')}</tr>`;
  const value = (v: number | string | null) => (v === null ? '' : esc(String(v)));
  const tables = k.points.map((p) => {
    const label = rankedPointLabel(p.values);
    const rows = p.entries.map((e) =>
      `<tr data-variant="${esc(e.variant)}" data-rank="${e.rank}"${e.variant === k.baseline ? ' class="baseline"' : ''}><td data-field="rank" data-value="${e.rank}">${e.rank}</td>` +
      `<th scope="row">${swatch(e.variant)}<span class="variant-name">${esc(e.variant)}</span></th>` +
      rankingCells(k, e).map((c) => `<td data-field="${esc(c.key)}" data-value="${value(c.value)}"><span class="value">${esc(c.text)}</span></td>`).join('') +
      '</tr>').join('\n');
    return `${label ? `<h3>At ${esc(label)}</h3>\n` : ''}<div class="table-wrap"><table class="ranking-table" data-point="${p.point}">
<thead>${head}</thead>
<tbody>
${rows}
</tbody>
</table></div>`;
  });
  return `<section id="ranking">
<h2>Ranking</h2>
<p class="note">Best first: the most seeds recovered, then the shortest recovery time (not recovered last), then the shortest perceived outage, then the highest success ratio; tied variants share a rank. Savings are against ${esc(k.baseline)}.${k.longestRecoveredParameter !== null ? ` "recovers up to": the longest ${esc(k.longestRecoveredParameter)} swept at which every seed recovered.` : ''} Means across seeds; hover a column header for its definition.</p>
${tables.join('\n')}
</section>`;
}

function comparisonSection(r: Results, colors: string[]): string {
  const rows = comparisonRows(r);
  const withExpectations = r.expectations !== null && r.expectations.length > 0;
  const swatch = (variant: string) => `<span class="swatch" style="background:${colors[r.variants.findIndex((v) => v.name === variant)] ?? '#888'}"></span>`;
  const head = `<tr><th scope="col">variant</th>${COLUMNS.map((c) => `<th scope="col" title="${esc(c.definition)}">${esc(c.header)}</th>`).join('')}${withExpectations ? '<th scope="col">expectations</th>' : ''}</tr>`;
  const body = rows.map((row, i) => {
    // With a sweep a variant has several rows; its description is shown on the first only.
    const same = i > 0 && rows[i - 1].variant === row.variant;
    const name = `<th scope="row" data-variant="${esc(row.variant)}">${swatch(row.variant)}<span class="variant-name">${esc(row.variant)}</span>` +
      `${row.point ? `<span class="point">${esc(row.point)}</span>` : ''}${row.description ? `<span class="variant-description">${esc(row.description)}</span>` : ''}</th>`;
    const cells = row.cells.map((c) => `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span>${c.interval ? `<span class="interval">95%: ${esc(c.interval)}</span>` : ''}</td>`).join('');
    const exp = withExpectations
      ? `<td data-measure="expectations">${row.expectations.map((e) => `<span class="${e.passed ? 'pass' : 'fail'}">${e.passed ? '✓' : '✗'} ${esc(expectationText(e))}</span>`).join('') || '—'}</td>`
      : '';
    return `<tr data-variant="${esc(row.variant)}"${same ? ' class="same-variant"' : ''}>${name}${cells}${exp}</tr>`;
  }).join('\n');
  const failed = (r.expectations ?? []).filter((e) => !e.passed).length;
  const summary = withExpectations
    ? `<p class="${failed > 0 ? 'warning' : 'ok'}" id="expectations-summary">${failed > 0 ? `${failed} of ${r.expectations!.length} expectation(s) failed.` : `All ${r.expectations!.length} expectation(s) passed.`}</p>`
    : '';
  // Expectations that name no variant shown in the table (older or unknown shapes) still get listed.
  const shown = new Set(rows.flatMap((row) => row.expectations));
  const loose = (r.expectations ?? []).filter((e) => !shown.has(e));
  const looseList = loose.length > 0
    ? `<ul id="other-expectations">${loose.map((e) => `<li class="${e.passed ? 'pass' : 'fail'}">${e.passed ? '✓' : '✗'} ${esc(e.actual ? `${e.name} (${e.actual})` : e.name)}</li>`).join('')}</ul>`
    : '';
  return `<section id="comparison">
<h2>Comparison</h2>
<p class="note">Means across seeds; hover a column header for its definition. "not recovered": at least one seed had not recovered when the run ended (a metastable failure).</p>
${summary}
<div class="table-wrap"><table id="comparison-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>
${looseList}
</section>`;
}
