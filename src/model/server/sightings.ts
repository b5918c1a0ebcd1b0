/**
 * The last time each fingerprint was seen, for as long as a window: the table a server's
 * retry detection holds (stages.ts). One lookup and one insert per request that reaches the
 * stage, so it is on the hot path of every scenario with retry detection.
 *
 * A JS Map keyed by fingerprints (whole numbers up to 2^53, past the small-integer range
 * V8 keys fast) cost about a quarter of such a run (all-defences at a 12-minute outage of the
 * flagship, 2026-12-02). This is an open-addressing table in typed arrays instead: linear
 * probing, at most half full, deletion by backward shift (no tombstones, so a lookup never
 * walks past what was deleted). Sightings leave in the order they were made, from a FIFO of
 * (key, time); a key is forgotten only when its oldest queued sighting is also its latest.
 */

import { mix } from './hash.js';

const EMPTY = -1; // times are >= 0

export class Sightings {
  private keys: Float64Array;
  private times: Float64Array;
  private mask: number;
  /** Keys held. */
  size = 0;
  /** The most keys held at once: what a real server would have to hold. */
  peak = 0;
  // The FIFO of sightings, oldest at `head`.
  private queueKeys: Float64Array;
  private queueTimes: Float64Array;
  private head = 0;
  private tail = 0;

  constructor(private readonly window: number, capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.times = new Float64Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.queueKeys = new Float64Array(capacity);
    this.queueTimes = new Float64Array(capacity);
  }

  /**
   * Records a sighting of `key` at `now` (never before the last one's) and returns the time
   * of the one before it within the window, or -1. Sightings older than the window are
   * forgotten first.
   */
  see(key: number, now: number): number {
    this.expire(now);
    const keys = this.keys, times = this.times;
    const i = this.probe(key);
    const t = times[i];
    times[i] = now;
    if (t === EMPTY) {
      keys[i] = key;
      if (++this.size > this.peak) this.peak = this.size;
      if (this.size * 2 > keys.length) this.rehash(keys.length * 2);
    }
    this.enqueue(key, now);
    return t;
  }

  /** The time of the latest sighting of `key` within the window, or -1; records nothing. */
  last(key: number, now: number): number {
    this.expire(now);
    return this.times[this.probe(key)];
  }

  /** The slot that holds `key`, or the empty slot where it would go. */
  private probe(key: number): number {
    const keys = this.keys, times = this.times, mask = this.mask;
    let i = slot(key) & mask;
    while (times[i] !== EMPTY && keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  private expire(now: number): void {
    const qk = this.queueKeys, qt = this.queueTimes, window = this.window;
    let h = this.head;
    while (h < this.tail && now - qt[h] > window) {
      this.forget(qk[h], qt[h]);
      h++;
    }
    this.head = h;
  }

  /** Removes `key` if its latest sighting is at `time` (a later one keeps it). */
  private forget(key: number, time: number): void {
    const keys = this.keys, times = this.times, mask = this.mask;
    const i = this.probe(key);
    // Not found (EMPTY) when an earlier sighting at the same instant already removed it.
    if (times[i] !== time) return;
    // Backward shift: move each following entry of the run into the hole when its home slot
    // does not lie strictly between the hole and it (cyclically), so every lookup still finds it.
    let hole = i;
    for (let j = (i + 1) & mask; times[j] !== EMPTY; j = (j + 1) & mask) {
      const home = slot(keys[j]) & mask;
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      keys[hole] = keys[j];
      times[hole] = times[j];
      hole = j;
    }
    times[hole] = EMPTY;
    this.size--;
  }

  private enqueue(key: number, now: number): void {
    if (this.tail === this.queueKeys.length) {
      // Slide the live part to the front, growing when more than half of it is live.
      const live = this.tail - this.head;
      const size = live * 2 > this.queueKeys.length ? this.queueKeys.length * 2 : this.queueKeys.length;
      const k = new Float64Array(size), t = new Float64Array(size);
      k.set(this.queueKeys.subarray(this.head, this.tail));
      t.set(this.queueTimes.subarray(this.head, this.tail));
      this.queueKeys = k;
      this.queueTimes = t;
      this.head = 0;
      this.tail = live;
    }
    this.queueKeys[this.tail] = key;
    this.queueTimes[this.tail++] = now;
  }

  private rehash(capacity: number): void {
    const oldKeys = this.keys, oldTimes = this.times;
    const keys = new Float64Array(capacity), times = new Float64Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      if (oldTimes[j] === EMPTY) continue;
      let i = slot(oldKeys[j]) & mask;
      while (times[i] !== EMPTY) i = (i + 1) & mask;
      keys[i] = oldKeys[j];
      times[i] = oldTimes[j];
    }
    this.keys = keys;
    this.times = times;
    this.mask = mask;
  }
}

/** A 32-bit hash of a whole number up to 2^53 in magnitude (its two 32-bit halves, mixed). */
function slot(key: number): number {
  const lo = key >>> 0; // ToUint32: the low 32 bits, for negatives too
  const hi = Math.floor(key / 4294967296) | 0;
  return mix(lo ^ mix(hi + 0x9e3779b9));
}
