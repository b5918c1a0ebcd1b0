/**
 * calibration.md and the terminal's account of a calibration: a table of the fitted values
 * with their intervals, how close each observed series comes (at the start, fitted, and the
 * seed noise no fit can beat), and, in words, what the fit could not do: a value at the end of
 * its range, a parameter the series do not tell, an observed stretch the model does not reach.
 * The tables' cells and the sentences are made here once, for calibration.md and for
 * calibration.html (html/calibration-page.ts) alike.
 */
import type { CalibrationResults } from '../results/calibration.js';
import { valueText } from '../scenario/search-apply.js';
import { formatDuration } from '../scenario/units.js';
import { mdText } from './markdown.js';

/** A fitted value or an interval's end to three significant digits: a fit is not known to the microsecond. */
const shown = (kind: CalibrationResults['parameters'][number]['kind'], n: number) => valueText(kind, Number(n.toPrecision(3)));

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** What the fit could not do, one sentence each. */
export function calibrationCaveats(r: CalibrationResults): string[] {
  const out: string[] = [];
  if (r.partial) out.push(`The calibration was stopped after ${r.trials} trials: the values are the best found so far, with no interval.`);
  for (const p of r.parameters) {
    if (p.atEnd) out.push(`${p.parameter} was fitted at the ${p.atEnd === 'from' ? 'lower' : 'upper'} end of its range (${valueText(p.kind, p[p.atEnd])}): the best value may lie beyond it; widen the range.`);
    if (p.interval && !p.interval.identified) out.push(`The observed series do not tell ${p.parameter}: worlds across its whole range match them about as well (its interval is the range). Fix it from another source, or observe a series it moves.`);
  }
  for (const s of r.series) {
    for (const m of s.misses) {
      out.push(`${s.name} (${s.column}): from ${formatDuration(m.fromS)} to ${formatDuration(m.toS)} the observed series lies ${m.observedAbove ? 'above' : 'below'} every fitted run (beyond 3 standard deviations of the seed noise): something of that stretch is not in the model.`);
    }
    if (s.nrmseNoise !== null && s.nrmseFitted > 2 * s.nrmseNoise && s.nrmseFitted > 0.05) {
      out.push(`${s.name} stays ${(s.nrmseFitted / Math.max(s.nrmseNoise, 1e-9)).toFixed(1)} times further from the observed series than one seed is from another: the fitted world does not reproduce it.`);
    }
  }
  return out;
}

/** The parameter table's header: the interval's column names its confidence. */
export function parameterHeader(r: CalibrationResults): string[] {
  return ['parameter', 'start', 'fitted', `${Math.round(r.level * 100)}% interval`, 'range'];
}

/** One row per fitted parameter, as text: the interval is '–' when partial, 'not identified' when the series do not tell it. */
export function calibrationParameterRows(r: CalibrationResults): Array<{ parameter: string; start: string; fitted: string; interval: string; range: string }> {
  return r.parameters.map((p) => ({
    parameter: p.parameter,
    start: valueText(p.kind, p.start),
    fitted: shown(p.kind, p.value),
    interval: p.interval ? (p.interval.identified ? `${shown(p.kind, p.interval.low)} to ${shown(p.kind, p.interval.high)}` : 'not identified') : '–',
    range: `${valueText(p.kind, p.from)} to ${valueText(p.kind, p.to)}`,
  }));
}

export const SERIES_HEADER = ['series', 'compared with', 'intervals', 'at the start', 'fitted', 'seed noise'];

/** What the series table's numbers are. */
export const NRMSE_NOTE = 'NRMSE: the root-mean-square difference over the compared intervals ÷ the observed mean; the seed noise is one run\'s distance from the mean of many, which no fit can beat';

/** One row per observed series, as text: its NRMSE at the start, fitted, and the seed noise ('–' when partial). */
export function calibrationSeriesRows(r: CalibrationResults): Array<{ name: string; column: string; intervals: string; start: string; fitted: string; noise: string }> {
  return r.series.map((s) => ({ name: s.name, column: s.column, intervals: String(s.intervals), start: pct(s.nrmseStart), fitted: pct(s.nrmseFitted), noise: pct(s.nrmseNoise) }));
}

/** Said instead of the caveats when there are none. */
export const NOTHING_MISSED = 'Nothing beyond the seed noise: every series lies within the fitted runs\' spread, and every parameter inside its range.';

export function calibrationMarkdown(r: CalibrationResults): string {
  const lines: string[] = [];
  lines.push(`# Calibration of ${mdText(r.scenario, true)}`, '');
  lines.push(`Variant \`${r.variant}\` fitted to the observed series by ${r.trials} trials of ${r.seeds} seed(s) each (${r.runs} runs), ${r.partial ? '**stopped before the end (partial)**' : `ended by ${r.ended === 'budget' ? 'its budget' : 'the search itself'}`}. The fitted scenario: \`${mdText(r.fitted, true)}\`.`, '');
  lines.push(`| ${parameterHeader(r).join(' | ')} |`, '|---|---|---|---|---|');
  for (const p of calibrationParameterRows(r)) lines.push(`| ${mdText(p.parameter, true)} | ${p.start} | **${p.fitted}** | ${p.interval} | ${p.range} |`);
  lines.push('', `How close each observed series comes (${NRMSE_NOTE}):`, '');
  lines.push(`| ${SERIES_HEADER.join(' | ')} |`, '|---|---|---|---|---|---|');
  for (const s of calibrationSeriesRows(r)) lines.push(`| ${mdText(s.name, true)} | ${s.column} | ${s.intervals} | ${s.start} | **${s.fitted}** | ${s.noise} |`);
  const caveats = calibrationCaveats(r);
  lines.push('', '## What the fit could not match', '');
  if (caveats.length === 0) lines.push(NOTHING_MISSED);
  else for (const c of caveats) lines.push(`- ${mdText(c, true)}`);
  lines.push('', `Compare the policies on the fitted world: \`retrystorm run ${mdText(r.fitted, true)}\`.`, '');
  return lines.join('\n');
}

/** The terminal's lines: the fitted values, the series' distances, the caveats. */
export function calibrationTerminal(r: CalibrationResults): string[] {
  const out = [`${r.scenario}: calibrated ${r.variant} in ${r.trials} trials (${r.runs} runs)${r.partial ? ', PARTIAL' : ''}`];
  for (const p of r.parameters) {
    const iv = p.interval ? (p.interval.identified ? ` (${Math.round(r.level * 100)}%: ${shown(p.kind, p.interval.low)} to ${shown(p.kind, p.interval.high)})` : ' (not identified)') : '';
    out.push(`  ${p.parameter}: ${valueText(p.kind, p.start)} -> ${shown(p.kind, p.value)}${iv}`);
  }
  for (const s of r.series) out.push(`  ${s.name}: NRMSE ${pct(s.nrmseStart)} -> ${pct(s.nrmseFitted)} (seed noise ${pct(s.nrmseNoise)})`);
  for (const c of calibrationCaveats(r)) out.push(`  note: ${c}`);
  return out;
}
