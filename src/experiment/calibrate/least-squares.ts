/**
 * Weighted least squares over trials that are simulations: mljs' Levenberg-Marquardt
 * (ml-levenberg-marquardt, bounded, central differences) driven by trials that run on the
 * worker pool. The package asks for its model synchronously and a trial is asynchronous, so
 * it is replayed: each call of the package runs until it asks for a trial not yet run (its
 * model throws NeedTrial), that trial runs, and the package starts again from the beginning.
 * It is deterministic, so every replay retraces the same steps up to the new trial; a replay
 * costs microseconds of arithmetic against a trial's seconds of simulation.
 *
 * Least squares alone follows the slope from where it starts, and an incident's landscape has
 * cliffs: a start on the storm's side (the service never recovers) sees every nearby world
 * as bad and slides into a corner. So the search first looks over the whole box, at the
 * points of a Halton sequence (spread evenly, deterministic), and refines from the best of
 * those and the start; a refinement that stalls in a dip of its own starts again from the next
 * best point looked at.
 *
 * The parameters live in the unit box [0, 1]^p (each range mapped linearly); a trial outside
 * it (a difference step past a bound) is run at the nearest point inside. The search stops at
 * the trial budget, on an abort, or when the package's iterations end, and answers the best
 * trial it has seen.
 */
import { levenbergMarquardt } from 'ml-levenberg-marquardt';

export interface LeastSquaresProblem {
  /** The observed values, already weighted (each divided by its scale); a trial answers the same positions. */
  observed: Float64Array;
  /** Where the search starts, in [0, 1]^p. */
  start: readonly number[];
  /** One trial: the simulated values, weighted like `observed`, at a point of the box. */
  trial(u: readonly number[]): Promise<Float64Array>;
  /** The most trials run. */
  budget: number;
  /** Trials spent looking over the whole box before refining (besides the start). */
  explore: number;
  signal?: AbortSignal;
}

export interface Trial {
  u: number[];
  loss: number;
}

export interface LeastSquaresResult {
  best: Trial;
  /** Every trial in the order run. */
  trials: Trial[];
  /** Why the search ended: the package finished its iterations, the budget ran out, or it was stopped. */
  ended: 'iterations' | 'budget' | 'interrupted';
}

/** Stopped before any trial finished: there is no best value to answer. */
export class StoppedBeforeFirstTrial extends Error {
  constructor() {
    super('stopped before the first trial finished');
    this.name = 'StoppedBeforeFirstTrial';
  }
}

/** The package asked for a trial not yet run. */
class NeedTrial {
  constructor(readonly u: number[]) {}
}

/** The step of the central differences, in the box's units (a twentieth of each range). */
export const DIFFERENCE_STEP = 0.05;
/** A refinement that finds no better trial in this many of its iterations (2p + 2 trials each) has stalled. */
const STALL_ITERATIONS = 2;
/** Iterations of the package at most; each costs 2p + 2 trials, so the budget ends a search first. */
const ITERATIONS = 200;

export const clampToBox = (u: readonly number[]): number[] => u.map((x) => Math.min(1, Math.max(0, x)));

export function sumOfSquares(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return s;
}

export async function leastSquares(problem: LeastSquaresProblem): Promise<LeastSquaresResult> {
  const known = new Map<string, Float64Array>();
  const trials: Trial[] = [];
  const keyOf = (u: readonly number[]) => clampToBox(u).join(',');
  const model = (u: number[]) => {
    const values = known.get(keyOf(u));
    if (!values) throw new NeedTrial(u.slice());
    return (i: number) => values[i];
  };
  const x = Array.from(problem.observed, (_, i) => i);
  const p = problem.start.length;
  let ended: LeastSquaresResult['ended'] = 'iterations';
  const run = async (u: number[]): Promise<boolean> => {
    if (problem.signal?.aborted) { ended = 'interrupted'; return false; }
    if (trials.length >= problem.budget) { ended = 'budget'; return false; }
    const values = await problem.trial(u);
    if (problem.signal?.aborted) { ended = 'interrupted'; return false; }
    known.set(keyOf(u), values);
    trials.push({ u, loss: sumOfSquares(values, problem.observed) });
    return true;
  };
  if (!(await run(clampToBox(problem.start))) || !(await everyTrue(halton(p, problem.explore), run))) return answer(trials, ended);
  // Refine from the best point looked at; when a refinement stalls (no better trial for a
  // while: it sits in a dip of its own), start again from the next best point looked at.
  const starts = trials.slice().sort((a, b) => a.loss - b.loss).map((t) => t.u);
  const stall = STALL_ITERATIONS * (2 * p + 2);
  for (const from of starts) {
    let bestHere = Infinity, since = 0, stalled = false;
    for (;;) {
      try {
        levenbergMarquardt({ x, y: problem.observed }, model, {
          initialValues: from,
          minValues: new Array(p).fill(0),
          maxValues: new Array(p).fill(1),
          centralDifference: true,
          gradientDifference: DIFFERENCE_STEP,
          maxIterations: ITERATIONS,
          errorTolerance: 0,
        });
        break;
      } catch (e) {
        if (!(e instanceof NeedTrial)) throw e;
        if (!(await run(clampToBox(e.u)))) return answer(trials, ended);
        const loss = trials[trials.length - 1].loss;
        if (loss < bestHere * (1 - 1e-3)) { bestHere = loss; since = 0; } else if (++since >= stall) { stalled = true; break; }
      }
    }
    if (!stalled) break;
  }
  return answer(trials, ended);
}

function answer(trials: Trial[], ended: LeastSquaresResult['ended']): LeastSquaresResult {
  if (trials.length === 0) throw new StoppedBeforeFirstTrial();
  const best = trials.reduce((a, b) => (b.loss < a.loss ? b : a));
  return { best, trials, ended };
}

async function everyTrue<T>(items: readonly T[], f: (x: T) => Promise<boolean>): Promise<boolean> {
  for (const x of items) if (!(await f(x))) return false;
  return true;
}

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19];

/** The first n points of the Halton sequence in [0, 1]^p (its index 0, the corner, left out). */
export function halton(p: number, n: number): number[][] {
  const radical = (i: number, base: number) => {
    let f = 1, r = 0;
    for (; i > 0; i = Math.floor(i / base)) { f /= base; r += f * (i % base); }
    return r;
  };
  return Array.from({ length: n }, (_, k) => Array.from({ length: p }, (_, d) => radical(k + 1, PRIMES[d])));
}
