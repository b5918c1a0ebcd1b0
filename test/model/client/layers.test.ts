/**
 * The layered retry state machine (src/model/client/clients.ts), end to end through
 * `simulate` and, where exact timelines matter, through the scripted server of harness.ts.
 */
import { describe, it, expect } from 'vitest';
import { run, drive, histogram, failures, sum, offsets, close } from './harness.js';
import { OUTCOME_DEPENDENCY } from '../../../src/model/outcomes.js';

/** One minute of actions at `rate`, then nothing; the dependency is down for the whole run. */
function allFail(layers: string, opts: { rate?: string; failFast?: string; slots?: number; behaviour?: string; horizon?: string; bucket?: string } = {}): string {
  return `
name: layers
horizon: ${opts.horizon ?? '10m'}
clients:
  app:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: ${opts.rate ?? '1/s'} }, { at: 60s, rate: 0/s }] }
    layers:
${layers.trim().split('\n').map((l) => '      ' + l.trim()).join('\n')}
${opts.behaviour ? '    behaviour: ' + opts.behaviour : ''}
server:
  slots: ${opts.slots ?? 100}
  serviceTime: { kind: constant, value: 1ms }
  failFastTime: ${opts.failFast ?? '0s'}
faults:
  - { kind: dependency-down, at: 0s, duration: ${opts.horizon ?? '10m'} }
${opts.bucket ? `measures: { bucket: ${opts.bucket} }` : ''}
`;
}

const FOUR_LAYERS = `
queue: { maxAttempts: 5, retryOn: [5xx, timeout], backoff: { kind: none } }
app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms } }
http: { maxAttempts: 3, backoff: { kind: exponential, base: 10ms } }
proxy: { maxAttempts: 2, retryOn: [5xx] }
`;

