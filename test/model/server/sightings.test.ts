/**
 * The retry detection's table of sightings (src/model/server/sightings.ts), against the
 * plain Map it replaced: same answers, same size and peak, under random sightings whose
 * keys collide in a small table (so deletion's backward shift and growth are exercised).
 */
import { describe, expect, it } from 'vitest';
import { Sightings } from '../../../src/model/server/sightings.js';
import { stream } from '../../../src/engine/rng.js';

/** The Map model: what RetryDetection did before, line for line. */
class MapModel {
  private readonly seen = new Map<number, number>();
  private readonly queue: Array<[number, number]> = [];
  private head = 0;
  peak = 0;
  constructor(private readonly window: number) {}
  get size(): number {
    return this.seen.size;
  }
  see(key: number, now: number): number {
    while (this.head < this.queue.length && now - this.queue[this.head][1] > this.window) {
      const [k, t] = this.queue[this.head++];
      if (this.seen.get(k) === t) this.seen.delete(k);
    }
    const last = this.seen.get(key);
    this.seen.set(key, now);
    this.queue.push([key, now]);
    this.peak = Math.max(this.peak, this.seen.size);
    return last ?? -1;
  }
}

describe('Sightings', () => {
  it('answers the last sighting within the window, and forgets older ones', () => {
    const s = new Sightings(10, 4);
    expect(s.see(5, 0)).toBe(-1);
    expect(s.see(5, 3)).toBe(0);
    expect(s.see(2 ** 52 + 1, 4)).toBe(-1); // large keys
    expect(s.see(-7, 4)).toBe(-1); // negative keys (idempotency keys are)
    expect(s.see(2 ** 52 + 1, 5)).toBe(4);
    expect(s.see(2 ** 52, 5)).toBe(-1); // differs from the one above only in its lowest bit
    expect(s.size).toBe(4);
    // At 14, the sighting of 5 at 3 is 11 s old: forgotten (its one at 0 was replaced).
    expect(s.see(5, 14)).toBe(-1);
    expect(s.see(-7, 14)).toBe(4);
    expect(s.peak).toBe(4);
  });

  it.each([
    ['few keys, long window: mostly repeats', 40, 50],
    ['many keys, short window: mostly new, many deletions', 5000, 3],
    ['keys past 2^32 and negative', 300, 20],
  ])('agrees with a Map on 20,000 random sightings (%s)', (name, keySpace, window) => {
    const rand = stream(keySpace, 'sightings-test');
    const table = new Sightings(window, 2); // tiny: grows many times, runs collide
    const model = new MapModel(window);
    let now = 0;
    for (let i = 0; i < 20_000; i++) {
      now += rand() < 0.3 ? 0 : rand() * 0.5; // ties in time too
      let key = Math.floor(rand() * keySpace);
      if (name.startsWith('keys past')) key = rand() < 0.5 ? -1 - key : key * 4294967296 + 17;
      const expected = model.see(key, now);
      const got = table.see(key, now);
      if (got !== expected || table.size !== model.size) {
        expect({ i, key, got, size: table.size }).toEqual({ i, key, got: expected, size: model.size });
      }
    }
    expect(table.peak).toBe(model.peak);
    expect(table.peak).toBeGreaterThan(10);
  });
});
