/**
 * The search on real runs, where it can go wrong: a run that fails (here, every run, past a
 * tiny memory budget) stops every variant's search with the run named, instead of a search
 * that decides without it; a parameter that takes only whole numbers; and the direction,
 * read from every variant together.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../src/scenario/load.js';
import { pooledDirection, runSearch, SearchInterrupted, SearchRunFailed } from '../../../src/experiment/search/run-search.js';

describe('runSearch', () => {
  it('stops with the failed run named when a run fails', async () => {
    const text = readFileSync(join(import.meta.dirname, 'tiny-cliff.yaml'), 'utf8') + 'variants:\n  a: {}\n  b: {}\n';
    const loaded = loadScenario(text, 'tiny-cliff.yaml');
    const search = runSearch(loaded, loaded.search!, { workers: 0, runBudget: { memoryBytes: 1024 } });
    await expect(search).rejects.toThrow(SearchRunFailed);
    await expect(search).rejects.toThrow(/^variant "a" at 20\/s, seed 1: .*memory/);
  });

  it('tries only whole numbers of a parameter that takes no fractions (server.slots), and reads the direction once for every variant', async () => {
    // It once tried 5.8 slots and stopped on a validation error in the middle of the search.
    const text = readFileSync(join(import.meta.dirname, 'tiny-cliff.yaml'), 'utf8').replace(/search:[\s\S]*$/, '') +
      'search: { parameter: server.slots, range: { from: 4, to: 24 }, budget: 24 }\nvariants:\n  a: {}\n  b: {}\n';
    const loaded = loadScenario(text, 'tiny-cliff.yaml');
    const outcome = await runSearch(loaded, loaded.search!, { workers: 0 });
    for (const v of outcome.variants) for (const t of v.result.tried) expect(Number.isInteger(t.value)).toBe(true);
    expect(new Set(outcome.variants.map((v) => v.result.direction)).size).toBe(1);
  });

  it('pools every variant\'s coarse pass into one direction, and answers nobody before the last is in', async () => {
    const t = (value: number, recovered: number) => ({ value, recovered, runs: 4 });
    const ask = pooledDirection(2, new AbortController().signal);
    let first: string | undefined;
    // A variant that recovers everywhere (4 of 4 at both ends) shows no direction; the other rises.
    const flat = ask(t(1, 4), t(20, 4)).then((d) => (first = d));
    await Promise.resolve();
    expect(first).toBeUndefined();
    const rising = await ask(t(1, 0), t(20, 4));
    expect([rising, await flat]).toEqual(['rising', 'rising']);
    // Nothing rises or falls over all the variants: falling, the common case (a longer outage).
    const none = pooledDirection(1, new AbortController().signal);
    expect(await none(t(1, 4), t(20, 4))).toBe('falling');
    // An abort (Ctrl-C, another variant's failed run) releases the variants waiting.
    const stop = new AbortController();
    const waiting = pooledDirection(2, stop.signal)(t(1, 0), t(20, 4));
    stop.abort();
    await expect(waiting).rejects.toThrow(SearchInterrupted);
  });
});
