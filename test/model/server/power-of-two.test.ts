/**
 * Power-of-two-choices balancing (server.loadBalancer: power-of-two): two instances drawn
 * at random, the request goes to the one with fewer outstanding attempts. Mitzenmacher's
 * supermarket model ("The Power of Two Choices in Randomized Load Balancing", IEEE TPDS
 * 2001) gives, for n -> infinity single-server FIFO queues with Poisson arrivals at load
 * lambda per queue and exponential service of mean 1, a mean time in system of
 * sum_{i>=1} lambda^(2^i - 2) (with d = 2), against 1 / (1 - lambda) for a random pick:
 * at lambda = 0.9, 2.61 against 10 service times. Least-outstanding (join the shortest
 * queue, looking at every instance) does better still.
 */
import { describe, it, expect } from 'vitest';
import { run } from '../client/harness.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';

/** 20 instances of one slot, exponential service of 100 ms, Poisson arrivals at 90% of the capacity (180/s). */
const world = (lb: string) => `
name: p2c
horizon: 20m
clients:
  app:
    arrivals: { kind: constant, rate: 180/s }
    retry: { timeout: none }
server:
  instances: 20
  loadBalancer: ${lb}
  slots: 1
  serviceTime: { kind: exponential, mean: 100ms }
`;

const meanWait = (lb: string) => {
  const r = run(world(lb), 7);
  return r.totals.queueWaitS / r.totals.served;
};

describe('power-of-two-choices', () => {
  it('on a fixed seed, the mean queue wait lies between random and least-outstanding, near the supermarket model', () => {
    const random = meanWait('random');
    const two = meanWait('power-of-two');
    const least = meanWait('least-outstanding');
    // Random: 20 M/M/1 queues at rho = 0.9, Wq = rho / (mu - lambda) = 0.9 s (the run's 216,000
    // requests hold it to a few percent: waits at rho 0.9 are strongly correlated).
    expect(random).toBeGreaterThan(0.75);
    expect(random).toBeLessThan(1.05);
    // Two choices: the supermarket model's 2.61 service times in the system, Wq = 0.161 s for
    // infinitely many queues; 20 queues do a little worse (the chance of drawing the same busy
    // pair is not zero), so the band is [0.9, 1.35] x 0.161 s.
    const supermarket = 0.1 * (0.9 ** 2 + 0.9 ** 6 + 0.9 ** 14 + 0.9 ** 30 + 0.9 ** 62);
    expect(two).toBeGreaterThan(0.9 * supermarket);
    expect(two).toBeLessThan(1.35 * supermarket);
    // Least-outstanding sees every queue: shorter waits still.
    expect(least).toBeLessThan(two);
    expect(least).toBeGreaterThan(0);
    expect(two).toBeLessThan(random / 3);
  });

  it('is named among the balancers when the name is wrong', () => {
    const yaml = world('power-of-3').replace(/^\n/, '');
    expect(positionedProblems(yaml)).toEqual([expect.stringMatching(/^9:17 server\.loadBalancer: .*power-of-two/)]);
  });
});
