/**
 * The library presets: every name has one, each says its library, version and source, and
 * resolveLayer gives each library's documented defaults (the numbers below are the ones
 * verified against the sources quoted in src/model/client/presets.ts and docs/presets.md).
 * A field written in the scenario overrides the preset; what neither says comes from
 * LAYER_DEFAULTS.
 */
import { describe, it, expect } from 'vitest';
import { PRESETS } from '../../src/model/client/presets.js';
import { PRESET_NAMES } from '../../src/scenario/preset-names.js';
import { LAYER_DEFAULTS } from '../../src/model/client/layer-spec.js';
import { resolveLayer } from '../../src/model/client/resolve-layer.js';

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
    expect(l.backoff).toEqual({ kind: 'exponential', base: 1, multiplier: 2, max: Infinity, jitter: 'proportional', jitterFactor: 0.05 });
    expect(l.retryOn).toEqual(['timeout', 'reset', 408, 413, 429, 500, 502, 503, 504, 521, 522, 524]);
    expect(l.retryAfter).toEqual({ mode: 'give-up', cap: Infinity, max: Infinity });
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

  it('urllib3: Retry.DEFAULT total 3, no backoff, no status forced, Retry-After capped at 6 h', () => {
    const l = resolveLayer('x', { preset: 'urllib3' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff.kind).toBe('none');
    expect(l.retryOn).toEqual(['timeout', 'reset']);
    expect(l.retryAfter).toEqual({ mode: 'cap', cap: 21600, max: Infinity });
  });

  it('go-retryablehttp: RetryMax 4, 1s..30s exponential, 5xx and 429, Retry-After honoured', () => {
    const l = resolveLayer('x', { preset: 'go-retryablehttp' });
    expect(l.maxAttempts).toBe(5);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 1, multiplier: 2, max: 30, jitter: 'none' });
    expect(l.retryOn).toEqual(['timeout', 'reset', '5xx', 429]);
    expect(l.retryAfter.mode).toBe('honour');
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

  it('grpc: gRFC A6 example policy and retryThrottling maxTokens 10, tokenRatio 0.1', () => {
    const l = resolveLayer('x', { preset: 'grpc' });
    expect(l.maxAttempts).toBe(4);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'full' });
    expect(l.retryOn).toEqual(['reset', 503]);
    expect(l.budget).toEqual({ kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 });
  });

  it('aws-sdk-js-v3: standard mode, 3 attempts, 100 ms full jitter up to 20 s, quota 500/5/10/1', () => {
    const l = resolveLayer('x', { preset: 'aws-sdk-js-v3' });
    expect(l.maxAttempts).toBe(3);
    expect(l.backoff).toMatchObject({ kind: 'exponential', base: 0.1, multiplier: 2, max: 20, jitter: 'full' });
    expect(l.retryOn).toEqual(['timeout', 'reset', 429, 500, 502, 503, 504]);
    expect(l.budget).toEqual({ kind: 'aws-quota', capacity: 500, retryCost: 5, timeoutCost: 10, successRefund: 1 });
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

  it('finagle: RetryBudget() ttl 10 s, 10 retries/s, 20%; requeues immediate, at most ceil(0.2 * 100) per request', () => {
    const l = resolveLayer('x', { preset: 'finagle' });
    expect(l.budget).toEqual({ kind: 'finagle', ttl: 10, minRetriesPerSec: 10, percentCanRetry: 0.2 });
    expect(l.maxAttempts).toBe(1 + Math.ceil(0.2 * 10 * 10));
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

  it('polly: v8 MaxRetryAttempts 3, Delay 2 s constant, no jitter, timeouts not handled', () => {
    const l = resolveLayer('x', { preset: 'polly' });
    expect(l.maxAttempts).toBe(4);
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
    expect(u.retryAfter).toEqual({ mode: 'honour', cap: 21600, max: Infinity });
  });

  it('budget and breaker written in the scenario replace the preset\'s whole', () => {
    const l = resolveLayer('x', { preset: 'aws-sdk-js-v3', budget: { kind: 'sre-throttle', k: 2 } });
    expect(l.budget).toEqual({ kind: 'sre-throttle', k: 2 });
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
