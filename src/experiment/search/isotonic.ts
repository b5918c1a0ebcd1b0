/**
 * The monotone fit the cliff search estimates its tipping point from: isotonic regression of
 * the recovered fraction on the tried values (pool adjacent violators, weighted by runs), and
 * where that fit crosses a level. A monotone fit assumes only what the search assumes (the
 * probability of recovering only falls, or only rises, with the parameter), where a logistic
 * fit would also assume a symmetric S shape that a cliff in a simulation need not have.
 */

export interface Tally {
  value: number;
  recovered: number;
  runs: number;
}

/**
 * The weighted least-squares fit of recovered/runs that never rises (falling) or never falls
 * (rising) as the value grows, at each tally's value (tallies sorted by value).
 */
export function isotonicFit(sorted: readonly Tally[], direction: 'falling' | 'rising'): number[] {
  // Fit a non-decreasing sequence; a falling fit is the rising fit of the negated fractions.
  const sign = direction === 'rising' ? 1 : -1;
  const blocks: Array<{ mean: number; weight: number; count: number }> = [];
  for (const t of sorted) {
    if (t.runs <= 0) continue;
    blocks.push({ mean: (sign * t.recovered) / t.runs, weight: t.runs, count: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2].mean > blocks[blocks.length - 1].mean) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1];
      a.mean = (a.mean * a.weight + b.mean * b.weight) / (a.weight + b.weight);
      a.weight += b.weight;
      a.count += b.count;
    }
  }
  const out: number[] = [];
  for (const b of blocks) for (let i = 0; i < b.count; i++) out.push(sign * b.mean);
  return out;
}

/**
 * Where the fitted curve crosses `level`, interpolating linearly between neighbouring tried
 * values; null when the fit stays on one side of the level over the tried values.
 */
export function fittedCrossing(sorted: readonly Tally[], direction: 'falling' | 'rising', level: number): number | null {
  const tried = sorted.filter((t) => t.runs > 0);
  const fit = isotonicFit(tried, direction);
  // Work in "above the level before the crossing" terms: for a rising curve, flip the sides.
  const side = (f: number) => (direction === 'falling' ? f - level : level - f);
  for (let i = 0; i < tried.length; i++) {
    const s = side(fit[i]);
    if (s > 0) continue;
    if (s === 0) {
      // A flat stretch exactly at the level: its middle.
      let j = i;
      while (j + 1 < tried.length && side(fit[j + 1]) === 0) j++;
      return (tried[i].value + tried[j].value) / 2;
    }
    if (i === 0) return null;
    const s0 = side(fit[i - 1]);
    const x0 = tried[i - 1].value, x1 = tried[i].value;
    return x0 + ((x1 - x0) * s0) / (s0 - s);
  }
  return null;
}
