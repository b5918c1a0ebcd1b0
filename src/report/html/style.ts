/**
 * The report's stylesheet, inlined: system fonts only (a web font would be a network
 * request), readable in print, and a table that scrolls sideways rather than squeezing.
 */
export const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --warn: #9a3412; --ok: #166534; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1240px; padding: 24px 28px 48px; color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 28px; margin: 0 0 6px; word-break: break-word; }
h2 { font-size: 20px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 26px 0 2px; }
.kicker { margin: 0; color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: .06em; }
.question { font-size: 18px; margin: 4px 0 8px; white-space: pre-wrap; }
.verdict { font-size: 17px; font-weight: 600; margin: 8px 0 4px; padding: 8px 12px; border-left: 4px solid #1f6feb; background: #f0f6ff; }
#answer figure.chart h3 { margin-top: 14px; }
details { margin: 10px 0; }
details > summary { cursor: pointer; color: #0969da; font-weight: 600; }
.description, .note, .caption { color: var(--muted); white-space: pre-wrap; }
.caption { margin: 0 0 8px; font-size: 14px; }
.warning { color: var(--warn); font-weight: 600; border-left: 4px solid var(--warn); padding: 6px 10px; background: #fff7ed; }
.ok { color: var(--ok); font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; word-break: break-word; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
thead th { font-weight: 600; border-bottom: 2px solid var(--line); cursor: help; }
td .value, td .interval { white-space: nowrap; font-variant-numeric: tabular-nums; }
td .interval, th .point, th .variant-description { display: block; color: var(--muted); font-size: 12px; font-weight: normal; }
th .variant-description { max-width: 260px; }
td .pass, td .fail { display: block; min-width: 110px; }
#comparison-table, .ranking-table:not(.compact) { font-size: 13px; }
#comparison-table th, #comparison-table td, .ranking-table:not(.compact) th, .ranking-table:not(.compact) td { padding: 4px 5px; }
.ranking-table:not(.compact) tbody th { min-width: 0; }
#comparison-table th, #comparison-table td { padding: 4px 4px; }
#comparison-table td .interval { font-size: 11px; white-space: normal; }
#comparison-table tbody th { min-width: 100px; }
tbody th { min-width: 120px; }
.ranking-table.compact thead th { font-size: 13px; }
tr.same-variant th .variant-description { display: none; }
tr.baseline { background: #f6f8fa; }
tr.unhealthy { color: var(--muted); }
.flag { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; background: #fff7ed; color: var(--warn); font-size: 12px; font-weight: 600; }
.ranking-table td.front { position: relative; } .ranking-table td.front::after { content: '\\25C6'; position: absolute; right: 1px; top: 50%; transform: translateY(-50%); font-size: 9px; color: var(--muted); }
.ranking-table tbody th { white-space: nowrap; }
td .pass { color: var(--ok); } td .fail { color: var(--warn); font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
figure.chart { margin: 0 0 12px; }
.chart-error { color: var(--warn); }
.chart-view { max-width: 100%; overflow-x: auto; }
/* vega-embed opens a chart's actions menu 9 px past the chart's right edge, which in a box that scrolls sideways shows a scrollbar: keep it inside (its arrow still points at the button). Three classes: vega-embed adds its own rules after ours. */
.chart-view.vega-embed .vega-actions { right: 0; } .chart-view.vega-embed .vega-actions::before { right: 5px; } .chart-view.vega-embed .vega-actions::after { right: 6px; }
.series-controls { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line); padding: 6px 0; display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; font-size: 14px; }
.series-controls select { font: inherit; max-width: 100%; }
.series-controls fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 12px; }
.series-controls legend { float: left; margin-right: 8px; color: var(--muted); }
.series-controls label { white-space: nowrap; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 12px; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
/* A phone: charts shrink to the screen instead of scrolling sideways (a tooltip may then sit a little off its mark). */
@media (max-width: 800px) { body { padding: 16px 14px 32px; } .chart-view svg.marks { max-width: 100%; height: auto; } .verdict { font-size: 16px; } }
@media print { figure.chart { break-inside: avoid; } .vega-actions { display: none; } }
`;
