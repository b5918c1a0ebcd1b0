/**
 * The library presets: every name has one, each says its library, version and source, and
 * resolveLayer gives each library's documented defaults (the numbers below are the ones
 * verified against the sources quoted in src/model/client/presets.ts and docs/presets.md).
 * A field written in the scenario overrides the preset; what neither says comes from
 * LAYER_DEFAULTS. `name@version` gives the release line that version falls in.
 */
import { describe, it, expect } from 'vitest';
import { PRESETS } from '../../src/model/client/presets.js';
import { PRESET_NAMES, PRESET_RELEASES, parsePresetRef, describeReleaseLines } from '../../src/scenario/preset-names.js';
import { LAYER_DEFAULTS } from '../../src/model/client/layer-spec.js';
import { resolveLayer } from '../../src/model/client/resolve-layer.js';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';

describe('presets: one per name, each with its provenance', () => {
  it('has exactly one preset per preset name', () => {
    expect(Object.keys(PRESETS).sort()).toEqual([...PRESET_NAMES].sort());
  });

  it.each(PRESET_NAMES)('%s names its library, version and source', (name) => {
    const p = PRESETS[name];
    expect(p.library.trim().length).toBeGreaterThan(0);
    expect(p.version.trim().length).toBeGreaterThan(0);
    expect(p.source).toMatch(/https?:\/\//);
    expect(p.notes?.trim().length ?? 0).toBeGreaterThan(0);
  });

  it.each(PRESET_NAMES)('%s resolves to a valid layer', (name) => {
    const l = resolveLayer('x', { preset: name });
    expect(l.name).toBe('x');
    expect(Number.isInteger(l.maxAttempts) && l.maxAttempts >= 1).toBe(true);
    expect(l.timeout).toBeGreaterThan(0);
    expect(l.backoff.base).toBeGreaterThanOrEqual(0);
    // A cap below the base would silently shorten the documented first wait (the default cap is 10 s).
    expect(l.backoff.max).toBeGreaterThanOrEqual(l.backoff.kind === 'none' ? 0 : l.backoff.base);
    expect(l.backoff.multiplier).toBeGreaterThanOrEqual(1);
    expect(l.retryOn.length).toBeGreaterThan(0);
  });
});

describe('presets: documented values', () => {
  it('got: limit 2 + 1 = 3 attempts, 1s * 2^(n-1) (+ up to 100 ms noise), its status list, Retry-After up to maxRetryAfter', () => {
    const l = resolveLayer('x', { preset: 'got' });
    expect(l.maxAttempts).toBe(3);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 1, multiplier: 2, max: Infinity, jitter: 'proportional', jitterFactor: 0.05 });
    expect(l.retryOn).toEqual(['timeout', 'reset', 408, 413, 429, 500, 502, 503, 504, 521, 522, 524]);
    // calculate-retry-delay.js: the Retry-After itself is the wait, or no retry above maxRetryAfter (none by default)
    expect(l.retryAfter).toMatchObject({ mode: 'exact', cap: Infinity, max: Infinity });
    expect(l.timeout).toBe(Infinity);
    expect(l.budget).toBeUndefined();
  });

  it('axios-retry: 3 retries, no delay, network errors + 5xx + 429, Retry-After honoured', () => {
    const l = resolveLayer('x', { preset: 'axios-retry' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff.kind).toBe('none');
    expect(l.retryOn).toEqual(['reset', '5xx', 429]);
    expect(l.retryOn).not.toContain('timeout');
    expect(l.retryAfter.mode).toBe('honour');
  });

  it('urllib3: Retry.DEFAULT total 3, no backoff, no status forced, the Retry-After waited exactly, capped at 6 h', () => {
    const l = resolveLayer('x', { preset: 'urllib3' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff.kind).toBe('none');
    expect(l.retryOn).toEqual(['timeout', 'reset']);
    expect(l.retryAfter).toMatchObject({ mode: 'exact', cap: 21600, max: Infinity });
  });

  it('go-retryablehttp: RetryMax 4, 1s..30s exponential, 5xx and 429, the Retry-After waited exactly', () => {
    const l = resolveLayer('x', { preset: 'go-retryablehttp' });
    expect(l.maxAttempts).toBe(5);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 1, multiplier: 2, max: 30, jitter: 'none' });
    expect(l.retryOn).toEqual(['timeout', 'reset', '5xx', 429]);
    expect(l.retryAfter).toMatchObject({ mode: 'exact', cap: Infinity, max: Infinity });
  });

  it('okhttp: connection failures (and 408) only, once, 10 s read timeout, no backoff', () => {
    const l = resolveLayer('x', { preset: 'okhttp' });
    expect(l.maxAttempts).toBe(2);
    expect(l.timeout).toBe(10);
    expect(l.backoff.kind).toBe('none');
    expect(l.retryOn).toEqual(['reset', 408]);
    expect(l.retryOn).not.toContain('5xx');
    expect(l.retryAfter.mode).toBe('ignore');
  });

  it('grpc: gRFC A6 (as updated in 2024) example policy, jitter x uniform(0.8, 1.2), pushback waited exactly, retryThrottling 10 / 0.1', () => {
    const l = resolveLayer('x', { preset: 'grpc' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 });
    expect(l.retryOn).toEqual(['reset', 503]);
    expect(l.retryAfter.mode).toBe('exact');
    expect(l.budget).toEqual({ kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 });
  });

  it('grpc-java, grpc-go, grpc-js: the A6 example policy; the current releases jitter x uniform(0.8, 1.2)', () => {
    for (const name of ['grpc-java', 'grpc-go', 'grpc-js'] as const) {
      const l = resolveLayer('x', { preset: name });
      const spec = resolveLayer('x', { preset: 'grpc' });
      expect(l, name).toEqual(spec);
    }
  });

  it('aws-sdk-js-v3 (current, 2026 defaults): 3 attempts, 50 ms full jitter up to 20 s, quota 500, transient 14, throttling 5, capped; Retry-After up to 5 s past the backoff', () => {
    const l = resolveLayer('x', { preset: 'aws-sdk-js-v3' });
    expect(l.maxAttempts).toBe(3);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 0.05, multiplier: 2, max: 20, jitter: 'full' });
    expect(l.retryOn).toEqual(['timeout', 'reset', 429, 500, 502, 503, 504]);
    expect(l.retryAfter).toMatchObject({ mode: 'bounded', bound: 5 });
    expect(l.budget).toEqual({ kind: 'aws-quota', capacity: 500, transientCost: 14, throttlingCost: 5, successRefund: 1, refill: 'capped' });
  });

  it('envoy: num_retries 1, 25 ms base and 250 ms max back-off, 15 s route timeout, max_retries 3', () => {
    const l = resolveLayer('x', { preset: 'envoy' });
    expect(l.maxAttempts).toBe(2);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 0.025, max: 0.25, jitter: 'full' });
    expect(l.backoff.max).toBeCloseTo(10 * l.backoff.base, 12);
    expect(l.deadline).toBe(15);
    expect(l.timeout).toBe(Infinity);
    expect(l.retryOn).toEqual(['timeout', 'reset', '5xx']);
    expect(l.budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 3 });
  });

  it('finagle: RetryBudget() ttl 10 s, 10 retries/s, 20%, deposits on success; requeues immediate, ceil(0.2 x balance) per request', () => {
    const l = resolveLayer('x', { preset: 'finagle' });
    expect(l.budget).toEqual({ kind: 'finagle', ttl: 10, minRetriesPerSec: 10, percentCanRetry: 0.2, deposit: 'success', perRequest: 0.2 });
    // no fixed count: the per-request cap, read from the balance, decides (test/model/client/preset-behaviour.test.ts)
    expect(l.maxAttempts).toBe(1000);
    expect(l.backoff.kind).toBe('none');
    expect(l.retryOn).toEqual(['reset']);
  });

  it('resilience4j: maxAttempts 3, fixed 500 ms, CircuitBreaker ofDefaults', () => {
    const l = resolveLayer('x', { preset: 'resilience4j' });
    expect(l.maxAttempts).toBe(3);
    expect(l.backoff).toMatchObject({ kind: 'constant', base: 0.5, max: Infinity, jitter: 'none' });
    expect(l.retryable).toBe('ignore');
    expect(l.breaker).toEqual({
      window: { calls: 100 },
      failureRateThreshold: 0.5,
      minimumCalls: 100,
      openFor: 60,
      halfOpenCalls: 10,
      whenOpen: 'fail',
    });
  });

  it('polly: v8 MaxRetryAttempts 3, Delay 2 s constant, no jitter; each try an HttpClient call with its 100 s timeout, timeouts not handled', () => {
    const l = resolveLayer('x', { preset: 'polly' });
    expect(l.maxAttempts).toBe(4);
    expect(l.timeout).toBe(100);
    expect(l.backoff).toMatchObject({ kind: 'constant', base: 2, max: Infinity, jitter: 'none' });
    expect(l.retryOn).not.toContain('timeout');
    expect(l.retryAfter.mode).toBe('ignore');
  });

  it('sqs: visibility timeout 30 s, redelivery when it expires, 10 receives, then the dead-letter queue', () => {
    const l = resolveLayer('x', { preset: 'sqs' });
    expect(l.maxAttempts).toBe(10);
    expect(l.timeout).toBe(30);
    expect(l.backoff).toMatchObject({ kind: 'visibility', base: 30, jitter: 'none' });
    expect(l.backoff.max).toBeGreaterThanOrEqual(30);
    expect(l.deadLetter).toBe(true);
  });

  it('rabbitmq-quorum: delivery-limit 20 (21 deliveries), immediate redelivery, 30 min consumer timeout', () => {
    const l = resolveLayer('x', { preset: 'rabbitmq-quorum' });
    expect(l.maxAttempts).toBe(21);
    expect(l.backoff.kind).toBe('none');
    expect(l.timeout).toBe(1800);
    expect(l.deadLetter).toBe(false);
  });

  it('celery: max_retries 3, default_retry_delay 180 s', () => {
    const l = resolveLayer('x', { preset: 'celery' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff).toMatchObject({ kind: 'constant', base: 180, max: Infinity, jitter: 'none' });
    expect(l.deadLetter).toBe(false);
  });
});