describe('layered retries multiply attempts when every attempt fails', () => {
  it('queue 5 x app 3 x http 3 x proxy 2 = exactly 90 attempts for every action', () => {
    const r = run(allFail(FOUR_LAYERS));
    const finished = r.totals.actionsFailed;
    expect(finished).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 90: finished });
    expect(r.totals.attempts).toBe(90 * finished);
    expect(r.totals.actionsOk).toBe(0);
    // 89 of the 90 are retries, 1 is the first try
    expect(sum(r.series.firstTries)).toBe(finished);
    expect(sum(r.series.retries)).toBe(89 * finished);
    expect(failures(r.series, 'dependency')).toBe(90 * finished);
  });

  it('3 layers of 4 tries = 64 attempts per action', () => {
    const r = run(allFail(`
      a: { maxAttempts: 4, backoff: { kind: none } }
      b: { maxAttempts: 4, backoff: { kind: none } }
      c: { maxAttempts: 4, backoff: { kind: none } }`));
    expect(histogram(r)).toEqual({ 64: r.totals.actionsFailed });
  });

  it('5 layers of 3 tries = 243 attempts per action', () => {
    const layers = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}: { maxAttempts: 3, backoff: { kind: none } }`).join('\n');
    const r = run(allFail(layers));
    expect(r.totals.actionsFailed).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 243: r.totals.actionsFailed });
  });

  it('a layer whose retryOn does not match the outcome (503) stops multiplying: it passes the failure up after one try', () => {
    // app retries only timeouts: 5 x 1 x 3 x 2 = 30
    const appNo5xx = run(allFail(FOUR_LAYERS.replace('app: { maxAttempts: 3,', 'app: { maxAttempts: 3, retryOn: [timeout, 429],')));
    expect(histogram(appNo5xx)).toEqual({ 30: appNo5xx.totals.actionsFailed });
    // proxy retries 500 only (the dependency answers 503): 5 x 3 x 3 x 1 = 45
    const proxy500 = run(allFail(FOUR_LAYERS.replace('proxy: { maxAttempts: 2, retryOn: [5xx] }', 'proxy: { maxAttempts: 2, retryOn: [500] }')));
    expect(histogram(proxy500)).toEqual({ 45: proxy500.totals.actionsFailed });
    // ... and 503 by its number matches
    const proxy503 = run(allFail(FOUR_LAYERS.replace('proxy: { maxAttempts: 2, retryOn: [5xx] }', 'proxy: { maxAttempts: 2, retryOn: [503] }')));
    expect(histogram(proxy503)).toEqual({ 90: proxy503.totals.actionsFailed });
  });
});

describe('per-try timeout of an outer layer', () => {
  // Each attempt holds a slot 0.6 s and fails. http: 3 tries, no wait. app: 2 tries of 1 s each.
  // App try 1: http tries at 0 (fails 0.6) and 0.6 (in flight when the app try is cut at 1.0).
  // App try 2 at 1.0: http tries at 1.0 and 1.6, cut at 2.0. The action fails at 2.0 after 4 attempts;
  // the two cut attempts still finish at the server (at 1.2 and 2.2): 2 x 0.6 s of wasted work.
  const yaml = allFail(`
    app: { maxAttempts: 2, timeout: 1s, retryOn: [timeout], backoff: { kind: none } }
    http: { maxAttempts: 3, backoff: { kind: none } }`, { failFast: '600ms' });

  it('abandons the inner calls: 4 attempts per action, 2 app timeouts, 2 dependency failures', () => {
    const r = run(yaml);
    const n = r.totals.actionsFailed;
    expect(n).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 4: n });
    expect(failures(r.series, 'timeout')).toBe(2 * n);
    expect(failures(r.series, 'dependency')).toBe(2 * n);
  });

  it('the attempt in flight when the outer try is cut becomes wasted work', () => {
    const r = run(yaml);
    const n = r.totals.actionsFailed;
    expect(r.totals.wastedWorkS).toBeCloseTo(2 * 0.6 * n, 6);
    expect(r.totals.workS).toBeCloseTo(4 * 0.6 * n, 6);
  });

  it('counts a timeout only for an attempt it cuts: one cut while the layer below waits to retry fails no attempt', () => {
    // app: one try of 1 s. http: 3 tries 2 s apart, each failing at once (at 0, 2 and 4 s).
    // The app try is cut at 1 s, while http waits to retry: its one attempt had already failed
    // (a dependency failure), so no attempt fails by timeout. It once counted one more.
    const r = run(allFail(`
      app: { maxAttempts: 1, timeout: 1s }
      http: { maxAttempts: 3, backoff: { kind: constant, base: 2s, jitter: none }, retryOn: [5xx], retryable: ignore }`));
    const n = r.totals.actionsFailed;
    expect(n).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 1: n });
    expect(failures(r.series, 'dependency')).toBe(n);
    expect(failures(r.series, 'timeout')).toBe(0);
  });

  it('cuts the app try at exactly 1 s (exact timeline against a scripted server)', () => {
    const d = drive(allFail(`
      app: { maxAttempts: 2, timeout: 1s, retryOn: [timeout], backoff: { kind: none } }
      http: { maxAttempts: 3, backoff: { kind: none } }`, { rate: '0.2/s' }), () => ({ after: 0.6, outcome: OUTCOME_DEPENDENCY }));
    expect(d.byAction.length).toBeGreaterThan(5);
    for (const a of d.byAction.slice(0, -1)) expect(close(offsets(a), [0, 0.6, 1.0, 1.6])).toBe(true);
  });
});

describe('deadline', () => {
  it('no try starts at or after the deadline: constant 1 s waits, deadline 5.5 s -> tries at 0..5 s', () => {
    const yaml = allFail(`app: { maxAttempts: 100, deadline: 5500ms, backoff: { kind: constant, base: 1s, jitter: none } }`, { rate: '0.2/s' });
    const r = run(yaml);
    expect(histogram(r)).toEqual({ 6: r.totals.actionsFailed });
    const d = drive(yaml, () => ({ after: 0, outcome: OUTCOME_DEPENDENCY }));
    expect(d.byAction.length).toBeGreaterThan(5);
    for (const a of d.byAction.slice(0, -1)) {
      expect(close(offsets(a), [0, 1, 2, 3, 4, 5])).toBe(true);
      expect(Math.max(...offsets(a))).toBeLessThan(5.5);
    }
  });

  it('the deadline also cuts the try in flight: tries of 2 s under a 5 s deadline -> 3 attempts, the last timed out at 5 s', () => {
    const r = run(allFail(`app: { maxAttempts: 10, deadline: 5s, backoff: { kind: none } }`, { failFast: '2s' }));
    const n = r.totals.actionsFailed;
    expect(histogram(r)).toEqual({ 3: n });
    expect(failures(r.series, 'dependency')).toBe(2 * n);
    expect(failures(r.series, 'timeout')).toBe(n);
    expect(r.totals.wastedWorkS).toBeCloseTo(2 * n, 6); // the 3rd attempt's work: cut at 5 s, done at 6 s
  });

  it('without a deadline the same layer uses all its tries', () => {
    const r = run(allFail(`app: { maxAttempts: 10, backoff: { kind: constant, base: 1s, jitter: none } }`, { rate: '0.2/s' }));
    expect(histogram(r)).toEqual({ 10: r.totals.actionsFailed });
  });
});

describe('retryable flag on 400s (invalidShare: 1)', () => {
  const invalid = (layer: string) => `
name: invalid
horizon: 2m
clients:
  app:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 1/s }, { at: 60s, rate: 0/s }] }
    retry: ${layer}
    behaviour: { invalidShare: 1 }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;
  it('retryable: honour -> 1 attempt per action even with retryOn [4xx]', () => {
    const r = run(invalid('{ maxAttempts: 4, retryOn: [4xx, 5xx], retryable: honour, backoff: { kind: none } }'));
    expect(r.totals.actionsFailed).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 1: r.totals.actionsFailed });
    expect(failures(r.series, 'invalid')).toBe(r.totals.actionsFailed);
  });
  it('retryable: ignore with retryOn [4xx] -> maxAttempts attempts', () => {
    const r = run(invalid('{ maxAttempts: 4, retryOn: [4xx, 5xx], retryable: ignore, backoff: { kind: none } }'));
    expect(histogram(r)).toEqual({ 4: r.totals.actionsFailed });
    expect(failures(r.series, 'invalid')).toBe(4 * r.totals.actionsFailed);
  });
  it('retryable: ignore without 4xx in retryOn -> 1 attempt (status still decides)', () => {
    const r = run(invalid('{ maxAttempts: 4, retryable: ignore, backoff: { kind: none } }'));
    expect(histogram(r)).toEqual({ 1: r.totals.actionsFailed });
  });
  it('retryOn [400] by number behaves like [4xx]', () => {
    const r = run(invalid('{ maxAttempts: 3, retryOn: [400], retryable: ignore, backoff: { kind: none } }'));
    expect(histogram(r)).toEqual({ 3: r.totals.actionsFailed });
  });
});

