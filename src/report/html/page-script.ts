/**
 * The report page's own script, as browser JavaScript text. It reads the JSON data block,
 * turns the columnar time series into rows once (columns keep the file small; vega-lite
 * wants rows), gives every chart its own shallow copy (vega tags the objects it ingests, so
 * views must not share them) and embeds each spec. It never writes data into the page as
 * markup: error messages go in with textContent.
 *
 * For tests and tools it leaves `window.__views` (chart id → vega View), `window.__reportErrors`
 * and, when every chart has rendered or failed, `window.__reportReady = true` with
 * `window.__reportTimings` (ms since navigation start), which docs/report.md's figures use.
 */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  // When the page script starts, everything before it (HTML, the vega builds) is parsed and run.
  var started = performance.now();
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var views = (window.__views = {});
  var errors = (window.__reportErrors = []);
  var rows = [];
  (data.series || []).forEach(function (v) {
    var keys = Object.keys(v.data);
    var n = v.data.t.length;
    for (var i = 0; i < n; i++) {
      var row = { variant: v.variant };
      for (var k = 0; k < keys.length; k++) row[keys[k]] = v.data[keys[k]][i];
      row.t = v.data.t[i] / data.timeDivisor;
      rows.push(row);
    }
  });
  var sets = Object.assign({ series: rows }, data.datasets);
  // Each chart gets its own rows (vega tags the objects it ingests), holding only the series
  // columns it reads.
  function copy(name, fields) {
    var src = sets[name] || [];
    if (name !== 'series') return src.map(function (r) { return Object.assign({}, r); });
    return src.map(function (r) {
      var o = {};
      for (var i = 0; i < fields.length; i++) o[fields[i]] = r[fields[i]];
      return o;
    });
  }
  var jobs = data.charts.map(function (c) {
    var el = document.getElementById('chart-' + c.id);
    var spec = c.spec;
    spec.datasets = {};
    c.datasets.forEach(function (n) { spec.datasets[n] = copy(n, c.fields); });
    return vegaEmbed(el, spec, {
      mode: 'vega-lite',
      renderer: 'svg',
      actions: { export: true, source: false, compiled: false, editor: false },
    }).then(function (res) {
      views[c.id] = res.view;
      // A double-click shows every variant again: it empties the legend selection's store.
      el.addEventListener('dblclick', function () {
        var view = res.view;
        try { view.data('pick_store'); } catch (e) { return; }
        view.change('pick_store', vega.changeset().remove(function () { return true; })).runAsync();
      });
      return res.view.runAsync();
    }).catch(function (e) {
      errors.push(c.id + ': ' + (e && e.message ? e.message : String(e)));
      var p = document.createElement('p');
      p.className = 'chart-error';
      p.textContent = 'This chart could not be drawn: ' + (e && e.message ? e.message : String(e));
      el.appendChild(p);
    });
  });
  Promise.all(jobs).then(function () {
    window.__reportTimings = { scriptStartMs: started, readyMs: performance.now() };
    window.__reportReady = true;
    document.documentElement.setAttribute('data-report-ready', 'true');
  });
})();
`;
