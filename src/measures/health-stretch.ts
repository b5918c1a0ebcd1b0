/**
 * The rule that says when a service recovered, as a function of per-cell series alone: the
 * first cell from which every window of the health width was healthy (success ratio at or
 * above its limit and, from the last trigger's end on, the load at or below its limit) for the
 * hold, and on to the hold after the last trigger's end. RunView.recovery applies it to a
 * run's per-second series; the fit of an observed incident (src/results/observed-fit.ts)
 * applies it to the observed series: one rule, so "recovered at" means the same on both sides.
 */

export interface StretchIn {
  /** Per cell: actions that succeeded and that ended (a ratio series: the ratio and 1, NaN cells 0 and 0). */
  ok: Float64Array;
  ended: Float64Array;
  /** Per cell: attempts (a load); null when the load is not known (it never vetoes). */
  attempts: Float64Array | null;
  cellS: number;
  /** Cells per health window and per hold. */
  windowCells: number;
  holdCells: number;
  /** The first cell judged (the first trigger's start) and the cell of the last trigger's end. */
  startCell: number;
  endCell: number;
  minSuccessRatio: number;
  /** The baseline attempts per second and the most a window may carry, as a multiple of it. */
  rate: number;
  maxLoadMultiple: number;
}

/** The first cell of the lasting healthy stretch, or null when there is none. */
export function healthyStretchStart(x: StretchIn): number | null {
  const n = x.ok.length;
  const { windowCells, startCell, endCell, rate } = x;
  const span = Math.max(x.holdCells, windowCells);
  const ok = prefix(x.ok), ended = prefix(x.ended), attempts = x.attempts ? prefix(x.attempts) : null;
  const windowS = windowCells * x.cellS;
  // healthyRun[i]: how many consecutive window starts from i on are healthy.
  const lastStart = n - windowCells;
  const healthyRun = new Int32Array(Math.max(0, lastStart + 2));
  for (let i = lastStart; i >= startCell; i--) {
    const e = ended[i + windowCells] - ended[i];
    // The load is judged from the last trigger's end on: before it, the trigger's own.
    // `!(load > max)`: with a 0 baseline both sides are NaN, and the load cannot veto recovery.
    const loadOk = i < endCell || attempts === null || !((rate > 0 ? (attempts[i + windowCells] - attempts[i]) / windowS / rate : NaN) > x.maxLoadMultiple);
    const healthy = e > 0 && (ok[i + windowCells] - ok[i]) / e >= x.minSuccessRatio && loadOk;
    healthyRun[i] = healthy ? healthyRun[i + 1] + 1 : 0;
  }
  // The stretch [i, stop) must end by the end of the series, last the hold, and, begun before
  // the last trigger's end, run on to the hold after it (or to the end of the series).
  for (let i = startCell; i + span <= n; i++) {
    const stop = i >= endCell ? i + span : Math.max(i + span, Math.min(n, endCell + span));
    if (healthyRun[i] >= stop - windowCells - i + 1) return i;
  }
  return null;
}

export interface TriggerSpan {
  startS: number;
  endS: number;
}

/**
 * Recovery time for a lasting healthy stretch begun at `from`. With the last trigger over
 * before the run ends: from its end, and 0 for a stretch begun before it (restored while the
 * trigger went on, the service needed no time after it). A trigger still on at the end of
 * the run has no end to count from: then how long users had been under the triggers in
 * force when the stretch began (overlapping or touching triggers count as one), or, begun
 * between triggers, the time since the last one ended.
 */
export function timeToRecover(from: number, triggers: readonly TriggerSpan[], horizonS: number): number {
  let lastEnd = -Infinity;
  for (const t of triggers) lastEnd = Math.max(lastEnd, t.endS);
  if (lastEnd < horizonS) return Math.max(0, from - lastEnd);
  // The triggers begun by `from`, merged into spans: the last span is in force, or the last to end.
  let spanStart = from, spanEnd = -Infinity;
  for (const t of [...triggers].sort((a, b) => a.startS - b.startS)) {
    if (t.startS > from) break;
    if (t.startS > spanEnd) spanStart = t.startS;
    spanEnd = Math.max(spanEnd, t.endS);
  }
  return from < spanEnd ? from - spanStart : Math.max(0, from - spanEnd);
}

function prefix(xs: ArrayLike<number>): Float64Array {
  const out = new Float64Array(xs.length + 1);
  for (let i = 0; i < xs.length; i++) out[i + 1] = out[i] + xs[i];
  return out;
}
