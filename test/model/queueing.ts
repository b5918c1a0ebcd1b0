/**
 * The queueing core (Poisson arrivals, FIFO queue, c slots, exponential service) against the
 * M/M/1 and M/M/c (Erlang C) closed forms: mean waiting time in queue Wq = queueWaitS /
 * served, and utilisation = workS / capacityS. Shared by queueing.test.ts (runs a sixteenth
 * as long, tolerances to match) and queueing.slow.test.ts (the full runs, 2%).
 *
 * How long the runs are, and why. Time is in units of the mean service time 1/mu; what
 * sets the statistical error is the number N of customers. The sample mean of the waits
 * is autocorrelated, so its variance is sigma^2 / N with a sigma^2 far above Var(Wq):
 *  - M/M/1 (Daley 1968): sigma^2 = rho (2 + 5 rho - 4 rho^2 + rho^3) / (mu^2 (1 - rho)^4),
 *    i.e. a relative variance sigma^2 / Wq^2 of 29 per customer at rho 0.5 and 443 at
 *    rho 0.9 (the relaxation time 1 / (mu (1 - sqrt(rho))^2) is ~380 service times there).
 *    Confirmed by 20 seeds x 3.24M customers at rho 0.9: sd 1.10% (formula: 1.17%).
 *  - M/M/10 (measured with 10-20 seeds per horizon): about 650 at rho 0.9, and 300-800 at
 *    rho 0.5 (only 3.6% of customers wait, so the mean rests on rare waits and converges slowly).
 * The full horizons below give N such that the standard error is about 0.5% or less, which
 * puts a 2% tolerance at 4 standard errors or more. Measured over seeds 1-10 at these horizons,
 * the sd of the Wq error was 0.22%, 0.34%, 0.31% and 0.42% (cases in order below), the worst
 * |error| 0.82%; the utilisation error is ~10x smaller (sd <= 0.054%). The comment on each
 * case gives N and the predicted standard error at the full horizon. A run `scale` times as
 * long has sqrt(1 / scale) times the standard error: a sixteenth (queueing.test.ts) gives
 * 0.9-2.1%, so its 8.5% tolerance is again 4 standard errors or more.
 *
 * No warm-up is cut: runs start empty, and the start-up bias is of the order of the
 * relaxation time over the horizon, below 1e-3 relative in every case here even at a
 * sixteenth of the horizon. Attempts still queued at the horizon (a handful) are left out of
 * Wq, which is equally negligible.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { mm1Wq, mmcWq, utilisation } from './closed-forms.js';

interface Case {
  name: string;
  slots: number;
  /** Arrivals per second. */
  lambda: number;
  /** Mean service time in ms. */
  serviceMs: number;
  /** Simulated seconds at full length. */
  horizonS: number;
  seed: number;
}

const CASES: Case[] = [
  // mu = 1000/s. N = 3.6M, relative sd of Wq ~ sqrt(29 / N) = 0.28%.
  { name: 'M/M/1 at rho 0.5', slots: 1, lambda: 500, serviceMs: 1, horizonS: 7200, seed: 1 },
  // mu = 1000/s. N = 25.9M, relative sd ~ sqrt(443 / N) = 0.41%.
  { name: 'M/M/1 at rho 0.9', slots: 1, lambda: 900, serviceMs: 1, horizonS: 28_800, seed: 1 },
  // mu = 100/s per slot, c mu = 1000/s. N = 28.8M, relative sd ~ sqrt(300..800 / N) = 0.32-0.53%.
  { name: 'M/M/10 at rho 0.5', slots: 10, lambda: 500, serviceMs: 10, horizonS: 57_600, seed: 1 },
  // N = 25.9M, relative sd ~ sqrt(650 / N) = 0.50%.
  { name: 'M/M/10 at rho 0.9', slots: 10, lambda: 900, serviceMs: 10, horizonS: 28_800, seed: 1 },
];

function scenarioYaml(c: Case, horizonS: number): string {
  return `
name: mmc
horizon: ${horizonS}s
clients:
  users:
    arrivals: { kind: constant, rate: ${c.lambda}/s }
    retry: { maxAttempts: 1 }
server:
  slots: ${c.slots}
  queue: unbounded
  serviceTime: { kind: exponential, mean: ${c.serviceMs}ms }
measures: { bucket: 60s }
`;
}