describe('deadLetter', () => {
  it('counts each call that exhausts the dead-lettering layer in series.deadLettered', () => {
    const outer = run(allFail(`
      queue: { maxAttempts: 3, deadLetter: true, backoff: { kind: none } }
      http: { maxAttempts: 2, backoff: { kind: none } }`));
    const n = outer.totals.actionsFailed;
    expect(histogram(outer)).toEqual({ 6: n });
    expect(sum(outer.series.deadLettered)).toBe(n);
    // on the inner layer, every exhausted inner call (3 per action) is one dead letter
    const inner = run(allFail(`
      queue: { maxAttempts: 3, backoff: { kind: none } }
      http: { maxAttempts: 2, deadLetter: true, backoff: { kind: none } }`));
    expect(sum(inner.series.deadLettered)).toBe(3 * inner.totals.actionsFailed);
    // without deadLetter: none
    const none = run(allFail(`queue: { maxAttempts: 3, backoff: { kind: none } }`));
    expect(sum(none.series.deadLettered)).toBe(0);
  });
  it('a call that succeeds is not dead-lettered', () => {
    const r = run(`
name: ok
horizon: 2m
clients:
  app:
    arrivals: { kind: constant, rate: 1/s }
    retry: { maxAttempts: 3, deadLetter: true }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`);
    expect(r.totals.actionsOk).toBeGreaterThan(60);
    expect(sum(r.series.deadLettered)).toBe(0);
  });
});

