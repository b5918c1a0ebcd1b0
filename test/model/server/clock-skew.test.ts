/**
 * Clock skew between instances (rate-limit stage `clockSkew`; story 001: "a significant
 * desynchronisation between the servers can lead to imprecise counts"). Each instance's own
 * limiter reads true time + its offset, so its fixed windows start when its clock says, not
 * when the others' do. The stage is driven directly here, one request at a time on a scripted
 * timeline, so every count is exact.
 */
import { describe, it, expect } from 'vitest';
import { RateLimit, clockSkews } from '../../../src/model/server/rate-limit-stage.js';
import type { StageSpec } from '../../../src/model/server/stages.js';
import { stageSchema } from '../../../src/scenario/schema-server.js';
import type { Identities, RequestView } from '../../../src/model/server/request.js';
import { loadScenario } from '../../../src/scenario/load.js';

type RateLimitSpec = Extract<StageSpec, { kind: 'rate-limit' }>;
const spec = (extra: Record<string, unknown>) => stageSchema.parse({ kind: 'rate-limit', key: 'client', limit: { algorithm: 'fixed-window', limit: 10, window: '60s' }, ...extra }) as RateLimitSpec;
const ids: Identities = {
  pops: [{ clientOffset: 0, ipOffset: 0, clientsPerIp: 1, route: 0, tier: undefined, idempotencyKeys: false, distinctBodies: 1, version: undefined, automated: false }],
  clients: 1,
  ips: 1,
  routes: ['api'],
};
const request = (instance: number) => ({ client: 0, ip: 0, route: 0, population: 0, instance, retryAfter: NaN, refusalDelay: 0 }) as unknown as RequestView;

/**
 * One client hammering two instances, alternately, one request every 50 ms from `from` to
 * `to` (s): the times at which a request was let through.
 */
function hammer(stage: RateLimit, from: number, to: number): number[] {
  const allowed: number[] = [];
  let i = 0;
  for (let t = from; t < to - 1e-9; t = from + ++i * 0.05) if (stage.check(request(i % 2), t) >= 0) allowed.push(t);
  return allowed;
}
const within = (xs: number[], a: number, b: number) => xs.filter((t) => t >= a - 1e-9 && t < b - 1e-9).length;

