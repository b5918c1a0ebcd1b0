/**
 * The instance's queue of attempts: a chunked deque whose memory follows its length. Checked
 * against a plain array over long random sequences of pushes and pops at both ends that
 * cross chunk boundaries many times, with the memory meter read as it grows and drains.
 */
import { describe, expect, it } from 'vitest';
import { AttemptQueue } from '../../../src/model/server/attempt-queue.js';
import { MemoryMeter } from '../../../src/engine/budget.js';
import { stream } from '../../../src/engine/rng.js';

interface Entry { id: number; t: number; route: number; index: number }

describe('AttemptQueue', () => {
  it.each([false, true])('behaves as a deque of (id, time, route, index) over 400k random operations (routes kept: %s)', (withRoutes) => {
    const rng = stream(7, 'test/attempt-queue');
    const q = new AttemptQueue(withRoutes);
    // The reference: entries ref[lo..ref.length), popped from the front by moving lo.
    const ref: Entry[] = [];
    let lo = 0;
    let t = 0;
    let maxLength = 0;
    let backPops = 0;
    for (let op = 0; op < 400_000; op++) {
      // Phases that grow the queue past several chunks (16,384 entries each) and drain it.
      const pushProb = Math.floor(op / 100_000) % 2 === 0 ? 0.8 : 0.25;
      if (ref.length === lo || rng() < pushProb) {
        t += rng();
        const e = { id: Math.floor(rng() * 1e6), t, route: withRoutes ? Math.floor(rng() * 5) : 0, index: -1 };
        e.index = q.push(e.id, e.t, e.route);
        ref.push(e);
      } else {
        const back = rng() < 0.3;
        const e = back ? ref.pop()! : ref[lo++];
        if (back) {
          q.popBack();
          backPops++;
        } else q.popFront();
        const got = { id: q.poppedId, t: q.poppedT, route: q.poppedRoute, index: q.poppedIndex };
        if (got.id !== e.id || got.t !== e.t || got.route !== e.route || got.index !== e.index) expect({ op, ...got }).toEqual({ op, ...e });
      }
      const length = ref.length - lo;
      if (q.length !== length || (length > 0 && q.frontT !== ref[lo].t)) {
        expect({ op, length: q.length, front: length > 0 ? q.frontT : null }).toEqual({ op, length, front: length > 0 ? ref[lo].t : null });
      }
      maxLength = Math.max(maxLength, length);
    }
    expect(maxLength).toBeGreaterThan(3 * 16_384);
    expect(backPops).toBeGreaterThan(10_000);
    // Indices are unique among the entries waiting at any time.
    const waiting = ref.slice(lo);
    expect(new Set(waiting.map((e) => e.index)).size).toBe(waiting.length);
  });

  it('numbers FIFO entries in push order, across chunks and after emptying', () => {
    const q = new AttemptQueue(false);
    const pushed = Array.from({ length: 40_000 }, (_, i) => q.push(i, i, 0));
    const popped = pushed.map(() => (q.popFront(), q.poppedIndex));
    const counting = Array.from({ length: 40_000 }, (_, i) => i);
    expect(pushed).toEqual(counting);
    expect(popped).toEqual(counting);
    expect(q.push(1, 1, 0)).toBe(40_000);
  });

  it('charges 12 bytes an entry by the chunk as it grows, and gives chunks back as it drains (keeping one spare)', () => {
    const meter = new MemoryMeter();
    const q = new AttemptQueue(false, meter);
    const chunkBytes = 16_384 * 12;
    for (let i = 0; i < 10 * 16_384; i++) q.push(i, i, 0);
    expect(meter.bytes).toBe(10 * chunkBytes);
    for (let i = 0; i < 10 * 16_384 - 5; i++) q.popFront();
    // The head's chunk, plus one emptied chunk kept for reuse.
    expect(meter.bytes).toBe(2 * chunkBytes);
    expect(meter.peakBytes).toBe(10 * chunkBytes);
    // Growing again reuses the spare before allocating.
    for (let i = 0; i < 16_384; i++) q.push(i, i, 0);
    expect(meter.bytes).toBe(2 * chunkBytes);
  });

  it('with routes, charges 16 bytes an entry', () => {
    const meter = new MemoryMeter();
    const q = new AttemptQueue(true, meter);
    q.push(1, 0, 3);
    expect(meter.bytes).toBe(16_384 * 16);
  });
});
