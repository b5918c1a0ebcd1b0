/**
 * backoffDelay / capOf / initialBackoffState (src/model/client/backoff.ts) against the
 * formulas in its header: exact for jitter none, statistical for the random jitters
 * (bounds, mean, and a Kolmogorov–Smirnov test against the distribution the formula
 * implies at a fixed retry number; n = 20000 draws from the fixed stream(1, 't')).
 */
import { describe, it, expect } from 'vitest';
import { backoffDelay, capOf, initialBackoffState } from '../../../src/model/client/backoff.js';
import { LAYER_DEFAULTS, type BackoffSpec } from '../../../src/model/client/layer-spec.js';
import { stream, type Rng } from '../../../src/engine/rng.js';

const N = 20000;
/** KS critical value at alpha = 0.001 for n draws. */
const KS_CRIT = 1.9495 / Math.sqrt(N);

const spec = (b: Partial<BackoffSpec>): BackoffSpec => ({ ...LAYER_DEFAULTS.backoff, ...b });

/** Kolmogorov–Smirnov statistic of `xs` against the continuous CDF `F`. */
function ks(xs: number[], F: (x: number) => number): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = F(s[i]);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}
const uniformCdf = (lo: number, hi: number) => (x: number) => (x <= lo ? 0 : x >= hi ? 1 : (x - lo) / (hi - lo));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };

/** N draws of the wait before retry n, each from a fresh call state (state = initialBackoffState). */
function draws(b: BackoffSpec, n: number, rng: Rng): number[] {
  const state = new Float64Array(1);
  return Array.from({ length: N }, () => {
    state[0] = initialBackoffState(b);
    return backoffDelay(b, n, rng, state, 0);
  });
}

const KINDS = ['constant', 'linear', 'exponential'] as const;
/** cap(n) by the header's formulas, written out independently. */
function expectedCap(kind: (typeof KINDS)[number], base: number, mult: number, max: number, n: number): number {
  // constant is not bounded by max (backoff.ts: max bounds growing waits only)
  return kind === 'constant' ? base : Math.min(max, kind === 'linear' ? base * n : base * mult ** (n - 1));
}

describe('capOf and jitter none: exact', () => {
  for (const kind of KINDS) {
    it(`${kind}: base 0.1, multiplier 3, max 5 for retries 1..10`, () => {
      const b = spec({ kind, base: 0.1, multiplier: 3, max: 5, jitter: 'none' });
      const rng = stream(1, 't');
      const state = new Float64Array(1);
      for (let n = 1; n <= 10; n++) {
        const want = expectedCap(kind, 0.1, 3, 5, n);
        expect(capOf(b, n)).toBeCloseTo(want, 12);
        expect(backoffDelay(b, n, rng, state, 0)).toBeCloseTo(want, 12);
      }
    });
  }
  it('exponential reaches max and stays there', () => {
    const b = spec({ kind: 'exponential', base: 1, multiplier: 2, max: 10, jitter: 'none' });
    const got = Array.from({ length: 8 }, (_, i) => backoffDelay(b, i + 1, stream(1, 't'), new Float64Array(1), 0));
    expect(got).toEqual([1, 2, 4, 8, 10, 10, 10, 10]);
  });
  it('kind none waits 0 whatever the jitter', () => {
    for (const jitter of ['none', 'full', 'equal', 'decorrelated', 'decorrelated-v2', 'proportional', 'scaled'] as const) {
      const b = spec({ kind: 'none', base: 1, jitter });
      const state = new Float64Array([initialBackoffState(b)]);
      for (let n = 1; n <= 5; n++) expect(backoffDelay(b, n, stream(1, 't'), state, 0)).toBe(0);
    }
  });
  it('constant and visibility wait base even above max (max bounds growing waits only)', () => {
    expect(capOf(spec({ kind: 'visibility', base: 3, max: 2 }), 4)).toBe(3);
    expect(capOf(spec({ kind: 'constant', base: 180, max: 10 }), 2)).toBe(180);
    expect(backoffDelay(spec({ kind: 'constant', base: 180, max: 10, jitter: 'none' }), 2, stream(1, 't'), new Float64Array(1), 0)).toBe(180);
    expect(capOf(spec({ kind: 'linear', base: 3, max: 10 }), 4)).toBe(10);
  });
});