describe('behaviour.remoteSwitch', () => {
  // Actions in [0, 60) and in [300, 360); the switch flips at 200 s.
  const switched = (sw: string, layers: string, bucket = '60s') => `
name: switch
horizon: 8m
clients:
  app:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 1/s }, { at: 60s, rate: 0/s }, { at: 300s, rate: 1/s }, { at: 360s, rate: 0/s }] }
    layers:
${layers}
    behaviour: { remoteSwitch: ${sw} }
server: { slots: 100, serviceTime: { kind: constant, value: 1ms } }
faults: [{ kind: dependency-down, at: 0s, duration: 8m }]
measures: { bucket: ${bucket} }
`;
  const TWO = `      outer: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none } }
      inner: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none } }`;

  it('lowers maxAttempts of every layer from `at` on: 3 x 3 = 9 before, 2 x 2 = 4 after', () => {
    const r = run(switched('{ at: 200s, maxAttempts: 2 }', TWO));
    const s = r.series;
    const before = s.actionsStarted[0], after = s.actionsStarted[5];
    expect(before).toBeGreaterThan(30);
    expect(after).toBeGreaterThan(30);
    expect(s.attempts[0] + s.attempts[1]).toBe(9 * before);
    expect(s.attempts[5] + s.attempts[6]).toBe(4 * after);
    expect(histogram(r)).toEqual({ 9: before, 4: after });
  });

  it('never raises maxAttempts', () => {
    const r = run(switched('{ at: 200s, maxAttempts: 5 }', TWO));
    expect(histogram(r)).toEqual({ 9: r.totals.actionsFailed });
  });

  it('minWait raises the wait before a retry from `at` on', () => {
    const ONE = `      app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none } }`;
    const r = run(switched('{ at: 200s, minWait: 5s }', ONE, '1s'));
    const s = r.series;
    const before = sum(s.actionsStarted, 0, 60), after = sum(s.actionsStarted, 300, 360);
    expect(histogram(r)).toEqual({ 3: before + after });
    // before: the 2 retries follow within 0.2 s
    expect(sum(s.retries, 0, 61)).toBe(2 * before);
    expect(sum(s.actionsFailed, 0, 61)).toBe(before);
    // after: no retry in the first 5 s, and each action ends 10 s after it started
    expect(sum(s.retries, 300, 305)).toBe(0);
    expect(sum(s.retries, 305, 371)).toBe(2 * after);
    expect(sum(s.actionsFailed, 300, 305)).toBe(0);
    expect(sum(s.actionsFailed, 305, 310)).toBe(0);
    expect(sum(s.actionsFailed, 310, 370)).toBe(after);
  });

  it('minWait waits exactly max(backoff, minWait) (scripted server)', () => {
    const ONE = `      app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none } }`;
    const d = drive(switched('{ at: 200s, minWait: 5s }', ONE, '1s'), () => ({ after: 0, outcome: OUTCOME_DEPENDENCY }));
    const early = d.byAction.filter((a) => a[0].t < 60), late = d.byAction.filter((a) => a[0].t >= 300 && a[0].t < 350);
    expect(early.length).toBeGreaterThan(20);
    expect(late.length).toBeGreaterThan(20);
    for (const a of early) expect(close(offsets(a), [0, 0.1, 0.2], 1e-6)).toBe(true);
    for (const a of late) expect(close(offsets(a), [0, 5, 10], 1e-6)).toBe(true);
  });
});

