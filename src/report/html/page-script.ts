/**
 * The report page's own script, as browser JavaScript text. It reads the JSON data block
 * (every sweep point's series, by variant and column), turns the chosen point's columns into
 * rows (columns keep the file small; vega-lite wants rows), gives every chart its own shallow
 * copy (vega tags the objects it ingests, so views must not share them) and embeds each spec.
 * The sweep point selector and the variant filter swap the per-point datasets in every view
 * that shows them (vega changesets), and set `data-series-point` / `data-series-ready` on
 * <html> when the views have re-rendered. It never writes data into the page as
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
  var byIndex = {};
  data.points.forEach(function (p) { byIndex[p.index] = p; });
  var state = { point: data.featured, variants: null };
  // The datasets of the chosen point, the series as rows (columns keep the file small; vega-lite wants rows).
  function setsFor(allVariants) {
    var p = byIndex[state.point];
    var keep = function (v) { return allVariants || !state.variants || state.variants.indexOf(v) >= 0; };
    var rows = [];
    p.series.forEach(function (v) {
      if (!keep(v.variant)) return;
      var keys = Object.keys(v.data);
      var n = v.data.t.length;
      for (var i = 0; i < n; i++) {
        var row = { variant: v.variant };
        for (var k = 0; k < keys.length; k++) row[keys[k]] = v.data[keys[k]][i];
        row.t = v.data.t[i] / data.timeDivisor;
        rows.push(row);
      }
    });
    var sets = Object.assign({}, data.datasets, { series: rows });
    Object.keys(p.datasets).forEach(function (name) {
      sets[name] = p.datasets[name].filter(function (r) { return r.variant === undefined || keep(r.variant); });
    });
    return sets;
  }
  // Each chart gets its own rows (vega tags the objects it ingests), holding only the series
  // columns it reads.
  function copy(sets, name, fields) {
    var src = sets[name] || [];
    if (name !== 'series') return src.map(function (r) { return Object.assign({}, r); });
    return src.map(function (r) {
      var o = {};
      for (var i = 0; i < fields.length; i++) o[fields[i]] = r[fields[i]];
      return o;
    });
  }
  var initial = setsFor(true);
  var jobs = data.charts.map(function (c) {
    var el = document.getElementById('chart-' + c.id);
    var spec = c.spec;
    spec.datasets = {};
    c.datasets.forEach(function (n) { spec.datasets[n] = copy(initial, n, c.fields); });
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
  // Redraws every chart that shows the chosen point's data; the sweep chart is about all points.
  var PER_POINT = ['series', 'faults', 'faultWindows', 'actions', 'amplification'];
  function redraw() {
    var sets = setsFor(false);
    // Charts drawn as one panel per variant keep every panel (an empty panel would have no scale).
    var everyVariant = setsFor(true);
    document.documentElement.setAttribute('data-series-ready', 'false');
    return Promise.all(data.charts.map(function (c) {
      var view = views[c.id];
      var names = c.datasets.filter(function (n) { return PER_POINT.indexOf(n) >= 0; });
      if (!view || names.length === 0) return null;
      names.forEach(function (n) {
        var from = c.datasets.indexOf('faults') >= 0 ? everyVariant : sets;
        view.change(n, vega.changeset().remove(function () { return true; }).insert(copy(from, n, c.fields)));
      });
      return view.runAsync();
    })).then(function () {
      document.documentElement.setAttribute('data-series-point', String(state.point));
      document.documentElement.setAttribute('data-series-ready', 'true');
    });
  }
  var select = document.getElementById('sweep-point');
  if (select) select.addEventListener('change', function () { state.point = Number(select.value); redraw(); });
  var boxes = document.querySelectorAll('#variant-filter input[type=checkbox]');
  Array.prototype.forEach.call(boxes, function (box) {
    box.addEventListener('change', function () {
      var on = Array.prototype.filter.call(boxes, function (b) { return b.checked; }).map(function (b) { return b.value; });
      state.variants = on.length === boxes.length ? null : on;
      redraw();
    });
  });
  Promise.all(jobs).then(function () {
    window.__reportTimings = { scriptStartMs: started, readyMs: performance.now() };
    window.__reportReady = true;
    document.documentElement.setAttribute('data-report-ready', 'true');
    document.documentElement.setAttribute('data-series-point', String(state.point));
    document.documentElement.setAttribute('data-series-ready', 'true');
  });
})();
`;
