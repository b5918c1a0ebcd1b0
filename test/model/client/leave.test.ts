/**
 * People who give up on the service (behaviour.leave): the arrival rate a population
 * generates falls while its actions fail and returns as people come back, and it follows the
 * closed form of the two-state model (present / away) every person runs through.
 *
 * N people, each acting at rate r = lambda / N while present. While every action fails at
 * once, a present person leaves at rate r·a (a = the leave probability) and an away one comes
 * back at rate 1/D (exponential time away of mean D), so the present share P obeys
 * dP/dt = -r·a·P + (1 - P)/D: P(t) = P* + (1 - P*)·e^(-k·t), with k = r·a + 1/D and
 * P* = (1/D)/k. Once the service answers again nobody leaves, and P(t) = 1 - (1 - P(T))·e^(-(t-T)/D).
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from './harness.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { ScenarioError, formatProblem } from '../../../src/scenario/problems.js';

const LAMBDA = 1000, PEOPLE = 10_000, SHARE = 0.2, AWAY_S = 100, OUTAGE_S = 600, HORIZON_S = 1200;

function world(opts: { never?: number; closed?: string; extra?: string } = {}): string {
  const arrivals = opts.closed ?? `{ kind: constant, rate: ${LAMBDA}/s }`;
  return `
name: leave
horizon: ${HORIZON_S}s
measures: { bucket: 10s }
clients:
  app:
    clients: ${PEOPLE}
    arrivals: ${arrivals}
    behaviour: { leave: { probability: ${SHARE}, comeBackAfter: { kind: exponential, mean: ${AWAY_S}s }${opts.never !== undefined ? `, never: ${opts.never}` : ''} } }
${opts.extra ?? ''}
server:
  slots: 1000
  serviceTime: { kind: constant, value: 1ms }
  failFastTime: 0s
faults:
  - { kind: dependency-down, at: 0s, duration: ${OUTAGE_S}s }
`;
}

/** The present share at time t (s), from the closed form above. */
function present(t: number): number {
  const r = LAMBDA / PEOPLE;
  const k = r * SHARE + 1 / AWAY_S;
  const settled = 1 / AWAY_S / k;
  const during = (x: number) => settled + (1 - settled) * Math.exp(-k * x);
  if (t <= OUTAGE_S) return during(t);
  return 1 - (1 - during(OUTAGE_S)) * Math.exp(-(t - OUTAGE_S) / AWAY_S);
}

/** Expected actions started in [from, to): lambda times the integral of the present share (Simpson, fine steps). */
function expectedStarts(from: number, to: number): number {
  const n = 2000, h = (to - from) / n;
  let s = present(from) + present(to);
  for (let i = 1; i < n; i++) s += (i % 2 === 1 ? 4 : 2) * present(from + i * h);
  return (LAMBDA * s * h) / 3;
}

