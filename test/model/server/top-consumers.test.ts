/**
 * The top consumers of a rate-limit stage (story 001's "top consumers": which users or IPs
 * are constantly near their limits): per key, the requests the stage checked and refused,
 * the busiest by each, ties broken by the key's index, named for people, and folded across
 * seeds into the results.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from '../client/harness.js';
import { RateLimit } from '../../../src/model/server/rate-limit-stage.js';
import type { StageSpec } from '../../../src/model/server/stages.js';
import { KeyCounts } from '../../../src/model/server/key-counts.js';
import { stageSchema } from '../../../src/scenario/schema-server.js';
import type { Identities, RequestView } from '../../../src/model/server/request.js';
import { summarize } from '../../../src/measures/summarize.js';
import { FAILURE_CAUSES } from '../../../src/model/series.js';
import { foldRateLimits, type RateLimitOutcome } from '../../../src/measures/top-consumers.js';

describe('top consumers in a run', () => {
  // One heavy API key (5/s) among 50 light users (0.02/s each, 1/s in all), 2 a second allowed per key.
  const yaml = `
name: top-consumers
horizon: 2m
clients:
  light:
    clients: 50
    arrivals: { kind: constant, rate: 1/s }
    retry: { maxAttempts: 1 }
  heavy:
    clients: 1
    arrivals: { kind: constant, rate: 5/s }
    retry: { maxAttempts: 1 }
server:
  slots: 100
  serviceTime: { kind: constant, value: 1ms }
  stages:
    - { kind: rate-limit, key: client, limit: { algorithm: fixed-window, limit: 2, window: 1s }, topKeys: 3 }
`;

  it('ranks the heavy key first, with exactly the requests it sent and the 429s it got, and names keys by population', () => {
    const r = run(yaml);
    const rl = r.rateLimits![0];
    expect(rl.key).toBe('client');
    expect(rl.store).toBe('local');
    expect(rl.sharedStore).toBeNull();
    expect(rl.topBySeen).toHaveLength(3);
    expect(rl.topByRefused[0].key).toBe('heavy#0');
    const heavy = rl.topBySeen[0];
    expect(heavy.key).toBe('heavy#0');
    // Every attempt of the heavy population is its one client's, and went through the stage.
    expect(heavy.seen).toBe(sum(r.series.populations[1].attempts));
    // A local limiter answers at once, so every 429 it gave reached the client.
    expect(heavy.refused).toBe(sum(r.series.populations[1].failures[FAILURE_CAUSES.indexOf('rate-limited')]));
    // At most 2 a second pass: ~5/s sent, ~3/s refused.
    expect(heavy.seen - heavy.refused).toBeLessThanOrEqual(2 * 120);
    expect(heavy.refused / heavy.seen).toBeGreaterThan(0.5);
    // The rest are light users, in order: seen descending, then refused, then key.
    for (const k of rl.topBySeen.slice(1)) expect(k.key).toMatch(/^light#\d+$/);
    for (let i = 1; i < rl.topBySeen.length; i++) expect(rl.topBySeen[i - 1].seen).toBeGreaterThanOrEqual(rl.topBySeen[i].seen);
    expect(rl.checked).toBe(r.totals.attempts);
    // The same lists reach the summary, and the same bytes from the same seed.
    expect(summarize(r).rateLimits![0].topBySeen).toEqual(rl.topBySeen);
    expect(JSON.stringify(run(yaml).rateLimits)).toBe(JSON.stringify(r.rateLimits));
  });

  it('a run without a rate-limit stage has none in its record or summary', () => {
    const r = run(yaml.replace(/  stages:\n.*\n/, ''));
    expect(r.rateLimits).toBeUndefined();
    expect(summarize(r).rateLimits).toBeUndefined();
  });
});

describe('ranking and naming', () => {
  it('ties by seen go to more refused, then to the smaller key index', () => {
    const c = new KeyCounts(6);
    c.seen.set([3, 5, 5, 0, 5, 1]);
    c.refused.set([0, 1, 2, 0, 1, 0]);
    expect(c.top(3, c.seen, c.refused)).toEqual([2, 1, 4]);
    expect(c.top(10, c.seen, c.refused)).toEqual([2, 1, 4, 0, 5]); // keys never seen are left out
    expect(c.top(2, c.refused, c.seen)).toEqual([2, 1]);
    expect(c.top(0, c.seen, c.refused)).toEqual([]);
  });

  it('topKeys 0 lists none and keeps no counts per key, but still the totals', () => {
    const r = run(`
name: none
horizon: 10s
clients:
  u: { clients: 10, arrivals: { kind: constant, rate: 10/s }, retry: { maxAttempts: 1 } }
server:
  slots: 10
  serviceTime: { kind: constant, value: 1ms }
  stages:
    - { kind: rate-limit, key: client, limit: { algorithm: fixed-window, limit: 1, window: 1m }, topKeys: 0 }
`);
    const rl = r.rateLimits![0];
    expect(rl.topBySeen).toEqual([]);
    expect(rl.topByRefused).toEqual([]);
    expect(rl.checked).toBe(r.totals.attempts);
    expect(rl.refused).toBe(r.totals.attempts - 10); // one each for the 10 clients
  });

  it('names IPs by population and address, routes by name, a global limit "all"; and counts what it refuses', () => {
    const ids: Identities = {
      pops: [
        { clientOffset: 0, ipOffset: 0, clientsPerIp: 2, route: 0, tier: undefined, idempotencyKeys: false, distinctBodies: 1, version: undefined, automated: false },
        { clientOffset: 4, ipOffset: 2, clientsPerIp: 1, route: 1, tier: undefined, idempotencyKeys: false, distinctBodies: 1, version: undefined, automated: true },
      ],
      clients: 7,
      ips: 5,
      routes: ['login', 'signup'],
    };
    const make = (key: string) =>
      new RateLimit(stageSchema.parse({ kind: 'rate-limit', key, limit: { algorithm: 'fixed-window', limit: 1, window: '1m' }, topKeys: 2 }) as Extract<StageSpec, { kind: 'rate-limit' }>, 1, ids);
    const req = (client: number, ip: number, route: number, population: number) => ({ client, ip, route, population, instance: 0, retryAfter: NaN, refusalDelay: 0 }) as unknown as RequestView;
    const byIp = make('ip');
    for (let i = 0; i < 3; i++) byIp.check(req(5, 3, 1, 1), i);
    byIp.check(req(1, 0, 0, 0), 0);
    expect(byIp.report(0, ['users', 'bots']).topBySeen).toEqual([
      { key: 'bots ip#1', seen: 3, refused: 2 },
      { key: 'users ip#0', seen: 1, refused: 0 },
    ]);
    const byRoute = make('route');
    byRoute.check(req(0, 0, 1, 1), 0);
    expect(byRoute.report(1, ['users', 'bots']).topBySeen).toEqual([{ key: 'signup', seen: 1, refused: 0 }]);
    const all = make('global');
    all.check(req(0, 0, 0, 0), 0);
    all.check(req(6, 4, 1, 1), 0);
    const rep = all.report(2, ['users', 'bots']);
    expect(rep).toMatchObject({ stage: 2, key: 'global', checked: 2, refused: 1, topByRefused: [{ key: 'all', seen: 2, refused: 1 }] });
  });
});

describe('folding the seeds of a point', () => {
  const outcome = (topBySeen: RateLimitOutcome['topBySeen'], topByRefused: RateLimitOutcome['topByRefused'], checked: number): RateLimitOutcome => ({
    stage: 0, key: 'client', store: 'shared', checked, refused: 0, topBySeen, topByRefused,
  });
  it('one seed is its own list; several: means per run, ranked again, a key a seed did not list counting 0 there', () => {
    const a = outcome([{ key: 'p#0', seen: 10, refused: 4 }, { key: 'p#1', seen: 6, refused: 0 }], [{ key: 'p#0', seen: 10, refused: 4 }], 20);
    const b = outcome([{ key: 'p#1', seen: 12, refused: 2 }, { key: 'p#0', seen: 8, refused: 2 }], [{ key: 'p#0', seen: 8, refused: 2 }, { key: 'p#1', seen: 12, refused: 2 }], 30);
    expect(foldRateLimits([[a]])).toEqual([a]);
    const [f] = foldRateLimits([[a], [b]]);
    expect(f.checked).toBe(25);
    expect(f.topBySeen).toEqual([{ key: 'p#0', seen: 9, refused: 3 }, { key: 'p#1', seen: 9, refused: 1 }]);
    // p#1 is in seed a's seen list, so its refusals there (0) are known; the list is as long as the longest a seed gave.
    expect(f.topByRefused).toEqual([{ key: 'p#0', seen: 9, refused: 3 }, { key: 'p#1', seen: 9, refused: 1 }]);
  });
});