describe('random jitters at a fixed retry number: bounds, mean, KS against the implied uniform', () => {
  const cases: Array<{ jitter: 'full' | 'equal' | 'proportional'; factor?: number; range: (cap: number) => [number, number] }> = [
    { jitter: 'full', range: (c) => [0, c] },
    { jitter: 'equal', range: (c) => [c / 2, c] },
    { jitter: 'proportional', factor: 0.2, range: (c) => [0.8 * c, 1.2 * c] },
    { jitter: 'proportional', factor: 0.5, range: (c) => [0.5 * c, 1.5 * c] },
  ];
  for (const c of cases) {
    for (const kind of KINDS) {
      // retry 4: cap = 0.2 (constant), 0.8 (linear), 1.6 (exponential), under max 30
      it(`${c.jitter}${c.factor ? ` (factor ${c.factor})` : ''}, ${kind}, retry 4`, () => {
        const b = spec({ kind, base: 0.2, multiplier: 2, max: 30, jitter: c.jitter, jitterFactor: c.factor ?? 0.2 });
        const cap = expectedCap(kind, 0.2, 2, 30, 4);
        const [lo, hi] = c.range(cap);
        const xs = draws(b, 4, stream(1, 't'));
        expect(Math.min(...xs)).toBeGreaterThanOrEqual(lo);
        expect(Math.max(...xs)).toBeLessThanOrEqual(hi);
        const sd = (hi - lo) / Math.sqrt(12 * N);
        expect(Math.abs(mean(xs) - (lo + hi) / 2)).toBeLessThan(4 * sd);
        expect(ks(xs, uniformCdf(lo, hi))).toBeLessThan(KS_CRIT);
      });
    }
  }
  it('full jitter under the cap: exponential retry 9 is uniform(0, max)', () => {
    const b = spec({ kind: 'exponential', base: 0.1, multiplier: 2, max: 5, jitter: 'full' });
    const xs = draws(b, 9, stream(1, 't')); // 0.1 * 2^8 = 25.6 > 5
    expect(Math.max(...xs)).toBeLessThanOrEqual(5);
    expect(ks(xs, uniformCdf(0, 5))).toBeLessThan(KS_CRIT);
  });
  it('scaled: cap x uniform(jitterMin, jitterMax), also above max (gRPC: the jitter multiplies the capped wait)', () => {
    for (const [lo, hi] of [[0.8, 1.2], [0.4, 1.2]] as const) {
      // retry 5: 0.1 x 2^4 = 1.6 capped at max 1, then scaled: may reach 1.2
      const b = spec({ kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'scaled', jitterMin: lo, jitterMax: hi });
      const xs = draws(b, 5, stream(1, 't'));
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(lo);
      expect(Math.max(...xs)).toBeLessThanOrEqual(hi);
      expect(Math.max(...xs)).toBeGreaterThan(1);
      expect(ks(xs, uniformCdf(lo, hi))).toBeLessThan(KS_CRIT);
      const ys = draws(b, 2, stream(2, 't')); // 0.2 x uniform(lo, hi)
      expect(ks(ys, uniformCdf(0.2 * lo, 0.2 * hi))).toBeLessThan(KS_CRIT);
    }
  });
  it('proportional never goes below 0 (factor 1)', () => {
    const xs = draws(spec({ kind: 'constant', base: 1, jitter: 'proportional', jitterFactor: 1 }), 1, stream(1, 't'));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(ks(xs, uniformCdf(0, 2))).toBeLessThan(KS_CRIT);
  });
});

