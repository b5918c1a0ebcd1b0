/**
 * A distribution of durations read from a file (service times from observed latency,
 * docs/traces.md "Service times from observed latency"), as the loader hands it forward: the
 * knots of a piecewise-linear inverse CDF, the one form a latency histogram, a list of samples
 * and a table of quantiles all become (src/scenario/trace/latency-*.ts read them). The engine
 * samples it as an `inverse-cdf` distribution. Nothing here imports a parser: every worker
 * loads it.
 *
 * Like a trace's numbers, the knots live in SharedArrayBuffers, so each worker's copy of the
 * scenario shares them; the JSON form is the file and a digest of its bytes, which is what a
 * run's reuse key compares.
 */

export interface LatencyData {
  /** Cumulative probabilities, from 0 to 1, non-decreasing (equal neighbours: a jump, an empty bucket). */
  probs: Float64Array;
  /** Seconds at each probability, non-decreasing. */
  values: Float64Array;
  /** How many observations the file holds (a histogram's count, the samples), or 0 for quantiles. */
  observations: number;
  file: string;
  sha256: string;
}

export function isLatencyData(x: unknown): x is LatencyData {
  if (x === null || typeof x !== 'object') return false;
  const d = x as Partial<LatencyData>;
  return d.probs instanceof Float64Array && d.values instanceof Float64Array && typeof d.observations === 'number';
}

/** Knots in the file's words before they are shared: probabilities and seconds. */
export interface Knots {
  probs: ArrayLike<number>;
  values: ArrayLike<number>;
  observations: number;
}

function shared(numbers: ArrayLike<number>): Float64Array {
  const a = new Float64Array(new SharedArrayBuffer(numbers.length * Float64Array.BYTES_PER_ELEMENT));
  a.set(numbers);
  return a;
}

export function makeLatencyData(k: Knots, file: string, sha256: string): LatencyData {
  const data: LatencyData = { probs: shared(k.probs), values: shared(k.values), observations: k.observations, file, sha256 };
  const knots = data.probs.length;
  const observations = k.observations;
  // Not enumerable: the structured clone a worker receives leaves it out (a function cannot be cloned).
  Object.defineProperty(data, 'toJSON', { enumerable: false, value: () => ({ file, sha256, knots, observations }) });
  return data;
}
