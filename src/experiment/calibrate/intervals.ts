/**
 * How far each fitted parameter can be trusted: a parametric bootstrap. Runs at the fitted
 * values on seeds the search never used are incidents the fitted world could have had; the fit
 * is made again against each of them, from the fitted values, with trials on seeds of the
 * refit's own (the search's seeds have luck of their own too: whether one of them storms moves
 * the fit as much as the incident's luck does), and the spread of the refitted values is the
 * estimate's own spread. Measured this way it holds what a linear formula misses: noise
 * correlated in time (a storm a minute early in one seed), a series that flips between
 * recovering and not as a parameter crosses a threshold, and the search's own imprecision.
 * The interval is the fit ± Student's t (refits - 1 degrees of freedom) times that spread.
 */
import { tQuantile } from '../stats.js';

export interface ParameterInterval {
  /** Standard error in the unit box (a share of the parameter's range). */
  se: number;
  /** The interval's ends in the unit box, within [0, 1]. */
  low: number;
  high: number;
  /** Whether the matched series tell this parameter: its interval is narrower than its whole range. */
  identified: boolean;
}

export function bootstrapIntervals(fit: readonly number[], refits: readonly (readonly number[])[], level: number): ParameterInterval[] {
  const n = refits.length;
  const t = tQuantile(0.5 + level / 2, n - 1);
  return fit.map((u, a) => {
    const xs = refits.map((r) => r[a]);
    const mean = xs.reduce((s, x) => s + x, 0) / n;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
    const se = sd;
    // Unsure over more than half the range either way: these series do not tell this parameter.
    const identified = t * se < 0.5;
    return identified ? { se, low: Math.max(0, u - t * se), high: Math.min(1, u + t * se), identified } : { se, low: 0, high: 1, identified };
  });
}