describe('the statistical check can fail: a deliberately wrong formula is rejected', () => {
  const rng = stream(1, 't');
  it('full jitter drawn as uniform(0, 1.1 cap) fails the KS test for uniform(0, cap)', () => {
    const wrong = Array.from({ length: N }, () => rng() * 1.1);
    expect(ks(wrong, uniformCdf(0, 1))).toBeGreaterThan(KS_CRIT);
  });
  it('equal jitter confused with full jitter fails', () => {
    const xs = draws(spec({ kind: 'constant', base: 1, jitter: 'full' }), 1, rng);
    expect(ks(xs, uniformCdf(0.5, 1))).toBeGreaterThan(KS_CRIT);
  });
  it('decorrelated as uniform(0, 3 prev) instead of uniform(base, 3 prev) fails', () => {
    const wrong = Array.from({ length: N }, () => rng() * 3);
    expect(ks(wrong, uniformCdf(1, 3))).toBeGreaterThan(KS_CRIT);
  });
  it('decorrelated-v2 without the 1/1.4 scaling fails', () => {
    const xs = draws(spec({ kind: 'exponential', base: 1, max: 1e9, jitter: 'decorrelated-v2' }), 1, rng).map((x) => x * 1.4);
    expect(ks(xs.map((x) => fInverse(1.4 * x)), uniformCdf(0, 1))).toBeGreaterThan(KS_CRIT);
  });
});

describe('decorrelated (AWS): min(max, uniform(base, 3 * previous)), previous starting at base', () => {
  it('initial state is base', () => {
    expect(initialBackoffState(spec({ jitter: 'decorrelated', base: 0.3 }))).toBe(0.3);
    expect(initialBackoffState(spec({ jitter: 'full', base: 0.3 }))).toBe(0);
  });
  it('first delay is uniform(base, 3 base)', () => {
    const xs = draws(spec({ kind: 'exponential', base: 0.1, max: 100, jitter: 'decorrelated' }), 1, stream(1, 't'));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0.1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(0.3);
    expect(ks(xs, uniformCdf(0.1, 0.3))).toBeLessThan(KS_CRIT);
  });
  it('keeps its state: each delay is in [base, 3 * previous] and capped at max; uniform given previous where the cap cannot bind', () => {
    const b = spec({ kind: 'exponential', base: 0.1, max: 2, jitter: 'decorrelated' });
    const rng = stream(1, 't');
    const state = new Float64Array(3);
    const u: number[] = [];
    let capped = 0;
    const bad: string[] = [];
    for (let call = 0; call < N / 10; call++) {
      state[1] = initialBackoffState(b);
      let prev = 0.1;
      for (let n = 1; n <= 10; n++) {
        const d = backoffDelay(b, n, rng, state, 1);
        if (state[1] !== d) bad.push(`state ${state[1]} != delay ${d}`); // the slot remembers the delay
        if (d < 0.1 || d > Math.min(2, 3 * prev) + 1e-12) bad.push(`delay ${d} after ${prev}`);
        if (d === 2) capped++;
        // where the cap cannot bind, the draw is uniform on [base, 3 * previous]
        if (3 * prev <= 2) u.push((d - 0.1) / (3 * prev - 0.1));
        prev = d;
      }
    }
    expect(bad).toEqual([]);
    expect(state[0]).toBe(0); // other slots untouched
    expect(state[2]).toBe(0);
    expect(capped).toBeGreaterThan(100);
    expect(ks(u, uniformCdf(0, 1))).toBeLessThan(1.9495 / Math.sqrt(u.length));
  });
  it('slots are independent: interleaving two calls gives each its own chain', () => {
    const b = spec({ kind: 'exponential', base: 1, max: 1e9, jitter: 'decorrelated' });
    const state = new Float64Array([1, 1]);
    // a large first delay in slot 0 must not widen slot 1's range
    const rng = () => 0.999999;
    const a1 = backoffDelay(b, 1, rng, state, 0);
    const a2 = backoffDelay(b, 2, rng, state, 0);
    const b1 = backoffDelay(b, 1, rng, state, 1);
    expect(a1).toBeCloseTo(3, 4);
    expect(a2).toBeCloseTo(9, 3);
    expect(b1).toBeCloseTo(3, 4);
  });
});

