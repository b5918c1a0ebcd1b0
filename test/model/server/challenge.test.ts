/**
 * The bot challenge stage (Challenge in src/model/server/stages.ts, story 003's "a barrier
 * against bots before any external call"): automated clients are answered 403 unless they
 * pass; a share of people's actions is challenged on the first try and passes when the
 * person sends it again at least solveTime later; a library's sooner retry is challenged
 * again; other routes are not touched.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures } from '../client/harness.js';
import type { RunRecord } from '../../../src/model/series.js';

/**
 * 20 people's signups/s whose app retries a 4xx at once a second later (3 tries) and whose
 * person sends the form again 10 s after a failure; 50 bot signups/s; 20 logins/s.
 */
const world = (opts: { people?: number; bots?: number; personLayer?: boolean } = {}) => `
name: challenge
horizon: 10m
measures: { bucket: 10s }
clients:
  people:
    clients: 10000
    arrivals: { kind: constant, rate: 20/s }
    identity: { route: signup }
    layers:
${opts.personLayer === false ? '' : '      person: { maxAttempts: 2, retryOn: [403], backoff: { kind: constant, base: 10s, jitter: none } }\n'}      app: { maxAttempts: 3, timeout: 5s, retryOn: [timeout, reset, 5xx, 4xx], retryable: ignore, backoff: { kind: constant, base: 1s } }
  bots:
    role: attacker
    clients: 1000
    arrivals: { kind: constant, rate: 50/s }
    identity: { route: bot-signup }
  logins:
    clients: 10000
    arrivals: { kind: constant, rate: 20/s }
    identity: { route: login }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  stages:
    - { kind: challenge, routes: [signup, bot-signup], people: ${opts.people ?? 0.05}, solveTime: 5s, bots: ${opts.bots ?? 0} }
`;

const route = (r: RunRecord, name: string) => r.routes.indexOf(name);
const ok = (r: RunRecord, name: string) => sum(r.series.routeActionsOk[route(r, name)]);
const failed = (r: RunRecord, name: string) => sum(r.series.routeActionsFailed[route(r, name)]);
const histogramOf = (r: RunRecord, population: string) => {
  const h = r.attemptsPerActionByPopulation[r.populations.findIndex((p) => p.name === population)];
  return Object.fromEntries(h.flatMap((n, k) => (n > 0 ? [[k, n]] : [])));
};

describe('a bot challenge', () => {
  const r = run(world());

  it('stops every bot request at the edge', () => {
    expect(ok(r, 'bot-signup')).toBe(0);
    expect(failed(r, 'bot-signup')).toBeGreaterThan(50 * 590);
  });

  it('challenges about 5% of people\'s actions, whose library retries a second later are challenged again, and lets them through when the person sends again', () => {
    const h = histogramOf(r, 'people');
    const actions = Object.values(h).reduce((a, b) => a + b, 0);
    // Unchallenged: one try. Challenged: three app tries within 2 s (all challenged), then the
    // person's resend 10 s later, which passes: four tries.
    expect(Object.keys(h).sort()).toEqual(['1', '4']);
    const share = h[4] / actions;
    // About 12,000 actions: the binomial's standard deviation is 0.2 points.
    expect(share).toBeGreaterThan(0.05 - 0.01);
    expect(share).toBeLessThan(0.05 + 0.01);
    expect(failed(r, 'signup')).toBe(0);
    // Every challenged try is counted under its cause: 3 per challenged action, plus every bot
    // request; and the tries of actions the horizon cut short (about 15 s of them: 20/s x 5%).
    const counted = failures(r.series, 'challenged') - failed(r, 'bot-signup');
    expect(counted).toBeGreaterThanOrEqual(3 * h[4]);
    expect(counted).toBeLessThanOrEqual(3 * h[4] + 3 * 40);
  });

  it('does not touch a route it does not list', () => {
    expect(histogramOf(r, 'logins')).toEqual({ 1: expect.any(Number) });
    expect(failed(r, 'login')).toBe(0);
  });

  it('fails the challenged share of people when nobody sends again', () => {
    const alone = run(world({ personLayer: false }));
    const share = failed(alone, 'signup') / (failed(alone, 'signup') + ok(alone, 'signup'));
    expect(share).toBeGreaterThan(0.04);
    expect(share).toBeLessThan(0.06);
  });

  it('lets through the share of bots that pass, and no people are challenged at people: 0', () => {
    const leaky = run(world({ bots: 0.3, people: 0 }));
    const passed = ok(leaky, 'bot-signup') / (ok(leaky, 'bot-signup') + failed(leaky, 'bot-signup'));
    expect(passed).toBeGreaterThan(0.28);
    expect(passed).toBeLessThan(0.32);
    expect(histogramOf(leaky, 'people')).toEqual({ 1: expect.any(Number) });
  });
});