describe('people who leave after a failure (behaviour.leave)', () => {
  const seeds = [1, 2].map((seed) => run(world(), seed));
  const started = (from: number, to: number) => seeds.reduce((s, r) => s + sum(r.series.actionsStarted, from / 10, to / 10), 0) / seeds.length;

  it('the arrivals decay to the returning share with the closed form\'s time constant, then come back after recovery (within 2%)', () => {
    const windows: Array<[number, number]> = [[0, 30], [30, 60], [60, 100], [100, 200], [200, 600], [600, 650], [650, 700], [700, 800], [800, 1200]];
    for (const [from, to] of windows) {
      const want = expectedStarts(from, to);
      expect(Math.abs(started(from, to) / want - 1), `actions started in [${from}s, ${to}s): ${started(from, to)} against ${want.toFixed(0)}`).toBeLessThan(0.02);
    }
    // The shape itself: a third of the demand at the trough, nearly all of it back at the end.
    expect(started(500, 600) / (LAMBDA * 100)).toBeCloseTo(1 / 3, 1);
    expect(started(1100, 1200) / (LAMBDA * 100)).toBeGreaterThan(0.95);
  });

  it('every arrival is either an action started or one stayed away from, and departures are counted', () => {
    const r = seeds[0];
    const arrivals = sum(r.series.actionsStarted) + sum(r.series.actionsStayedAway);
    // A Poisson count over 1,200 s at 1,000/s: within 4 standard deviations.
    expect(Math.abs(arrivals - LAMBDA * HORIZON_S)).toBeLessThan(4 * Math.sqrt(LAMBDA * HORIZON_S));
    // Every failed action makes its person leave with the given probability; successes never do.
    const failed = sum(r.series.actionsFailed);
    const left = sum(r.series.peopleLeft);
    expect(Math.abs(left / failed - SHARE)).toBeLessThan(0.005);
    expect(sum(r.series.peopleLeft, OUTAGE_S / 10 + 1)).toBe(0);
    expect(sum(r.series.populations[0].actionsStayedAway)).toBe(sum(r.series.actionsStayedAway));
  });

  it('people who never come back take the demand down for good: exp(-r·a·t) while failing, flat after', () => {
    const r = run(world({ never: 1 }), 3);
    const rate = LAMBDA / PEOPLE * SHARE;
    for (const [from, to] of [[0, 50], [50, 150], [150, 300]] as const) {
      const want = (LAMBDA * (Math.exp(-rate * from) - Math.exp(-rate * to))) / rate;
      expect(Math.abs(sum(r.series.actionsStarted, from / 10, to / 10) / want - 1)).toBeLessThan(0.03);
    }
    // After the outage, whoever is left keeps acting at the reduced rate: no one returns.
    const remaining = Math.exp(-rate * OUTAGE_S);
    const after = sum(r.series.actionsStarted, 700 / 10, 1200 / 10) / (LAMBDA * 500);
    expect(Math.abs(after - remaining)).toBeLessThan(0.01);
  });

  it('patient people (afterFailures: 3) leave at their third failed action in a row: the present share is P(fewer than 3 actions so far)', () => {
    // probability 1 and never 1: a person acting at rate r is present at t while a Poisson(r·t) count is below 3.
    const yaml = world({ never: 1 }).replace(`probability: ${SHARE},`, 'probability: 1, afterFailures: 3,');
    const r = run(yaml, 7);
    const rate = LAMBDA / PEOPLE;
    const presentAt = (t: number) => Math.exp(-rate * t) * (1 + rate * t + (rate * t) ** 2 / 2);
    const expected = (from: number, to: number) => {
      let s = 0;
      for (let t = from + 0.05; t < to; t += 0.1) s += presentAt(t) * 0.1;
      return LAMBDA * s;
    };
    for (const [from, to] of [[0, 10], [10, 30], [30, 60]] as const) {
      expect(Math.abs(sum(r.series.actionsStarted, from / 10, to / 10) / expected(from, to) - 1), `[${from}s, ${to}s)`).toBeLessThan(0.03);
    }
    // Nobody leaves before their third failure: in the first 10 s (one action each on average) few have had three.
    expect(sum(r.series.peopleLeft, 0, 1)).toBeLessThan(0.1 * PEOPLE);
  });

  it('a closed population\'s users come back to act when their time away ends', () => {
    // 2,000 users thinking 10 s between actions that all fail at once; after each, a user leaves with
    // probability 0.2 for 100 s on average, the time away taking the think time's place: a cycle of
    // 0.8 x 10 s + 0.2 x 100 s = 28 s while failing (1/28 actions per user per second), 10 s after.
    const r = run(world({ closed: '{ kind: closed, users: 2000, thinkTime: { kind: exponential, mean: 10s } }' }), 4);
    const during = sum(r.series.actionsStarted, 300 / 10, 600 / 10) / 300 / 2000;
    const after = sum(r.series.actionsStarted, 1000 / 10, 1200 / 10) / 200 / 2000;
    expect(during).toBeGreaterThan((1 / 28) * 0.97);
    expect(during).toBeLessThan((1 / 28) * 1.03);
    expect(after).toBeGreaterThan(0.1 * 0.95);
    expect(after).toBeLessThan(0.1 * 1.05);
  });

  it('a population whose people are another\'s (peopleOf) stops when they have left: its arrivals follow their present share', () => {
    // Sync jobs on the devices of the app's first 4,000 people, 100 writes/s, which never make anyone leave.
    const sync = '  sync:\n    peopleOf: app\n    clients: 4000\n    arrivals: { kind: constant, rate: 100/s }';
    const runs = [5, 6].map((seed) => run(world({ extra: sync }), seed));
    const syncStarted = (from: number, to: number) => runs.reduce((s, r) => s + sum(r.series.populations[1].actionsStarted, from / 10, to / 10), 0) / runs.length;
    for (const [from, to] of [[0, 100], [100, 300], [300, 600], [600, 800], [800, 1200]] as const) {
      const want = (expectedStarts(from, to) / LAMBDA) * 100;
      expect(Math.abs(syncStarted(from, to) / want - 1), `sync writes in [${from}s, ${to}s)`).toBeLessThan(0.03);
    }
    // The sync job's own failures make nobody leave: the app's people leave only through the app.
    expect(sum(runs[0].series.populations[1].peopleLeft)).toBe(0);
  });

  it('refuses a peopleOf that names no population, itself, a chain, or too few people', () => {
    const problems = (extra: string) => {
      try {
        loadScenario(world({ extra }), 'p.yaml');
        return [];
      } catch (e) {
        if (e instanceof ScenarioError) return e.problems.map(formatProblem);
        throw e;
      }
    };
    const pop = (name: string, body: string) => `  ${name}:\n    arrivals: { kind: constant, rate: 1/s }\n${body}`;
    expect(problems(pop('sync', '    peopleOf: apps'))).toEqual([expect.stringMatching(/clients\.sync\.peopleOf: no population named "apps" \(the populations are app\)/)]);
    expect(problems(pop('sync', '    peopleOf: sync'))).toEqual([expect.stringMatching(/cannot take its people from itself/)]);
    expect(problems(pop('sync', '    peopleOf: app\n    clients: 20000'))).toEqual([expect.stringMatching(/"app" has 10000 people .* at most 10000 clients/)]);
    expect(problems(pop('sync', '    peopleOf: app') + '\n' + pop('job', '    peopleOf: sync'))).toEqual([expect.stringMatching(/clients\.job\.peopleOf: "sync" takes its people from "app": name that one here/)]);
    expect(problems(pop('sync', '    peopleOf: app\n    clients: 10'))).toEqual([]);
  });
});
