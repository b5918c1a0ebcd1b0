/**
 * calibration.html: the account of `retrystorm calibrate` as a page a reader checks a fit on by
 * eye, beside calibration.json and calibration.md in the same folder. It holds what
 * calibration.md holds (the fitted values with their intervals, how close each series comes,
 * what the fit could not match: the same cells and sentences, from calibration-text.ts) and
 * what Markdown cannot: the curves, one chart per observed series (charts/calibration.ts).
 *
 * It opens offline under the same rules as report.html (page.ts): the vega builds inlined,
 * every piece of scenario text escaped, the chart specs in one JSON data block, and a
 * Content-Security-Policy that allows only the page's own scripts and no request at all. Same
 * calibration, same bytes.
 */
import type { CalibrationResults } from '../../results/calibration.js';
import { calibrationCaveats, calibrationParameterRows, calibrationSeriesRows, NOTHING_MISSED, NRMSE_NOTE, parameterHeader, SERIES_HEADER } from '../calibration-text.js';
import { calibrationCharts } from '../charts/calibration.js';
import { escapeHtml as esc, inlineJson, inlineScript } from './escape.js';
import { contentSecurityPolicy } from './page.js';
import { STYLE } from './style.js';
import { vendorScripts } from './vendor.js';

/**
 * The page's own script: embeds each chart's spec (which carries its data) in its box. Like
 * report.html's, it writes errors in with textContent, never as markup, and leaves for tests
 * and tools `window.__views` (chart id → vega View), `window.__reportErrors` and, once every
 * chart has rendered or failed, `window.__reportReady = true`.
 */
export const CALIBRATION_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('calibration-data').textContent);
  var views = (window.__views = {});
  var errors = (window.__reportErrors = []);
  var jobs = data.charts.map(function (c) {
    var el = document.getElementById('chart-' + c.id);
    return vegaEmbed(el, c.spec, { mode: 'vega-lite', renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } })
      .then(function (res) { views[c.id] = res.view; return res.view.runAsync(); })
      .catch(function (e) {
        var message = e && e.message ? e.message : String(e);
        errors.push(c.id + ': ' + message);
        var p = document.createElement('p');
        p.className = 'chart-error';
        p.textContent = 'This chart could not be drawn: ' + message;
        el.appendChild(p);
      });
  });
  Promise.all(jobs).then(function () {
    window.__reportReady = true;
    document.documentElement.setAttribute('data-report-ready', 'true');
  });
})();
`;

/** The page's few rules beyond the report's stylesheet. */
const CALIBRATION_STYLE = `
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.fitted { font-weight: 600; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
#caveats li { margin: 4px 0; }
`;

/**
 * The page for a calibration. `question` is the scenario's (calibration.json does not carry
 * it): shown under the name, as report.html shows it.
 */
export function renderCalibrationHtml(r: CalibrationResults, question?: string): string {
  const scripts = [...vendorScripts().map((v) => inlineScript(v.source)), inlineScript(CALIBRATION_SCRIPT)];
  const charts = calibrationCharts(r);
  const data = { charts: charts.map((c) => ({ id: c.id, spec: c.spec })) };
  const caveats = calibrationCaveats(r);
  const level = `${Math.round(r.level * 100)}%`;
  const how = `Variant ${r.variant} fitted to the observed series by ${r.trials} trials of ${r.seeds} seed(s) each (${r.runs} runs), ${r.partial ? 'stopped before the end' : `ended by ${r.ended === 'budget' ? 'its budget' : 'the search itself'}`}; ${r.partial ? 'no intervals' : `${level} intervals from ${r.intervalSeeds} refits on incidents drawn at the fit`}. Base seed ${r.seed}.`;
  const partial = r.partial
    ? `<p class="warning" role="alert" id="partial">Partial calibration: it was stopped after ${r.trials} trials. The values are the best found so far, with no interval, and the charts have no band of the fitted runs' spread.</p>`
    : '';
  const params = calibrationParameterRows(r);
  const series = calibrationSeriesRows(r);
  const figure = (c: (typeof charts)[number]) =>
    `<figure class="chart" id="figure-${esc(c.id)}" data-series="${esc(c.series)}">\n<h3>${esc(c.title)}</h3>\n<p class="caption">${esc(c.caption)}</p>\n<div class="chart-view" id="chart-${esc(c.id)}"></div>\n</figure>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(scripts))}">
<title>${esc(r.scenario)} · retrystorm calibration</title>
<style>${STYLE}${CALIBRATION_STYLE}</style>
</head>
<body>
<header>
<p class="kicker">retrystorm calibration</p>
<h1 id="scenario-name">${esc(r.scenario)}</h1>
${question?.trim() ? `<p class="question" id="question">${esc(question.trim())}</p>` : ''}
${partial}
<p class="note" id="how">${esc(how)}</p>
</header>
<main>
<section id="parameters">
<h2>Fitted values</h2>
<div class="table-wrap"><table id="parameter-table">
<thead><tr>${parameterHeader(r).map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${params.map((p) => `<tr data-parameter="${esc(p.parameter)}"><th scope="row"><code>${esc(p.parameter)}</code></th><td>${esc(p.start)}</td><td class="fitted">${esc(p.fitted)}</td><td>${esc(p.interval)}</td><td>${esc(p.range)}</td></tr>`).join('\n')}
</tbody>
</table></div>
</section>
<section id="series-fit">
<h2>How close each observed series comes</h2>
<p class="note">${esc(NRMSE_NOTE)}.</p>
<div class="table-wrap"><table id="series-table">
<thead><tr>${SERIES_HEADER.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${series.map((s) => `<tr data-series="${esc(s.name)}"><th scope="row">${esc(s.name)}</th><td>${esc(s.column)}</td><td class="num">${esc(s.intervals)}</td><td class="num">${esc(s.start)}</td><td class="num fitted">${esc(s.fitted)}</td><td class="num">${esc(s.noise)}</td></tr>`).join('\n')}
</tbody>
</table></div>
</section>
<section id="could-not-match">
<h2>What the fit could not match</h2>
${caveats.length === 0 ? `<p class="ok" id="nothing-missed">${esc(NOTHING_MISSED)}</p>` : `<ul id="caveats">\n${caveats.map((c) => `<li>${esc(c)}</li>`).join('\n')}\n</ul>`}
</section>
<section id="curves">
<h2>The curves</h2>
${charts.map(figure).join('\n')}
</section>
<p id="next">Compare the policies on the fitted world: <code>retrystorm run ${esc(r.fitted)}</code>.</p>
</main>
<footer>Written by retrystorm calibrate for ${esc(r.file)}, with calibration.json (every number, every trial) and calibration.md beside it. Charts: ${vendorScripts().map((v) => `${esc(v.name)} ${esc(v.version)}`).join(', ')}, inlined; this page makes no network request.</footer>
<script type="application/json" id="calibration-data">${inlineJson(data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}
