// How a variant's overlay applies to the base scenario.
import { describe, it, expect } from 'vitest';
import { deepMerge } from '../../src/scenario/merge.js';

describe('deepMerge', () => {
  it('merges mappings key by key and replaces values and lists', () => {
    const base = { server: { slots: 8, queue: 100, stages: [{ kind: 'a' }] }, horizon: '1h' };
    const out = deepMerge(base, { server: { queue: 10, stages: [] }, horizon: '2h' });
    expect(out).toEqual({ server: { slots: 8, queue: 10, stages: [] }, horizon: '2h' });
    expect(base.server.queue).toBe(100); // the base is left as it was
  });

  it('replaces a mapping whose kind changes instead of mixing the two kinds', () => {
    const base = { retryAfter: { kind: 'fixed', after: '30s' }, backoff: { kind: 'exponential', base: '1s', max: '8s' } };
    const out = deepMerge(base, { retryAfter: { kind: 'spread', base: '10s', window: '50s' }, backoff: { kind: 'exponential', max: '2s' } });
    expect(out.retryAfter).toEqual({ kind: 'spread', base: '10s', window: '50s' });
    expect(out.backoff).toEqual({ kind: 'exponential', base: '1s', max: '2s' }); // same kind: merged
  });

  it('keeps a key named __proto__ a plain key', () => {
    const out = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('removes a key the overlay sets to null, so a default or a preset applies again', () => {
    const base = { clients: { app: { retry: { maxAttempts: 5, timeout: '1s' } } }, faults: [{ kind: 'a' }] };
    const out = deepMerge(base, { clients: { app: { retry: { preset: 'got', maxAttempts: null } } }, faults: null });
    expect(out).toEqual({ clients: { app: { retry: { timeout: '1s', preset: 'got' } } } });
  });

  it('leaves null-valued keys out of a mapping that replaces the base one (a new kind, a new population)', () => {
    const base = { retryAfter: { kind: 'fixed', after: '30s' } };
    const out = deepMerge(base, { retryAfter: { kind: 'random', min: '1s', max: null }, extra: { a: null, b: [{ c: null, d: 1 }] } });
    expect(out).toEqual({ retryAfter: { kind: 'random', min: '1s' }, extra: { b: [{ d: 1 }] } });
  });
});