interface Measured {
  wq: number;
  util: number;
  served: number;
  attempts: number;
  seconds: number;
}

const cache = new Map<string, Measured>();

/** Simulates a case once per seed and length; later calls reuse the result. */
function measure(c: Case, scale: number, seed = c.seed): Measured {
  const horizonS = c.horizonS * scale;
  const key = `${c.name}/${seed}/${horizonS}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const loaded = loadScenario(scenarioYaml(c, horizonS), 'mmc.yaml');
  expect(loaded.base.horizon).toBe(horizonS);
  const t0 = performance.now();
  const record = simulate(loaded.base, seed);
  const seconds = (performance.now() - t0) / 1000;
  const t = record.totals;
  const m: Measured = {
    wq: t.queueWaitS / t.served,
    util: t.workS / t.capacityS,
    served: t.served,
    attempts: t.attempts,
    seconds,
  };
  cache.set(key, m);
  return m;
}

function mu(c: Case): number {
  return 1000 / c.serviceMs;
}

function expectedWq(c: Case): number {
  return c.slots === 1 ? mm1Wq(c.lambda, mu(c)) : mmcWq(c.lambda, mu(c), c.slots);
}

function relErr(measured: number, expected: number): number {
  return Math.abs(measured / expected - 1);
}

export interface Precision {
  /** Run length as a share of the full horizons above. */
  scale: number;
  /** Relative tolerance on the mean wait in queue (4 standard errors or more at this length). */
  wqTolerance: number;
  /** Relative tolerance on utilisation. */
  utilTolerance: number;
}

export function describeClosedForms({ scale, wqTolerance, utilTolerance }: Precision): void {
describe(`queueing core vs M/M/1 and M/M/c closed forms (fixed seeds, ${scale === 1 ? 'full' : `${scale} of the full`} horizons)`, () => {
  for (const c of CASES) {
    it(`${c.name}: mean wait in queue within ${wqTolerance * 100}%, utilisation within ${utilTolerance * 100}%`, () => {
      const m = measure(c, scale);
      const rho = utilisation(c.lambda, mu(c), c.slots);
      const wq = expectedWq(c);
      const line =
        `${c.name} (seed ${c.seed}, ${(m.served / 1e6).toFixed(1)}M served, ${m.seconds.toFixed(1)}s): ` +
        `Wq ${(m.wq * 1000).toPrecision(5)}ms vs ${(wq * 1000).toPrecision(5)}ms (${((m.wq / wq - 1) * 100).toFixed(2)}%), ` +
        `util ${m.util.toFixed(5)} vs ${rho} (${((m.util / rho - 1) * 100).toFixed(3)}%)`;
      console.log(line);

      // The scenario is the intended one: Poisson arrivals at lambda (5 sd), no retries.
      const n = c.lambda * c.horizonS * scale;
      expect(Math.abs(m.attempts - n)).toBeLessThan(5 * Math.sqrt(n));
      expect(m.served).toBeLessThanOrEqual(m.attempts);

      expect(relErr(m.wq, wq), line).toBeLessThan(wqTolerance);
      expect(relErr(m.util, rho), line).toBeLessThan(utilTolerance);
    });
  }

  it(`the check has teeth: the rho 0.9 measurements are not within the tolerances of the rho 0.85 forms`, () => {
    const c = CASES.find((k) => k.name === 'M/M/1 at rho 0.9')!;
    const m = measure(c, scale); // reuses the run above
    const lambda85 = 0.85 * mu(c);
    const wq85 = mm1Wq(lambda85, mu(c));
    const rho85 = utilisation(lambda85, mu(c), 1);
    expect(relErr(m.wq, wq85)).toBeGreaterThan(wqTolerance);
    expect(relErr(m.util, rho85)).toBeGreaterThan(utilTolerance);
    // Much finer too: the measured Wq tells rho 0.9 from rho 0.89 (Wq 8.09ms, 10% lower).
    expect(relErr(m.wq, mm1Wq(0.89 * mu(c), mu(c)))).toBeGreaterThan(wqTolerance);
  });
});
}