describe('presets: the scenario overrides the preset', () => {
  it('a field written in the scenario wins over the preset', () => {
    const l = resolveLayer('x', { preset: 'got', maxAttempts: 5 });
    expect(l.maxAttempts).toBe(5);
    // The rest still comes from the preset.
    expect(l.retryOn).toEqual(PRESETS.got.layer.retryOn);
    expect(l.backoff.base).toBe(1);
  });

  it('a timeout written in the scenario is used, the preset has none', () => {
    expect(resolveLayer('x', { preset: 'got', timeout: 2 }).timeout).toBe(2);
    expect(resolveLayer('x', { preset: 'okhttp', timeout: 2 }).timeout).toBe(2);
  });

  it('backoff and retryAfter merge field by field: defaults, then preset, then scenario', () => {
    const l = resolveLayer('x', { preset: 'envoy', backoff: { base: 0.1 } });
    expect(l.backoff).toEqual({ ...LAYER_DEFAULTS.backoff, kind: 'exponential', base: 0.1, multiplier: 2, max: 0.25, jitter: 'full' });
    const u = resolveLayer('x', { preset: 'urllib3', retryAfter: { mode: 'honour' } });
    expect(u.retryAfter).toEqual({ mode: 'honour', cap: 21600, max: Infinity, bound: Infinity });
    // a versioned preset merges the same way: its release line's fields, then the scenario's
    const g = resolveLayer('x', { preset: 'grpc-java@1.75', backoff: { base: 0.2 } });
    expect(g.backoff).toMatchObject({ base: 0.2, multiplier: 2, max: 1, jitter: 'scaled', jitterMin: 0.4, jitterMax: 1.2 });
  });

  it('budget and breaker written in the scenario replace the preset\'s whole', () => {
    const l = resolveLayer('x', { preset: 'aws-sdk-js-v3', budget: { kind: 'sre-throttle', k: 2, window: 120 } });
    expect(l.budget).toEqual({ kind: 'sre-throttle', k: 2, window: 120 });
  });

  it('without a preset, the layer defaults apply (one try)', () => {
    const l = resolveLayer('x', {});
    expect(l.maxAttempts).toBe(LAYER_DEFAULTS.maxAttempts);
    expect(l.backoff).toEqual(LAYER_DEFAULTS.backoff);
    expect(l.retryOn).toEqual(LAYER_DEFAULTS.retryOn);
  });

  it('a preset never shares its arrays or objects with the resolved layer\'s merged fields', () => {
    const l = resolveLayer('x', { preset: 'got' });
    l.backoff.base = 99;
    l.retryAfter.max = 1;
    expect(PRESETS.got.layer.backoff?.base).toBe(1);
    expect(PRESETS.got.layer.retryAfter?.max).toBe(Infinity);
  });
});

