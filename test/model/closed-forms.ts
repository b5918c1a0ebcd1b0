/**
 * Closed forms of the M/M/1 and M/M/c queue (FIFO, unbounded queue, Poisson arrivals at
 * rate lambda, exponential service at rate mu per server), used to validate the
 * simulator's queueing core.
 */

/**
 * Erlang B blocking probability B(c, a) for offered load a = lambda / mu, by the stable
 * recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)) (no factorials, no overflow).
 */
export function erlangB(c: number, a: number): number {
  let b = 1;
  for (let k = 1; k <= c; k++) b = (a * b) / (k + a * b);
  return b;
}

/**
 * Erlang C: the probability that an arrival has to wait, C(c, a) with a = lambda / mu < c.
 * From Erlang B: C = c B / (c - a (1 - B)).
 */
export function erlangC(c: number, a: number): number {
  if (!(a >= 0 && a < c)) throw new RangeError(`erlangC: need 0 <= a < c (got a=${a}, c=${c})`);
  const b = erlangB(c, a);
  return (c * b) / (c - a * (1 - b));
}

/** Server utilisation rho = lambda / (c mu). */
export function utilisation(lambda: number, mu: number, c: number): number {
  return lambda / (c * mu);
}

/** M/M/c mean waiting time in the queue: Wq = C(c, a) / (c mu - lambda). */
export function mmcWq(lambda: number, mu: number, c: number): number {
  return erlangC(c, lambda / mu) / (c * mu - lambda);
}

/** M/M/1 mean waiting time in the queue: Wq = rho / (mu - lambda). */
export function mm1Wq(lambda: number, mu: number): number {
  if (!(lambda < mu)) throw new RangeError(`mm1Wq: need lambda < mu (got ${lambda}, ${mu})`);
  return lambda / mu / (mu - lambda);
}
