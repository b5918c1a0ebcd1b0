/**
 * Two counters per key over a sliding window, kept in one-second buckets: what Finagle's
 * retry budget, a time-based circuit breaker and SRE adaptive throttling all need (requests
 * and retries, calls and failures, requests and accepts "in the last N seconds"). One ring
 * of buckets per key in flat typed arrays; a key's expired seconds are cleared lazily,
 * when the key is next touched.
 */
export class SecondBuckets {
  readonly secs: number;
  readonly a: Float64Array;
  readonly b: Float64Array;
  private readonly lastSec: Float64Array;

  constructor(keys: number, windowS: number) {
    this.secs = Math.max(1, Math.round(windowS));
    this.a = new Float64Array(keys * this.secs);
    this.b = new Float64Array(keys * this.secs);
    this.lastSec = new Float64Array(keys); // every bucket is empty at time 0
  }

  /** Rolls the key's ring forward to `now` and returns the index of the current second's bucket. */
  slot(key: number, now: number): number {
    const sec = Math.floor(now);
    const last = this.lastSec[key];
    const base = key * this.secs;
    const stale = Math.min(this.secs, sec - last);
    for (let i = 1; i <= stale; i++) {
      const k = base + ((last + i) % this.secs);
      this.a[k] = 0;
      this.b[k] = 0;
    }
    this.lastSec[key] = sec;
    return base + (sec % this.secs);
  }

  sumA(key: number): number {
    let s = 0;
    for (let i = key * this.secs, end = i + this.secs; i < end; i++) s += this.a[i];
    return s;
  }

  sumB(key: number): number {
    let s = 0;
    for (let i = key * this.secs, end = i + this.secs; i < end; i++) s += this.b[i];
    return s;
  }

  clear(key: number): void {
    this.a.fill(0, key * this.secs, (key + 1) * this.secs);
    this.b.fill(0, key * this.secs, (key + 1) * this.secs);
  }
}