describe('behaviour.giveUpAfter and giveUpAfterFailures', () => {
  it('giveUpAfter: the user abandons an action still running after 3.5 s (tries at 0, 1, 2, 3)', () => {
    const r = run(allFail(`app: { maxAttempts: 10, backoff: { kind: constant, base: 1s, jitter: none } }`, { behaviour: '{ giveUpAfter: 3500ms }' }));
    const n = r.totals.actionsFailed;
    expect(n).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 4: n });
    expect(sum(r.series.actionsAbandoned)).toBe(n);
  });

  it('giveUpAfter abandons the attempt in flight: its work is wasted', () => {
    // one 10 s try; the user leaves at 3 s; the server still works until 10 s
    const r = run(allFail(`app: { maxAttempts: 1 }`, { behaviour: '{ giveUpAfter: 3s }', failFast: '10s' }));
    const n = r.totals.actionsFailed;
    expect(sum(r.series.actionsAbandoned)).toBe(n);
    expect(r.totals.wastedWorkS).toBeCloseTo(10 * n, 6);
  });

  it('giveUpAfter does not abandon actions that finish in time', () => {
    const r = run(`
name: ok
horizon: 2m
clients:
  app:
    arrivals: { kind: constant, rate: 1/s }
    retry: { maxAttempts: 3 }
    behaviour: { giveUpAfter: 3500ms }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`);
    expect(r.totals.actionsOk).toBeGreaterThan(60);
    expect(sum(r.series.actionsAbandoned)).toBe(0);
  });

  it('a give-up timer whose action finished first is cancelled, never run as an event', () => {
    // Every action succeeds in 1 ms: with or without a user who would give up after 3.5 s,
    // the run processes the same events (arrivals and completions); the timers are gone.
    const world = (behaviour: string) => run(`
name: ok
horizon: 2m
clients:
  app:
    arrivals: { kind: constant, rate: 5/s }
    retry: { maxAttempts: 3 }
${behaviour}
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`);
    const patient = world('');
    const impatient = world('    behaviour: { giveUpAfter: 3500ms }');
    expect(impatient.totals.actionsOk).toBe(patient.totals.actionsOk);
    expect(impatient.totals.actionsOk).toBeGreaterThan(500);
    expect(impatient.totals.eventsProcessed).toBe(patient.totals.eventsProcessed);
  });

  it('giveUpAfterFailures counts failed tries of the outermost layer: 3 outer failures of 2 inner attempts = 6 attempts', () => {
    const r = run(allFail(`
      outer: { maxAttempts: 10, backoff: { kind: none } }
      inner: { maxAttempts: 2, backoff: { kind: none } }`, { behaviour: '{ giveUpAfterFailures: 3 }' }));
    const n = r.totals.actionsFailed;
    expect(n).toBeGreaterThan(30);
    expect(histogram(r)).toEqual({ 6: n });
    expect(sum(r.series.actionsAbandoned)).toBe(n);
  });
});

