/**
 * `retrystorm diff` for the terminal: the verdict first (changes beyond seed noise on the
 * measures the ranking reads), then the ranking before and after, expectations that changed
 * outcome, what was added or removed, and every other change beyond noise.
 */
import type { DiffReport } from '../../results/diff/diff-report.js';
import { changeText } from '../../results/diff/scenario-diff.js';
import { guardStatus } from '../../results/diff/guards.js';
import { pointLabel, printable } from '../cells.js';
import { changeLine, deltaText, flaggedCount, nothingCompared, oneSeedNote, pointListLabel, scenarioTitle, seedsSummary, verdictChanges, whereText } from './diff-cells.js';

export function diffText(report: DiffReport): string {
  const diff = report.results;
  const out: string[] = [];
  const verdict = verdictChanges(diff);
  const headline = nothingCompared(diff) ?? (verdict.length === 0 ? 'no change to the verdict beyond seed noise' : `${verdict.length} change(s) to the verdict beyond seed noise`);
  out.push(`${scenarioTitle(diff)}: ${headline} (${seedsSummary(diff)})`);
  const oneSeed = oneSeedNote(diff);
  if (oneSeed) out.push(`  note: ${oneSeed}`);
  for (const { point, change } of verdict) out.push(`  ${changeLine(point, change)}`);
  if (report.guards.length) {
    out.push('', 'guards on change (against the base):');
    for (const g of report.guards) out.push(`  ${guardStatus(g)}  ${g.name} (${g.actual})`);
  }
  const flips = diff.expectations.filter((e) => e.before !== e.after);
  if (flips.length) {
    out.push('', 'expectations that changed:');
    for (const e of flips) out.push(`  ${e.before === null ? 'new' : e.before ? 'PASS' : 'FAIL'} -> ${e.after === null ? 'removed' : e.after ? 'PASS' : 'FAIL'}  ${e.name}${e.actualAfter ? ` (${e.actualAfter})` : ''}`);
  }
  if (report.scenario) {
    const cs = report.scenario.changes;
    out.push('', cs.length ? 'what changed in the scenario (overlays, defaults and presets resolved):' : 'the scenarios run the same world and experiment (no change once resolved)');
    for (const c of cs) out.push(`  ${changeText(c)}`);
  } else if (report.scenarioNote) out.push('', `scenario diff: ${report.scenarioNote}`);
  if (diff.variantsAdded.length) out.push('', `new variant(s): ${diff.variantsAdded.join(', ')}`);
  if (diff.variantsRemoved.length) out.push('', `removed variant(s): ${diff.variantsRemoved.join(', ')}`);
  if (diff.pointsAdded.length) out.push('', `new sweep point(s): ${diff.pointsAdded.map(pointListLabel).join('; ')}`);
  if (diff.pointsRemoved.length) out.push('', `removed sweep point(s): ${diff.pointsRemoved.map(pointListLabel).join('; ')}`);
  for (const k of diff.ranking) {
    const at = pointLabel(k.values);
    const order = (es: typeof k.before) => es.map((e) => `${e.rank}. ${e.variant}`).join('  ');
    out.push('', `ranking${at ? ` at ${at}` : ''}: ${k.changed ? 'changed' : 'unchanged'}`);
    if (k.changed) {
      out.push(`  before  ${k.before.length ? order(k.before) : '(not ranked)'}`);
      out.push(`  after   ${order(k.after)}`);
    } else out.push(`  ${order(k.after)}`);
  }
  const total = flaggedCount(diff);
  out.push('', total === 0 ? 'no measure changed beyond seed noise' : `every change beyond seed noise (${total}):`);
  for (const d of diff.points) {
    const flagged = d.changes.filter((c) => c.beyondNoise);
    if (!flagged.length) continue;
    out.push(`  ${whereText(d)}`);
    for (const c of flagged) out.push(`    ${changeLine(d, c).slice(whereText(d).length + 2)}${deltaText(c) ? `  ${deltaText(c)}` : ''}  [${c.why}]`);
  }
  return out.map(printable).join('\n');
}