/** Polly's f(t) = 2^t tanh(sqrt(4t)), and its inverse on [0, 1] by bisection. */
const f = (t: number) => 2 ** t * Math.tanh(Math.sqrt(4 * t));
function fInverse(y: number): number {
  let lo = 0, hi = 1;
  if (y <= 0) return 0;
  if (y >= f(1)) return 1;
  for (let i = 0; i < 60; i++) { const m = (lo + hi) / 2; if (f(m) < y) lo = m; else hi = m; }
  return (lo + hi) / 2;
}

describe('decorrelated-v2 (Polly DecorrelatedJitterBackoffV2)', () => {
  const b = spec({ kind: 'exponential', base: 1, max: 1e9, jitter: 'decorrelated-v2' });

  it('first delay = f(U)/1.4 * base with U uniform(0,1): KS after inverting f', () => {
    const xs = draws(b, 1, stream(1, 't'));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThanOrEqual(f(1) / 1.4 + 1e-12);
    expect(ks(xs.map((x) => fInverse(1.4 * x)), uniformCdf(0, 1))).toBeLessThan(KS_CRIT);
  });

  it('median first delay is f(0.5)/1.4 = 0.897 x base (Polly: "approximately" base)', () => {
    for (const base of [0.1, 1, 5]) {
      const m = median(draws(spec({ ...b, base }), 1, stream(1, 't')));
      expect(m / base).toBeGreaterThan(0.897 * 0.98);
      expect(m / base).toBeLessThan(0.897 * 1.02);
      expect(Math.abs(m / base - 1)).toBeLessThan(0.12);
    }
  });

  it('telescopes: the waits of a call sum to f(t_n)/1.4 * base with t_n in [n-1, n)', () => {
    const rng = stream(1, 't');
    const state = new Float64Array(1);
    for (let call = 0; call < 200; call++) {
      state[0] = initialBackoffState(b);
      let total = 0;
      for (let n = 1; n <= 8; n++) {
        const d = backoffDelay(b, n, rng, state, 0);
        expect(d).toBeGreaterThan(0);
        total += d;
        expect(total).toBeCloseTo(state[0] / 1.4, 9);
        expect(state[0]).toBeGreaterThanOrEqual(f(n - 1));
        expect(state[0]).toBeLessThan(f(n));
      }
    }
  });

  it('median delay grows about 2x per retry', () => {
    const rng = stream(1, 't');
    const per: number[][] = Array.from({ length: 9 }, () => []);
    const state = new Float64Array(1);
    for (let call = 0; call < N / 4; call++) {
      state[0] = initialBackoffState(b);
      for (let n = 1; n <= 8; n++) per[n].push(backoffDelay(b, n, rng, state, 0));
    }
    const med = per.map((xs) => (xs.length ? median(xs) : NaN));
    for (let n = 3; n <= 8; n++) {
      const ratio = med[n] / med[n - 1];
      expect(ratio).toBeGreaterThan(1.7);
      expect(ratio).toBeLessThan(2.3);
    }
    expect(med[8] / med[1]).toBeGreaterThan(2 ** 6); // and 2^7-ish overall
    expect(med[8] / med[1]).toBeLessThan(2 ** 8);
  });

  it('is capped at max', () => {
    const capped = spec({ ...b, base: 1, max: 3 });
    const state = new Float64Array(1);
    const rng = stream(1, 't');
    for (let n = 1; n <= 10; n++) expect(backoffDelay(capped, n, rng, state, 0)).toBeLessThanOrEqual(3);
  });
});
