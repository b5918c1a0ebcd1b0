/**
 * The plain world (src/model/plain/) runs the same model as the general path for the
 * scenarios it accepts: for each of a set of small plain-shape scenarios and several seeds,
 * the whole run record from simulate() must be exactly the one simulate() gives with
 * `generalPath: true` (every series, total, histogram and fine cell, compared as text
 * with NaN, infinities and negative zero kept apart). The plain world runs the same
 * events, so eventsProcessed is compared too.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { plainShape } from '../../src/model/plain/plain-shape.js';
import type { RunRecord } from '../../src/model/series.js';
import type { Scenario } from '../../src/scenario/schema.js';

/** The reference model's shape, small: a 30 s outage of the dependency tips it into retries and timeouts. */
function yaml(o: { retry?: string; server?: string; faults?: string; clients?: string } = {}): string {
  return `
name: plain
horizon: 3m
clients:
  app:
    clients: 2000
    arrivals: { kind: constant, rate: 150/s }
    retry: ${o.retry ?? '{ maxAttempts: 4, timeout: 400ms, backoff: { kind: exponential, base: 200ms, multiplier: 2, max: 2s, jitter: full } }'}
${o.clients ?? ''}
server:
  slots: 15
  serviceTime: { kind: exponential, mean: 80ms }
${o.server ?? ''}
faults: ${o.faults ?? '[{ kind: dependency-down, at: 1m, duration: 30s }]'}
measures: { bucket: 10s }
`;
}

const jitter = (kind: string) => `{ maxAttempts: 4, timeout: 400ms, backoff: { kind: exponential, base: 200ms, multiplier: 2, max: 2s, jitter: ${kind} } }`;

const CASES: Record<string, string> = {
  'the reference shape (full jitter, unbounded queue, an outage)': yaml(),
  'no fault': yaml({ faults: '[]' }),
  'one attempt (no retries)': yaml({ retry: '{ maxAttempts: 1, timeout: 400ms }' }),
  'a bounded queue and a fail-fast time': yaml({ server: '  queue: 30\n  failFastTime: 5ms' }),
  'no jitter, and a dead-letter count': yaml({ retry: '{ maxAttempts: 3, timeout: 400ms, deadLetter: true, backoff: { kind: linear, base: 300ms, max: 1s, jitter: none } }' }),
  'equal jitter': yaml({ retry: jitter('equal') }),
  'proportional jitter': yaml({ retry: jitter('proportional') }),
  'decorrelated jitter (stateful)': yaml({ retry: jitter('decorrelated') }),
  'decorrelated-v2 jitter (stateful)': yaml({ retry: jitter('decorrelated-v2') }),
  'scaled jitter, constant backoff': yaml({ retry: '{ maxAttempts: 5, timeout: 400ms, backoff: { kind: constant, base: 500ms, jitter: scaled } }' }),
  'no timeout, overload refusals not retryable': yaml({ retry: '{ maxAttempts: 4 }', server: '  queue: 10\n  overload: { status: 429, retryable: false }' }),
  'attempt numbers sent in a header': yaml({ clients: '    behaviour: { attemptHeader: true }' }),
  'a capacity cut and a surge, two populations (one without a retry layer)': yaml({
    faults: '[{ kind: capacity-cut, at: 20s, duration: 40s, slots: 6 }, { kind: surge, at: 1m30s, duration: 20s, factor: 2 }, { kind: dependency-down, at: 2m20s, duration: 10s }]',
    clients: '  batch:\n    clients: 10\n    arrivals: { kind: diurnal, mean: 40/s, amplitude: 0.5, period: 1m }\n    identity: { route: batch }',
  }),
};

const SEEDS = [1, 2, 3];

function load(text: string): Scenario {
  return loadScenario(text, 'plain.yaml').base;
}

/** The whole record as text, with every number's bits told apart (NaN, ±Infinity, -0). */
function text(r: RunRecord): string {
  const num = (x: number) => (Number.isFinite(x) && !Object.is(x, -0) ? x : String(Object.is(x, -0) ? '-0' : x));
  return JSON.stringify(r, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v)) return Array.from(v as Float64Array, num);
    return typeof v === 'number' ? num(v) : v;
  });
}

describe('the plain world gives the general path\'s record', () => {
  for (const [name, source] of Object.entries(CASES)) {
    it(name, () => {
      const s = load(source);
      expect(plainShape(s)).toBe(true); // otherwise both runs below would take the general path
      for (const seed of SEEDS) {
        const plain = simulate(s, seed);
        const general = simulate(s, seed, { generalPath: true });
        expect(plain.totals.eventsProcessed).toBe(general.totals.eventsProcessed);
        expect(text(plain)).toBe(text(general));
      }
    });
  }

  it('is exercised by those scenarios: timeouts, retries, refusals, wasted work', () => {
    const r = simulate(load(yaml({ server: '  queue: 30\n  failFastTime: 5ms' })), 1);
    const total = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
    expect(total(r.series.retries)).toBeGreaterThan(1000);
    expect(total(r.series.failures[0])).toBeGreaterThan(100); // timeouts
    expect(total(r.series.failures[1])).toBeGreaterThan(100); // the dependency down
    expect(total(r.series.failures[2])).toBeGreaterThan(0); // queue full
    expect(r.totals.wastedWorkS).toBeGreaterThan(0);
  });
});

describe('plainShape', () => {
  it('accepts the shipped reference model', async () => {
    const { loadScenarioFile } = await import('../../src/scenario/load.js');
    for (const v of loadScenarioFile('scenarios/reference-storm.yaml').variants) expect(plainShape(v.scenario)).toBe(true);
  });

  it('leaves every other feature to the general path, and says which', () => {
    const cases: Array<[string, string]> = [
      [yaml({ server: '  instances: 2' }), 'more than one instance'],
      [yaml({ server: '  discipline: lifo' }), 'discipline lifo'],
      [yaml({ server: '  deadline: 1s' }), 'a server deadline'],
      [yaml({ server: '  dropAbandoned: true' }), 'dropAbandoned'],
      [yaml({ server: '  overload: { retryAfter: { kind: fixed, after: 1s } }' }), 'a Retry-After contract'],
      [yaml({ faults: '[{ kind: error-rate, at: 1m, duration: 1m, probability: 0.1 }]' }), 'a error-rate fault'],
      [yaml({ retry: '{ maxAttempts: 3, deadline: 2s }' }), 'population app: a layer deadline'],
      [yaml({ retry: '{ maxAttempts: 3, budget: { kind: finagle } }' }), 'population app: a retry budget'],
      [yaml({ clients: '    behaviour: { giveUpAfter: 5s }' }), 'population app: behaviour giveUpAfter'],
      [yaml({ server: '  loadBalancer: random' }), 'a load balancer other than the default'],
      [yaml({ server: '  rejectionCost: 1ms' }), 'a rejection cost'],
    ];
    for (const [source, why] of cases) expect(plainShape(load(source))).toBe(why);
  });

  it('sends a field it does not know down the general path (one added to the schema later)', () => {
    const s = load(yaml());
    const withNewField = { ...s, server: { ...s.server, retryTokens: 5 } } as Scenario;
    expect(plainShape(withNewField)).toBe('server.retryTokens (a field the plain world does not know)');
  });
});
