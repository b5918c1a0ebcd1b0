/**
 * Journeys (arrivals kind after): a user's session as a chain of steps, each its own
 * population (route, layers, behaviour), the next step starting only after the previous one
 * succeeded. With no retries and each step failing independently with probability p, a
 * journey of k steps completes with probability (1 - p)^k; a repeated step (a session
 * refreshed every 30 minutes) puts its period into the load.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from './harness.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { ScenarioError, formatProblem } from '../../../src/scenario/problems.js';
import { summarize } from '../../../src/measures/summarize.js';
import { measureSettings } from '../../../src/experiment/settings.js';
import { scenarioOf } from './harness.js';

const P = 0.2;

/** Three steps, each answered 400 (never retried) for a share P of its actions, at 200 journeys/s for 10 minutes. */
const CHAIN = `
name: journeys
horizon: 10m
clients:
  signup:
    arrivals: { kind: constant, rate: 200/s }
    behaviour: { invalidShare: ${P} }
    identity: { route: signup }
  login:
    arrivals: { kind: after, population: signup, delay: 2s }
    behaviour: { invalidShare: ${P} }
    identity: { route: login }
  profile:
    arrivals: { kind: after, population: login, delay: 1s }
    behaviour: { invalidShare: ${P} }
    identity: { route: profile }
server:
  slots: 1000
  serviceTime: { kind: constant, value: 5ms }
`;

describe('journeys (arrivals kind after)', () => {
  it('with no retries and a failure probability p at each of k steps, (1 - p)^k of the journeys complete (within 1%)', () => {
    const scenario = scenarioOf(CHAIN);
    const r = run(CHAIN, 3);
    const signup = r.series.populations[0];
    const done = sum(signup.journeysCompleted);
    const failed = sum(signup.journeysFailed);
    expect(done + failed).toBeGreaterThan(100_000);
    expect(Math.abs(done / (done + failed) / (1 - P) ** 3 - 1)).toBeLessThan(0.01);
    // Each step sees the previous step's successes, its delay later, and nothing else: in 1 s
    // buckets, the logins of a second are the signups that succeeded 2 s before.
    expect(r.series.bucketS).toBe(1);
    const [, login, profile] = r.series.populations;
    expect(sum(login.actionsStarted, 2, 600)).toBe(sum(signup.actionsOk, 0, 598));
    expect(sum(login.actionsStarted, 0, 2)).toBe(0);
    expect(sum(profile.actionsStarted, 1, 600)).toBe(sum(login.actionsOk, 0, 599));
    // Only the first step starts journeys; the measures read them there.
    expect(sum(login.journeysStarted) + sum(profile.journeysStarted)).toBe(0);
    const m = summarize(r, measureSettings(scenario)).measures;
    expect(m.journeyCompletion).toBeCloseTo(done / (done + failed), 10);
    // A completed journey takes the two delays plus three service times: 3.015 s.
    expect(m.journeyTimeMean!).toBeGreaterThan(3.015 - 1e-9);
    expect(m.journeyTimeMean!).toBeLessThan(3.015 + 1e-6);
  });

  it('a session refreshed every 30 minutes puts its period into the load: bursts of logins come back 30, 60, 90 and 120 minutes later', () => {
    const yaml = `
name: sessions
horizon: 3h
measures: { bucket: 1m }
clients:
  login:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 10/s }, { at: 1m, rate: 0/s }] }
    identity: { route: login }
  session:
    arrivals: { kind: after, population: login, delay: 30m, repeat: 4 }
    identity: { route: login }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
`;
    const r = run(yaml, 1);
    const logins = sum(r.series.populations[0].actionsStarted);
    const session = r.series.populations[1].actionsStarted;
    // The minute after each period holds every refresh of that round (the logins took one minute), and the minutes between hold none.
    for (const k of [1, 2, 3, 4]) {
      expect(session[30 * k] + session[30 * k + 1], `refresh ${k}`).toBe(logins);
      expect(sum(session, 30 * k - 28, 30 * k - 1), `before refresh ${k}`).toBe(0);
    }
    expect(sum(session)).toBe(4 * logins);
    // On the shared route the load is the logins' minute and then the same burst every 30 minutes.
    const load = r.series.attempts;
    expect(load[0]).toBeGreaterThan(500);
    expect(load[30] + load[31]).toBe(logins);
    expect(load[150] + load[151]).toBe(0);
    // Every journey completes after its fourth refresh: 4 x 30 minutes after its login, plus four service times.
    const m = summarize(r, measureSettings(scenarioOf(yaml))).measures;
    expect(m.journeyCompletion).toBe(1);
    expect(m.journeyTimeMean!).toBeCloseTo(4 * 30 * 60 + 0.05, 6);
  });

  it('a failed step ends the journey: the steps after it are not started', () => {
    const yaml = CHAIN.replace('invalidShare: 0.2 }\n    identity: { route: signup }', 'invalidShare: 1 }\n    identity: { route: signup }');
    const r = run(yaml, 1);
    expect(sum(r.series.populations[1].actionsStarted)).toBe(0);
    expect(sum(r.series.populations[0].journeysCompleted)).toBe(0);
    expect(sum(r.series.populations[0].journeysFailed)).toBe(sum(r.series.populations[0].actionsFailed));
  });

  it('refuses a step that follows no population, itself, a population that already has a next step, or goes round in a circle', () => {
    const problems = (clients: string) => {
      const yaml = `name: j\nhorizon: 1m\nclients:\n${clients}\nserver:\n  slots: 1\n  serviceTime: { kind: constant, value: 1ms }\n`;
      try {
        loadScenario(yaml, 'j.yaml');
        return [];
      } catch (e) {
        if (e instanceof ScenarioError) return e.problems.map(formatProblem);
        throw e;
      }
    };
    const open = '  a:\n    arrivals: { kind: constant, rate: 1/s }\n';
    expect(problems(open + '  b:\n    arrivals: { kind: after, population: c }')).toEqual([expect.stringMatching(/clients\.b\.arrivals\.population: no population named "c" \(the populations are a\)/)]);
    expect(problems(open + '  b:\n    arrivals: { kind: after, population: b }')).toEqual([expect.stringMatching(/a step cannot follow itself: repeat does that/)]);
    expect(problems(open + '  b:\n    arrivals: { kind: after, population: a }\n  c:\n    arrivals: { kind: after, population: a }')).toEqual([expect.stringMatching(/clients\.c\.arrivals\.population: "b" already follows "a": a step has one next step/)]);
    expect(problems(open + '  b:\n    arrivals: { kind: after, population: c }\n  c:\n    arrivals: { kind: after, population: b }')).toEqual([
      expect.stringMatching(/clients\.b\.arrivals\.population: the steps go round in a circle \(b -> c -> b\)/),
      expect.stringMatching(/clients\.c\.arrivals\.population: the steps go round in a circle \(c -> b -> c\)/),
    ]);
    expect(problems(open + '  b:\n    arrivals: { kind: after, population: a, delay: 5s, repeat: 3 }')).toEqual([]);
  });
});
