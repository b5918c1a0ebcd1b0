/**
 * The report's stylesheet, inlined: system fonts only (a web font would be a network
 * request), readable in print, and a table that scrolls sideways rather than squeezing.
 */
export const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --warn: #9a3412; --ok: #166534; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1120px; padding: 24px 28px 48px; color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 28px; margin: 0 0 6px; word-break: break-word; }
h2 { font-size: 20px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 26px 0 2px; }
.kicker { margin: 0; color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: .06em; }
.question { font-size: 18px; margin: 4px 0 8px; white-space: pre-wrap; }
.description, .note, .caption { color: var(--muted); white-space: pre-wrap; }
.caption { margin: 0 0 8px; font-size: 14px; }
.warning { color: var(--warn); font-weight: 600; border-left: 4px solid var(--warn); padding: 6px 10px; background: #fff7ed; }
.ok { color: var(--ok); font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; word-break: break-word; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
thead th { font-weight: 600; border-bottom: 2px solid var(--line); cursor: help; }
td .value, td .interval { white-space: nowrap; font-variant-numeric: tabular-nums; }
td .interval, th .point, th .variant-description { display: block; color: var(--muted); font-size: 12px; font-weight: normal; }
th .variant-description { max-width: 260px; }
td .pass, td .fail { display: block; min-width: 220px; }
tbody th { min-width: 140px; }
tr.same-variant th .variant-description { display: none; }
tr.baseline { background: #f6f8fa; }
tr.unhealthy { color: var(--muted); }
.flag { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; background: #fff7ed; color: var(--warn); font-size: 12px; font-weight: 600; }
.ranking-table tbody th { white-space: nowrap; }
td .pass { color: var(--ok); } td .fail { color: var(--warn); font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
figure.chart { margin: 0 0 12px; }
.chart-error { color: var(--warn); }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 12px; overflow-x: auto; font-size: 13px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { figure.chart { break-inside: avoid; } .vega-actions { display: none; } }
`;
