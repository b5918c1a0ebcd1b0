/**
 * The verdict's second sentence, across a sweep: which policy is first at most ranked points,
 * its worst regret, and where the winner changes (from the ranking's acrossPoints).
 */
import { formatValue } from '../measures/format.js';
import type { Results } from '../results/results.js';
import { contendersAt, pointLabel } from './cells.js';
import { listWords } from './words.js';

/** A point's swept values as a reader names them: "12m" for one parameter, "load = 1.2, faults[0].duration = 12m" for two. */
function pointName(values: Record<string, string | number>): string {
  const e = Object.values(values);
  return e.length === 1 ? String(e[0]) : pointLabel(values) ?? '';
}

/**
 * Across a sweep, the policy best over the whole range and where the winner changes, in one
 * sentence after the verdict: "Across the 8 ranked points, all-defences ranks first at 7
 * (at worst 40s more perceived outage than the best variant there); first at each point:
 * client-ceiling at 1m, all-defences from 2m to 30m." Null with fewer than two ranked points.
 */
export function sweepSentence(r: Results): string | null {
  const a = r.ranking?.acrossPoints;
  if (!a || a.variants.length === 0) return null;
  const top = a.variants[0];
  const regret = top.worstRegretS !== null && top.worstRegretS > 0 ? ` (at worst ${formatValue('duration', top.worstRegretS)} more perceived outage than the best variant there)` : '';
  // Runs of consecutive points with the same variants first.
  const runs: Array<{ names: string; from: string; to: string }> = [];
  for (const p of r.ranking!.points) {
    const contenders = contendersAt(r, p.entries, p.point);
    const names = listWords(contenders.filter((e) => e.rank === contenders[0].rank).map((e) => e.variant));
    const here = pointName(p.values);
    const last = runs[runs.length - 1];
    if (last && last.names === names) last.to = here;
    else runs.push({ names, from: here, to: here });
  }
  // "from 6m to 12m" reads as a range of one parameter; over a grid of two it would wrap across
  // rows, so there each point is named.
  const oneParameter = r.ranking!.points.every((p) => Object.keys(p.values).length <= 1);
  const span = (x: { from: string; to: string }) => (x.from === x.to ? `at ${x.from}` : oneParameter ? `from ${x.from} to ${x.to}` : `at ${x.from} through ${x.to} (in the sweep's order)`);
  const where = runs.length > 1 ? `; first at each point: ${runs.map((x) => `${x.names} ${span(x)}`).join(', ')}` : '';
  return `Across the ${a.points} ranked points, ${top.variant} ranks first at ${top.first === a.points ? 'every one' : `${top.first}`}${regret}${where}.`;
}