describe('presets by version (name@version)', () => {
  it('every versioned preset gives one set of values per release line, each with its versions, source and notes', () => {
    for (const name of PRESET_NAMES) {
      const p = PRESETS[name];
      const lines = PRESET_RELEASES[name];
      if (p.releases === undefined) continue;
      expect(lines, name).toBeDefined();
      expect(p.releases.length, name).toBe(lines!.length);
      for (const r of p.releases) {
        expect(r.versions.trim().length).toBeGreaterThan(0);
        expect(r.source.trim().length).toBeGreaterThan(0);
        expect(r.notes.trim().length).toBeGreaterThan(0);
      }
    }
    // the libraries whose behaviour changed have one line per change
    expect(PRESETS['aws-sdk-js-v3'].releases).toHaveLength(5);
    expect(PRESETS['grpc-java'].releases).toHaveLength(3);
    expect(PRESETS['grpc-go'].releases).toHaveLength(2);
    expect(PRESETS['grpc-js'].releases).toHaveLength(2);
    expect(PRESETS.urllib3.releases).toHaveLength(2);
  });

  it('without a version, a preset is its current (last) release line', () => {
    for (const name of PRESET_NAMES) {
      const lines = PRESET_RELEASES[name];
      if (!lines) continue;
      const last = lines[lines.length - 1] === '0' ? '1' : lines[lines.length - 1];
      expect(resolveLayer('x', { preset: `${name}@${last}` }), name).toEqual(resolveLayer('x', { preset: name }));
    }
  });

  it('aws-sdk-js-v3: 3.341 to 3.361 make 4 attempts with no quota in effect; 3.362 to 3.722, 3 with none; from 3.723 a fresh install is the current release, and +locked the line of its day', () => {
    const four = resolveLayer('x', { preset: 'aws-sdk-js-v3@3.350' });
    expect(four.maxAttempts).toBe(4);
    expect(four.budget).toBeUndefined(); // a strategy, and a quota of 500, per request: it never stops a retry
    expect(four.retryAfter.mode).toBe('ignore');
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.341' })).toEqual(four);
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.361.9' })).toEqual(four);
    const none = resolveLayer('x', { preset: 'aws-sdk-js-v3@3.600' });
    expect(none.maxAttempts).toBe(3);
    expect(none.budget).toBeUndefined();
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.362' })).toEqual(none);
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.722.9' })).toEqual(none);
    // From 3.723.0 the client declares caret ranges: installed today, it is the current release.
    const current = resolveLayer('x', { preset: 'aws-sdk-js-v3' });
    for (const v of ['3.723', '3.1008', '3.1025.9', '3.1100']) expect(resolveLayer('x', { preset: `aws-sdk-js-v3@${v}` }), v).toEqual(current);
    // +locked: the packages its lockfile resolved in its day.
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1008+locked' })).toEqual(none);
    const old = resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1009+locked' });
    expect(old.budget).toEqual({ kind: 'aws-quota', capacity: 500, transientCost: 10, throttlingCost: 5, successRefund: 1, refill: 'floor' });
    expect(old.retryAfter.mode).toBe('ignore');
    expect(old.backoff.base).toBe(0.1);
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1025.9+locked' })).toEqual(old);
    const fixed = resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1026+locked' });
    expect(fixed.budget).toEqual({ kind: 'aws-quota', capacity: 500, transientCost: 10, throttlingCost: 5, successRefund: 1, refill: 'capped' });
    expect(fixed.retryAfter).toMatchObject({ mode: 'bounded', bound: 5 });
    expect(fixed.backoff.base).toBe(0.1);
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1165.2+locked' })).toEqual(fixed);
    const y2026 = resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1166.0' });
    expect(y2026).toEqual(current);
    expect(resolveLayer('x', { preset: 'aws-sdk-js-v3@3.1170+locked' })).toEqual(current);
    expect(y2026.budget).toMatchObject({ transientCost: 14, throttlingCost: 5, refill: 'capped' });
    expect(y2026.backoff.base).toBe(0.05);
    // what every line shares
    for (const l of [none, old, fixed, y2026]) {
      expect(l.maxAttempts).toBe(3);
      expect(l.retryOn).toEqual(['timeout', 'reset', 429, 500, 502, 503, 504]);
      expect(l.backoff).toMatchObject({ kind: 'exponential', multiplier: 2, max: 20, jitter: 'full' });
    }
  });

  it('gRPC: full jitter before grpc-java 1.71, x uniform(0.4, 1.2) in 1.71-1.79, x uniform(0.8, 1.2) from 1.80; grpc-go from 1.69; grpc-js from 1.14', () => {
    const jitter = (ref: string) => {
      const b = resolveLayer('x', { preset: ref }).backoff;
      return b.jitter === 'scaled' ? `scaled ${b.jitterMin}-${b.jitterMax}` : b.jitter;
    };
    expect(jitter('grpc-java@1.70')).toBe('full');
    expect(jitter('grpc-java@1.70.9')).toBe('full');
    expect(jitter('grpc-java@1.0')).toBe('full');
    expect(jitter('grpc-java@1.71.0')).toBe('scaled 0.4-1.2');
    expect(jitter('grpc-java@1.79.3')).toBe('scaled 0.4-1.2');
    expect(jitter('grpc-java@1.80')).toBe('scaled 0.8-1.2');
    expect(jitter('grpc-go@1.68.2')).toBe('full');
    expect(jitter('grpc-go@1.69.0')).toBe('scaled 0.8-1.2');
    expect(jitter('grpc-js@1.13.7')).toBe('full'); // a 1.13 patch released after 1.14.0 still has full jitter
    expect(jitter('grpc-js@1.14')).toBe('scaled 0.8-1.2');
    expect(jitter('grpc')).toBe('scaled 0.8-1.2');
  });

  it('urllib3: the Retry-After is waited exactly, uncapped before 2.6.3, at most 6 h from 2.6.3', () => {
    expect(resolveLayer('x', { preset: 'urllib3@1.26.12' }).retryAfter).toMatchObject({ mode: 'exact', cap: Infinity });
    expect(resolveLayer('x', { preset: 'urllib3@2.6.2' }).retryAfter).toMatchObject({ mode: 'exact', cap: Infinity });
    expect(resolveLayer('x', { preset: 'urllib3@2.6.3' }).retryAfter).toMatchObject({ mode: 'exact', cap: 21600 });
  });

  it('axios-retry: 429 and Retry-After from 4.2.0 on', () => {
    const old = resolveLayer('x', { preset: 'axios-retry@4.1.0' });
    expect(old.retryOn).toEqual(['reset', '5xx']);
    expect(old.retryAfter.mode).toBe('ignore');
    const now = resolveLayer('x', { preset: 'axios-retry@4.2' });
    expect(now.retryOn).toEqual(['reset', '5xx', 429]);
    expect(now.retryAfter.mode).toBe('honour');
  });

  it('parsePresetRef names the release lines when a version is outside them', () => {
    expect(parsePresetRef('aws-sdk-js-v3@3.1100')).toEqual({ name: 'aws-sdk-js-v3', line: 4 }); // installed today
    expect(parsePresetRef('aws-sdk-js-v3@3.1100+locked')).toEqual({ name: 'aws-sdk-js-v3', line: 3 });
    expect(describeReleaseLines('grpc-java')).toEqual(['before 1.71.0', 'from 1.71.0, before 1.80.0', '1.80.0 and later']);
    expect(describeReleaseLines('rabbitmq-quorum')).toEqual(['from 4.0.0, before 4.3.0']);
    const err = (ref: string) => {
      const r = parsePresetRef(ref);
      return 'error' in r ? r.error : '';
    };
    expect(err('aws-sdk-js-v3@3.200')).toBe(
      'no known behaviour for aws-sdk-js-v3@3.200: the preset covers from 3.341.0, before 3.362.0; from 3.362.0, before 3.1009.0; from 3.1009.0, before 3.1026.0; from 3.1026.0, before 3.1166.0; 3.1166.0 and later (see docs/presets.md, "Versions")',
    );
    expect(err('aws-sdk-js-v3@3.600+locked')).toBe('aws-sdk-js-v3@3.600 pins the packages its retries depend on, so "+locked" changes nothing: write aws-sdk-js-v3@3.600 (releases from 3.723.0 declare caret ranges, where it matters)');
    expect(err('got@14.4.7+locked')).toMatch(/^got has no "\+locked"/);
    expect(err('rabbitmq-quorum@4.3.0')).toMatch(/covers from 4\.0\.0, before 4\.3\.0/);
    expect(err('sqs@2012.11.5')).toMatch(/the sqs preset has no versions.*write preset: sqs/);
    expect(err('grpc@1.2')).toMatch(/the grpc preset has no versions/);
    expect(err('got@latest')).toMatch(/expected a version of dotted whole numbers after "@", such as got@14\.4\.7/);
    expect(err('gott')).toMatch(/^unknown preset "gott" \(expected one of: got, axios-retry,/);
  });
});

describe('presets in a scenario file', () => {
  const scenario = (ref: string) => `name: x
horizon: 1m
clients:
  app:
    arrivals: { kind: constant, rate: 1/s }
    layers:
      http:
        preset: ${ref}
server: { slots: 1, serviceTime: { kind: constant, value: 1ms } }
`;
  const problemsOf = (ref: string) => {
    try {
      loadScenario(scenario(ref), 's.yaml');
    } catch (e) {
      if (e instanceof ScenarioError) return e.problems;
      throw e;
    }
    return [];
  };

  it('loads name@version and resolves it to that release line', () => {
    const s = loadScenario(scenario('aws-sdk-js-v3@3.1010+locked'), 's.yaml').base;
    const layer = s.clients.app.layers!.http;
    expect(layer.preset).toBe('aws-sdk-js-v3@3.1010+locked');
    expect(resolveLayer('http', layer).budget).toMatchObject({ refill: 'floor' });
    expect(problemsOf('grpc-java@1.70')).toEqual([]);
  });

  it('an unknown version is one problem at the value, listing the known release lines', () => {
    expect(problemsOf('aws-sdk-js-v3@3.200')).toEqual([{
      file: 's.yaml', line: 8, col: 17, path: 'clients.app.layers.http.preset',
      message: 'no known behaviour for aws-sdk-js-v3@3.200: the preset covers from 3.341.0, before 3.362.0; from 3.362.0, before 3.1009.0; from 3.1009.0, before 3.1026.0; from 3.1026.0, before 3.1166.0; 3.1166.0 and later (see docs/presets.md, "Versions")',
    }]);
    expect(problemsOf('grpc@1.60').map((p) => p.message)).toEqual([
      'the grpc preset has no versions (it models a specification or a service, not a library release): write preset: grpc, or name an implementation: grpc-java, grpc-go or grpc-js, which have versions',
    ]);
  });

  it('an unknown name gets a did-you-mean; a number is not a preset', () => {
    expect(problemsOf('grpc-jav@1.70').map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual(['8:17 unknown preset "grpc-jav" (did you mean "grpc-java"?)']);
    expect(problemsOf('42').map((p) => p.message)).toEqual([expect.stringMatching(/^expected a preset name: got, axios-retry/)]);
  });
});