describe('clock skew between instances moves each one\'s window boundaries', () => {
  it('in step, both instances reset at 60 s: 10 each before it, none in [55 s, 60 s), 10 each after', () => {
    const allowed = hammer(new RateLimit(spec({}), 2, ids), 0, 65);
    expect(within(allowed, 0, 60)).toBe(20);
    expect(within(allowed, 55, 60)).toBe(0);
    expect(within(allowed, 60, 65)).toBe(20);
  });

  it('an instance 3 s ahead starts its next minute at 57 s true time: its 10 pass before the boundary the other keeps', () => {
    const stage = new RateLimit(spec({ clockSkew: { offsets: ['0s', '+3s'] } }), 2, ids);
    const allowed = hammer(stage, 0, 65);
    // Instance 1's first window is [-3 s, 57 s): 10 at the start; its second starts at 57 s: 10 more at once.
    expect(within(allowed, 55, 60)).toBe(10);
    expect(within(allowed, 57, 58)).toBe(10); // it gets every other request: one per 100 ms
    // So the true minute [0, 60) lets 30 through, not 2 x 10: the count is imprecise by one instance's limit.
    expect(within(allowed, 0, 60)).toBe(30);
    // And instance 0 still resets at 60 s.
    expect(within(allowed, 60, 65)).toBe(10);
  });

  it('an instance 3 s behind keeps refusing until 63 s true time', () => {
    const allowed = hammer(new RateLimit(spec({ clockSkew: { offsets: ['0s', '-3s'] } }), 2, ids), 0, 65);
    expect(within(allowed, 60, 63)).toBe(10); // instance 0 only
    expect(within(allowed, 63, 64)).toBe(10); // instance 1, from 63 s
  });

  it('the Retry-After of a refused request is on the instance\'s clock: 3 s sooner on the instance ahead', () => {
    const stage = new RateLimit(spec({ clockSkew: { offsets: ['0s', '+3s'] } }), 2, ids);
    hammer(stage, 0, 30);
    const r0 = request(0), r1 = request(1);
    expect(stage.check(r0, 30)).toBeLessThan(0);
    expect(stage.check(r1, 30)).toBeLessThan(0);
    expect(r0.retryAfter).toBeCloseTo(30, 9);
    expect(r1.retryAfter).toBeCloseTo(27, 9);
  });

  it('a shared fixed window whose key each server names by its own clock: the server ahead opens the next minute\'s key 3 s early and spends it before the other\'s minute starts', () => {
    const aligned = hammer(new RateLimit(spec({ store: 'shared' }), 2, ids), 0, 65);
    expect(within(aligned, 0, 60)).toBe(10);
    expect(within(aligned, 60, 61)).toBe(10);
    const stage = new RateLimit(spec({ store: 'shared', clockSkew: { offsets: ['0s', '+3s'] } }), 2, ids);
    const skewed = hammer(stage, 0, 65);
    // Minute 0's key: the first 10. Minute 1's key, opened at 57 s by instance 1 (every other request): 10 more.
    expect(within(skewed, 0, 57)).toBe(10);
    expect(within(skewed, 57, 58)).toBe(10);
    expect(within(skewed, 0, 60)).toBe(20);
    // Instance 0 reaches minute 1 at 60 s and finds its key already full: nothing in its minute
    // until instance 1 opens minute 2's key at 117 s.
    expect(within(skewed, 58, 65)).toBe(0);
    expect(within(hammer(stage, 65, 118), 116.99, 118)).toBe(10);
  });

  it('a key written after its server\'s clock has moved a window on is a new count (the old key has expired): clocks a window apart are not counted exactly', () => {
    const stage = new RateLimit(spec({ store: 'shared', clockSkew: { offsets: ['0s', '+70s'] } }), 2, ids);
    // Instance 1 writes minute 1's key from t = 0; instance 0 then writes minute 0's, one behind: counted.
    for (let i = 0; i < 10; i++) expect(stage.check(request(1), i * 0.1)).toBeGreaterThanOrEqual(0);
    expect(stage.check(request(1), 1)).toBeLessThan(0);
    for (let i = 0; i < 10; i++) expect(stage.check(request(0), 2 + i * 0.1)).toBeGreaterThanOrEqual(0);
    expect(stage.check(request(0), 3)).toBeLessThan(0);
    // Instance 1 moves to minute 2 at 50 s; minute 0 is now two behind: every request of instance 0 passes.
    expect(stage.check(request(1), 50)).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 20; i++) expect(stage.check(request(0), 51 + i * 0.1)).toBeGreaterThanOrEqual(0);
  });

  it('limiters without windows in a shared store keep the store\'s one clock: skew changes nothing there', () => {
    const bucket = { algorithm: 'token-bucket', rate: '10/min', burst: 10 };
    const a = hammer(new RateLimit(spec({ store: 'shared', limit: bucket }), 2, ids), 0, 65);
    const b = hammer(new RateLimit(spec({ store: 'shared', limit: bucket, clockSkew: { offsets: ['0s', '+3s'] } }), 2, ids), 0, 65);
    expect(b).toEqual(a);
    expect(a.length).toBeGreaterThan(10);
  });

  it('max: offsets drawn uniformly in [-max, max] per instance, from the seed: the same for the same seed, different for another', () => {
    const a = clockSkews({ max: 2 }, 1000, 7);
    expect(Array.from(a)).toEqual(Array.from(clockSkews({ max: 2 }, 1000, 7)));
    expect(Array.from(a)).not.toEqual(Array.from(clockSkews({ max: 2 }, 1000, 8)));
    expect(Math.max(...a)).toBeLessThanOrEqual(2);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-2);
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.15); // uniform on [-2, 2]: sd of the mean 1.15 / sqrt(1000) = 0.037
    expect(a.filter((x) => x > 1).length / 1000).toBeCloseTo(0.25, 1);
    // offsets: instance i takes offsets[i mod n].
    expect(Array.from(clockSkews({ offsets: [-1, 2] }, 5, 0))).toEqual([-1, 2, -1, 2, -1]);
    expect(Array.from(clockSkews(undefined, 3, 0))).toEqual([0, 0, 0]);
  });

  it('a clock offset that is not one is refused with a clear error where it is written', () => {
    const yaml = (skew: string) => `
name: x
horizon: 1m
clients:
  u: { clients: 1, arrivals: { kind: constant, rate: 1/s } }
server:
  slots: 1
  serviceTime: { kind: constant, value: 1ms }
  stages:
    - { kind: rate-limit, key: client, limit: { algorithm: fixed-window, limit: 1, window: 1s }, clockSkew: ${skew} }
`;
    expect(() => loadScenario(yaml('{ offsets: ["-1.5s", "+2s"] }'), 'x.yaml')).not.toThrow();
    expect(() => loadScenario(yaml('{ offsets: ["2 s"] }'), 'x.yaml')).toThrow(/x\.yaml:10:\d+ +server\.stages\[0\]\.clockSkew\.offsets\[0\]: "2 s" is not a duration.*write "2s"/);
    expect(() => loadScenario(yaml('{ offsets: [2] }'), 'x.yaml')).toThrow(/clockSkew\.offsets\[0\]: expected a clock offset such as "-1\.5s"/);
    expect(() => loadScenario(yaml('{ max: -2s }'), 'x.yaml')).toThrow(/clockSkew\.max: a duration cannot be negative/);
    expect(() => loadScenario(yaml('{ max: 2s, offsets: [1s] }'), 'x.yaml')).toThrow(/clockSkew: give either max .* or offsets/);
  });
});
