import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { changeText, diffScenarios } from '../../src/results/diff/scenario-diff.js';

const scenario = (http: string, extra = '', overlay = '{}') => loadScenario(`
name: s
horizon: 10m
seeds: 2
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
    layers:
      app: { maxAttempts: 2, timeout: 5s }
      http: ${http}
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms }${extra} }
variants:
  as-is: {}
  one-try: { overlay: ${overlay} }
`, 's.yaml');

const texts = (a: ReturnType<typeof scenario>, b: ReturnType<typeof scenario>) => diffScenarios(a, b).changes.map((c) => changeText(c));

describe('the scenario diff, resolved', () => {
  it("shows a field written over a preset with where the old value came from", () => {
    expect(texts(scenario('{ preset: got }'), scenario('{ preset: got, maxAttempts: 5 }'))).toEqual([
      'clients.app.layers.http.maxAttempts 3 (via preset got) -> 5',
    ]);
  });

  it('shows a change of preset as the fields it changes, with their sources', () => {
    const t = texts(scenario('{ preset: got }'), scenario('{ preset: axios-retry }'));
    expect(t).toContain('clients.app.layers.http.preset got -> axios-retry');
    expect(t.some((x) => /^clients\.app\.layers\.http\.maxAttempts 3 \(via preset got\) -> 4 \(via preset axios-retry\)$/.test(x))).toBe(true);
    expect(t.every((x) => !x.startsWith('as-is') && !x.startsWith('one-try'))).toBe(true); // shared by both variants: said once
  });

  it('shows nothing for a default written out, or a value written the same in other words', () => {
    expect(texts(scenario('{ maxAttempts: 1 }'), scenario('{ maxAttempts: 1, retryable: honour }'))).toEqual([]);
    expect(texts(scenario('{ timeout: 60s }'), scenario('{ timeout: 1m }'))).toEqual([]);
  });

  it('reads the one-layer shorthand (retry:) as layer app, in every variant', () => {
    const one = (n: number) => loadScenario(`name: s
horizon: 10m
clients:
  app: { arrivals: { kind: constant, rate: 10/s }, retry: { maxAttempts: 4, timeout: 1s } }
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
variants:
  retries: {}
  fewer: { overlay: { clients: { app: { retry: { maxAttempts: ${n} } } } } }
`, 's.yaml');
    expect(texts(one(1), one(3))).toEqual(['fewer: clients.app.layers.app.maxAttempts 1 -> 3']);
  });

  it('says which variant an overlay change is about', () => {
    const t = texts(scenario('{}'), scenario('{}', '', '{ clients: { app: { layers: { app: { maxAttempts: 1 } } } } }'));
    expect(t).toEqual(['one-try: clients.app.layers.app.maxAttempts 2 -> 1']);
  });
});
