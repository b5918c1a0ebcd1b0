/**
 * The fit of a calibration, apart from what a trial is: the search over the box
 * (least-squares.ts), then incidents the fitted world could have had, each fitted again from
 * the fit, whose spread gives each parameter's interval (intervals.ts). The caller says what
 * the seeds' mean and an incident are at a point (runs of a scenario, or, in the tests, a
 * formula with noise), so the method is checked on models whose truth is known.
 */
import { leastSquares, type LeastSquaresResult } from './least-squares.js';
import { bootstrapIntervals, type ParameterInterval } from './intervals.js';

export interface FitProblem {
  observed: Float64Array;
  start: readonly number[];
  /** Trials of the search at most, and how many of them look over the whole box first. */
  budget: number;
  explore: number;
  /** Trials each refit may spend. */
  refitBudget: number;
  /** Incidents drawn at the fit for the interval. */
  incidents: number;
  /** Runs averaged in each trial's mean. */
  seeds: number;
  level: number;
  signal?: AbortSignal;
  /**
   * The mean of a set of seeds at a point of the box (cached by the caller); undefined once
   * stopped. Set 0 is the search's seeds; set k (from 1) the k-th refit's, seeds of its own.
   */
  mean(u: readonly number[], set: number): Promise<Float64Array | undefined>;
  /** `count` incidents at a point, on seeds no trial uses; undefined once stopped. */
  incidentsAt(u: readonly number[], count: number): Promise<Float64Array[] | undefined>;
  /** The point of the box the world at u really is (whole numbers rounded): identity by default. */
  snap?(u: readonly number[]): number[];
  /** After each trial of the search: its point and loss. */
  onTrial?(u: readonly number[], loss: number): void;
}

export interface FitOutcome {
  search: LeastSquaresResult;
  fit: number[];
  /** The incidents drawn at the fit (absent when stopped before them). */
  incidents?: Float64Array[];
  /** One per parameter (absent when stopped before the refits ended). */
  intervals?: ParameterInterval[];
}

export async function fitWithIntervals(problem: FitProblem): Promise<FitOutcome> {
  const snap = problem.snap ?? ((u: readonly number[]) => u.slice());
  const search = await leastSquares({
    observed: problem.observed,
    start: problem.start,
    budget: problem.budget,
    explore: problem.explore,
    signal: problem.signal,
    trial: async (u) => {
      const mean = await problem.mean(u, 0);
      if (!mean) return problem.observed; // stopped: the search sees the abort and ends
      let loss = 0;
      for (let i = 0; i < mean.length; i++) loss += (mean[i] - problem.observed[i]) ** 2;
      problem.onTrial?.(u, loss);
      return mean;
    },
  });
  const fit = snap(search.best.u);
  if (search.ended === 'interrupted') return { search, fit };
  const incidents = await problem.incidentsAt(fit, problem.incidents);
  if (!incidents) return { search, fit };
  const fitted = (await problem.mean(fit, 0))!;
  const refits: number[][] = [];
  for (const [k, incident] of incidents.entries()) {
    // A position where the incident has no value (no finished action) weighs nothing.
    const observed = incident.map((x, i) => (Number.isFinite(x) ? x : fitted[i]));
    const again = await leastSquares({
      observed, start: fit, budget: problem.refitBudget, explore: 0, signal: problem.signal,
      trial: async (u) => (await problem.mean(u, k + 1)) ?? observed,
    });
    if (again.ended === 'interrupted') return { search, fit, incidents };
    refits.push(snap(again.best.u));
  }
  return { search, fit, incidents, intervals: bootstrapIntervals(fit, refits, problem.level) };
}