describe('behaviour.refresh', () => {
  const refresh = (r: string, maxAttempts = 3) =>
    allFail(`app: { maxAttempts: ${maxAttempts}, backoff: { kind: none } }`, { behaviour: `{ refresh: ${r} }`, horizon: '20m' });

  it('probability 1, max 2: each action is run 3 times by hand, 3 x 3 = 9 attempts, one failure per action', () => {
    const r = run(refresh('{ probability: 1, after: 10s, max: 2 }'));
    const n = r.totals.actionsFailed;
    expect(n).toBe(r.totals.actionsStarted);
    expect(histogram(r)).toEqual({ 9: n });
  });

  it('default max is 3 refreshes', () => {
    const r = run(refresh('{ probability: 1, after: 10s }', 2));
    expect(histogram(r)).toEqual({ 8: r.totals.actionsFailed });
  });

  it('probability 0 never refreshes', () => {
    const r = run(refresh('{ probability: 0, after: 10s, max: 5 }'));
    expect(histogram(r)).toEqual({ 3: r.totals.actionsFailed });
  });

  it('probability 0.5: whole calls only (3, 6, 9, 12 attempts), bounded by max, mean near 3 * (1 + 0.5 + 0.25 + 0.125)', () => {
    const r = run(allFail(`app: { maxAttempts: 3, backoff: { kind: none } }`, { behaviour: '{ refresh: { probability: 0.5, after: 5s, max: 3 } }', rate: '20/s', horizon: '20m' }));
    const h = histogram(r);
    expect(Object.keys(h).map(Number).sort((a, b) => a - b)).toEqual([3, 6, 9, 12]);
    const n = r.totals.actionsFailed;
    const mean = r.totals.attempts / n;
    expect(mean).toBeGreaterThan(5.4);
    expect(mean).toBeLessThan(5.85); // 5.625 expected; n ≈ 1200
  });

  it('the refreshed call starts within `after` of the failure (scripted server)', () => {
    const d = drive(refresh('{ probability: 1, after: 10s, max: 1 }'), () => ({ after: 0, outcome: OUTCOME_DEPENDENCY }));
    for (const a of d.byAction.filter((x) => x[0].t < 50)) {
      const o = offsets(a);
      expect(o.length).toBe(6);
      expect(o.slice(0, 3)).toEqual([0, 0, 0]);
      expect(o[3]).toBeGreaterThan(0);
      expect(o[3]).toBeLessThan(10);
    }
  });
});

describe('behaviour.offline', () => {
  // 10 actions/s while the devices are offline (60 s..120 s); the server is healthy.
  const offline = (flush: string, clients = 1) => `
name: offline
horizon: 5m
clients:
  app:
    clients: ${clients}
    arrivals: { kind: steps, steps: [{ at: 60s, rate: 10/s }, { at: 120s, rate: 0/s }] }
    retry: { maxAttempts: 1 }
    behaviour: { offline: { from: 60s, to: 120s, flush: ${flush} } }
server: { slots: 1000, serviceTime: { kind: constant, value: 1ms } }
measures: { bucket: 1s }
`;

  it('at-once: nothing is sent while offline; every queued action goes out in the bucket at `to`', () => {
    const r = run(offline('at-once', 50));
    const s = r.series;
    const queued = sum(s.actionsStarted, 60, 120);
    expect(queued).toBeGreaterThan(450);
    expect(sum(s.attempts, 0, 120)).toBe(0);
    expect(s.attempts[120]).toBe(queued);
    expect(r.totals.actionsOk).toBe(queued);
  });

  it('spreadPerAction: the flush is spread over queue x spread; peak per bucket far below the burst', () => {
    // one device: its queue is every queued action, the window is queued x 0.1 s
    const r = run(offline('{ spreadPerAction: 100ms }', 1));
    const s = r.series;
    const queued = sum(s.actionsStarted, 60, 120);
    const end = 120 + queued * 0.1;
    expect(sum(s.attempts, 0, 120)).toBe(0);
    expect(sum(s.attempts, 120, Math.ceil(end))).toBe(queued);
    expect(sum(s.attempts)).toBe(queued);
    const peak = Math.max(...s.attempts);
    expect(peak).toBeLessThan(queued / 20); // uniform over ~60 buckets: ~10 each
    // really spread to the end of the window: the second half gets about half
    const secondHalf = sum(s.attempts, Math.ceil(120 + queued * 0.05), Math.ceil(end));
    expect(secondHalf / queued).toBeGreaterThan(0.4);
  });

  it('spreadPerAction with many devices: each device spreads over its own (shorter) queue', () => {
    const r = run(offline('{ spreadPerAction: 1s }', 20));
    const s = r.series;
    const queued = sum(s.actionsStarted, 60, 120);
    // each of the 20 devices holds ~30 actions (max well under 60): all out within 120 + 60 s
    expect(sum(s.attempts, 120, 180)).toBe(queued);
    expect(Math.max(...s.attempts)).toBeLessThan(queued / 10);
  });
});
