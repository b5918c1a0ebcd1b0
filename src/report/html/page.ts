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
import type { ResultsBundle } from '../../results/bundle.js';
import type { ExpectationOutcome, Results } from '../../results/results.js';
import { planReport, seriesFields } from './plan.js';
import { UNHEALTHY_TEXT, atPoint, cellOf, featuredPointIndex, headlineMeasures, healthyBefore, pointLabel } from '../cells.js';
import { keySettings } from './settings.js';
import { rankingCells, rankingColumns, rankingNote } from '../ranking-view.js';
import { populationMeasures, populationRows } from '../populations-view.js';
import { escapeHtml as esc, inlineJson, inlineScript } from './escape.js';
import { vendorScripts } from './vendor.js';
import { PAGE_SCRIPT } from './page-script.js';
import { STYLE } from './style.js';

const TIME_SERIES = new Set(['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'extra']);

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export function renderReportHtml(b: ResultsBundle): string {
  const r = b.results;
  const plan = planReport(b);
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
${populationSection(r, plan.ctx.colors)}
${over.length > 0 ? `<section id="over-time">\n<h2>Over time</h2>\n${plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}\n${over.map(figure).join('\n')}\n</section>` : plan.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
${across.length > 0 ? `<section id="across-variants">\n<h2>Across variants</h2>\n${across.map(figure).join('\n')}\n</section>` : ''}
<section id="scenario-file">\n<h2>Scenario file</h2>\n<pre id="scenario-source">${esc(b.scenarioSource)}</pre>\n</section>
</main>
<footer>Written by retrystorm from the summary.json and timeseries.csv beside this page (the same bytes whichever folder holds them). Charts: ${vendorScripts().map((v) => `${esc(v.name)} ${esc(v.version)}`).join(', ')}, inlined; this page makes no network request.</footer>
<script type="application/json" id="report-data">${inlineJson(data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

function partialWarning(r: Results): string {
  const msgs: string[] = [];
  if (r.partial) msgs.push(`Partial results: the experiment was interrupted after ${r.runsFinished} of ${r.runsPlanned} runs. Measures cover the finished runs only.`);
  if (r.failedRuns.length > 0) msgs.push(`${r.failedRuns.length} run(s) failed and are left out; see summary.json (failedRuns).`);
  return msgs.map((m) => `<p class="warning" role="alert">${esc(m)}</p>`).join('\n');
}

const swatchOf = (r: Results, colors: string[]) => (variant: string) =>
  `<span class="swatch" style="background:${colors[r.variants.findIndex((v) => v.name === variant)] ?? '#888'}"></span>`;

/** The verdict first: the variants best first, one table per ranked point. Empty without a ranking. */
function rankingSection(r: Results, colors: string[]): string {
  const k = r.ranking;
  if (!k || k.points.length === 0) return '';
  const cols = rankingColumns(r);
  const swatch = swatchOf(r, colors);
  const head = `<tr><th scope="col">rank</th><th scope="col">variant</th>${cols.map((c) => `<th scope="col" title="${esc(c.definition)}">${esc(c.header)}</th>`).join('')}</tr>`;
  const value = (v: number | string | null) => (v === null ? '' : esc(String(v)));
  const tables = k.points.map((p) => {
    const label = pointLabel(p.values);
    const rows = p.entries.map((e) => {
      const cls = [e.variant === k.baseline ? 'baseline' : '', e.healthyBefore ? '' : 'unhealthy'].filter(Boolean).join(' ');
      return `<tr data-variant="${esc(e.variant)}" data-rank="${e.rank}"${cls ? ` class="${cls}"` : ''}><td data-field="rank" data-value="${e.rank}">${e.rank}</td>` +
        `<th scope="row">${swatch(e.variant)}<span class="variant-name">${esc(e.variant)}</span>${e.healthyBefore ? '' : `<span class="flag">${UNHEALTHY_TEXT}</span>`}</th>` +
        rankingCells(r, e).map((c) => `<td data-field="${esc(c.key)}" data-value="${value(c.value)}"><span class="value">${esc(c.text)}</span></td>`).join('') +
        '</tr>';
    }).join('\n');
    return `${label ? `<h3>At ${esc(label)}</h3>\n` : ''}<div class="table-wrap"><table class="ranking-table" data-point="${p.point}">
<thead>${head}</thead>
<tbody>
${rows}
</tbody>
</table></div>`;
  });
  return `<section id="ranking">
<h2>Ranking</h2>
<p class="note">${esc(rankingNote(r))} Means across seeds; hover a column header for its definition.</p>
${tables.join('\n')}
</section>`;
}

/** Expectations that apply to a variant at a point. */
function expectationsAt(r: Results, variant: string, values: Record<string, string | number>): ExpectationOutcome[] {
  return r.expectations.filter((e) => e.variant === variant && Object.entries(e.at).every(([k, v]) => String(values[k]) === String(v)));
}

function expectationText(e: ExpectationOutcome): string {
  return `${e.check} (${e.actual})`;
}

function comparisonSection(r: Results, colors: string[]): string {
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
      return `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span>${c.interval ? `<span class="interval">95% CI ${esc(c.interval)}</span>` : ''}</td>`;
    }).join('');
    const mine = expectationsAt(r, v.name, p.values);
    const exp = withExpectations
      ? `<td data-measure="expectations">${mine.map((e) => `<span class="${e.passed ? 'pass' : 'fail'}">${e.passed ? '✓' : '✗'} ${esc(expectationText(e))}</span>`).join('') || '—'}</td>`
      : '';
    return `<tr data-variant="${esc(v.name)}"${i > 0 ? ' class="same-variant"' : ''}>${name}${cells}${exp}</tr>`;
  })).join('\n');
  const failed = r.expectations.filter((e) => !e.passed).length;
  const summary = withExpectations
    ? `<p class="${failed > 0 ? 'warning' : 'ok'}" id="expectations-summary">${failed > 0 ? `${failed} of ${r.expectations.length} expectation(s) failed.` : `All ${r.expectations.length} expectation(s) passed.`}</p>`
    : '';
  return `<section id="comparison">
<h2>Comparison</h2>
<p class="note">Means across seeds, with 95% confidence intervals; hover a column header for its definition. "not recovered": at least one seed had not recovered when the run ended (a metastable failure).</p>
${summary}
<div class="table-wrap"><table id="comparison-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}

/** Outcomes per population at the featured point: whose users fared how. */
function populationSection(r: Results, colors: string[]): string {
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
    `<td>${esc(row.population)}${row.role === 'attacker' ? ' <span class="flag">attacker</span>' : ''}</td>` +
    row.cells.map((c) => `<td data-measure="${esc(c.key)}"><span class="value">${esc(c.text)}</span></td>`).join('') +
    '</tr>').join('\n');
  return `<section id="populations">
<h2>Per population${at ? ` at ${esc(at)}` : ''}</h2>
<p class="note">How each population's users fared: the verdict is about ${esc(r.subject.join(', '))}; an attacker's refused requests are the service working.</p>
<div class="table-wrap"><table id="population-table">
<thead>${head}</thead>
<tbody>
${body}
</tbody>
</table></div>
</section>`;
}
