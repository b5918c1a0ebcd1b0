import { describe, it, expect } from 'vitest';
import { EventQueue } from '../../src/engine/event-queue.js';
import { Engine } from '../../src/engine/engine.js';
import { stream } from '../../src/engine/rng.js';

interface Ev {
  time: number;
  seq: number;
  kind: number;
  ref: number;
  aux: number;
}

/**
 * Reference pending set: an array kept sorted in *descending* (time, seq) order, so the
 * earliest event is at the end and pops in O(1). A new event has the largest seq so far,
 * so it goes after every event with a later time and before every event with a time <= its own.
 */
class ReferenceQueue {
  private readonly items: Ev[] = [];

  push(e: Ev): void {
    const a = this.items;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid].time > e.time) lo = mid + 1;
      else hi = mid;
    }
    a.splice(lo, 0, e);
  }

  pop(): Ev {
    return this.items.pop()!;
  }

  get size(): number {
    return this.items.length;
  }

  peekTime(): number {
    return this.items.length > 0 ? this.items[this.items.length - 1].time : Infinity;
  }
}

describe('EventQueue', () => {
  it('is empty at first: size 0, peekTime Infinity', () => {
    const q = new EventQueue();
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
  });

  it('pops in time order, carrying kind, ref and aux', () => {
    const q = new EventQueue();
    q.push(3, 1, 30, -3);
    q.push(1, 2, 10, -1);
    q.push(2, 3, 20, -2);
    expect(q.size).toBe(3);
    expect(q.peekTime()).toBe(1);
    const out: number[][] = [];
    while (q.size > 0) {
      q.pop();
      out.push([q.poppedTime, q.poppedKind, q.poppedRef, q.poppedAux]);
    }
    expect(out).toEqual([
      [1, 2, 10, -1],
      [2, 3, 20, -2],
      [3, 1, 30, -3],
    ]);
    expect(q.peekTime()).toBe(Infinity);
  });

  it('pops events with equal times in the order they were pushed', () => {
    const q = new EventQueue(2); // small capacity: also exercises growth
    for (let i = 0; i < 50; i++) q.push(i % 2 === 0 ? 5 : 4, 0, i, 0);
    const refs: number[] = [];
    while (q.size > 0) {
      q.pop();
      refs.push(q.poppedRef);
    }
    const odd = Array.from({ length: 25 }, (_, i) => 2 * i + 1);
    const even = Array.from({ length: 25 }, (_, i) => 2 * i);
    expect(refs).toEqual([...odd, ...even]);
  });

  for (const capacity of [1, 1024]) {
    it(`matches a reference sort over 100k interleaved pushes and pops (initial capacity ${capacity})`, () => {
      const rng = stream(capacity, 'test/event-queue');
      const q = new EventQueue(capacity);
      const ref = new ReferenceQueue();
      let pushes = 0;
      let pops = 0;
      let maxSize = 0;
      let emptied = 0;
      let mismatches = 0;
      for (let op = 0; op < 100_000; op++) {
        // The push probability swings between phases so the heap repeatedly grows to a
        // few thousand events and drains to empty.
        const pushProb = Math.floor(op / 4000) % 2 === 0 ? 0.7 : 0.3;
        if (ref.size === 0 || rng() < pushProb) {
          // Times on a coarse grid (many exact ties) mixed with continuous ones.
          const time = rng() < 0.7 ? Math.floor(rng() * 64) / 4 : rng() * 16;
          const e: Ev = {
            time,
            seq: pushes,
            kind: Math.floor(rng() * 8),
            ref: pushes,
            aux: Math.floor(rng() * 2 ** 32) - 2 ** 31, // the whole Int32 range
          };
          pushes++;
          q.push(e.time, e.kind, e.ref, e.aux);
          ref.push(e);
        } else {
          const e = ref.pop();
          q.pop();
          pops++;
          if (
            q.poppedTime !== e.time ||
            q.poppedKind !== e.kind ||
            q.poppedRef !== e.ref ||
            q.poppedAux !== e.aux
          ) {
            mismatches++;
            // Report the first mismatch in full and stop.
            expect([q.poppedTime, q.poppedKind, q.poppedRef, q.poppedAux]).toEqual([e.time, e.kind, e.ref, e.aux]);
          }
          if (ref.size === 0) emptied++;
        }
        if (q.size !== ref.size || q.peekTime() !== ref.peekTime()) {
          expect({ size: q.size, peek: q.peekTime() }).toEqual({ size: ref.size, peek: ref.peekTime() });
        }
        maxSize = Math.max(maxSize, ref.size);
      }
      // Drain what is left.
      while (ref.size > 0) {
        const e = ref.pop();
        q.pop();
        pops++;
        if (q.poppedTime !== e.time || q.poppedRef !== e.ref) mismatches++;
      }
      expect(mismatches).toBe(0);
      expect(q.size).toBe(0);
      expect(pushes).toBe(pops);
      // The run really exercised deep heaps, growth and repeated emptying.
      expect(maxSize).toBeGreaterThan(2000);
      expect(emptied).toBeGreaterThan(5);
    });
  }
});

describe('Engine', () => {
  it('gives each handler its own kind and passes ref and aux', () => {
    const e = new Engine();
    const seen: string[] = [];
    const k0 = e.on((r, a) => seen.push(`h0 ${r} ${a}`));
    const k1 = e.on((r, a) => seen.push(`h1 ${r} ${a}`));
    expect(k0).not.toBe(k1);
    e.at(1, k1, 7, -9);
    e.at(2, k0, 3);
    e.run(10);
    expect(seen).toEqual(['h1 7 -9', 'h0 3 0']);
  });

  it('runs events in (time, scheduling order), with the clock at each event time', () => {
    const e = new Engine();
    const log: Array<[number, number]> = [];
    const k = e.on((r) => log.push([e.now, r]));
    e.at(2, k, 0);
    e.at(1, k, 1);
    e.at(2, k, 2);
    e.after(1, k, 3); // now = 0: time 1, scheduled after ref 1
    e.at(0.5, k, 4);
    e.run(10);
    expect(log).toEqual([
      [0.5, 4],
      [1, 1],
      [1, 3],
      [2, 0],
      [2, 2],
    ]);
    expect(e.eventsProcessed).toBe(5);
  });

  it('run(until) runs only events before until, then sets now = until; later runs continue', () => {
    const e = new Engine();
    const ran: number[] = [];
    const k = e.on((r) => ran.push(r));
    e.at(1, k, 1);
    e.at(5, k, 5); // exactly at `until`: not run by run(5)
    e.at(7, k, 7);
    expect(e.run(5)).toBe(true);
    expect(ran).toEqual([1]);
    expect(e.now).toBe(5);
    expect(e.pending).toBe(2);
    expect(e.run(6)).toBe(true);
    expect(ran).toEqual([1, 5]);
    expect(e.now).toBe(6);
    expect(e.run(100)).toBe(true);
    expect(ran).toEqual([1, 5, 7]);
    expect(e.now).toBe(100);
    expect(e.pending).toBe(0);
  });

  it('sets now = until even when nothing is pending', () => {
    const e = new Engine();
    expect(e.run(42)).toBe(true);
    expect(e.now).toBe(42);
  });

  it('runs events scheduled by a handler at the current time after those already queued for that time', () => {
    const e = new Engine();
    const log: string[] = [];
    // eslint-disable-next-line prefer-const
    let kChild: number;
    const kParent = e.on((r) => {
      log.push(`parent ${r}`);
      e.after(0, kChild, r); // same time, scheduled now
      e.at(e.now, kChild, r + 100); // same time, via at
    });
    kChild = e.on((r) => log.push(`child ${r}`));
    e.at(3, kParent, 1);
    e.at(3, kParent, 2);
    e.at(3, kChild, 3);
    e.at(4, kChild, 4);
    e.run(10);
    expect(log).toEqual([
      'parent 1',
      'parent 2',
      'child 3',
      'child 1',
      'child 101',
      'child 2',
      'child 102',
      'child 4',
    ]);
  });

  it('at() never schedules into the past: an earlier time is moved to now', () => {
    const e = new Engine();
    const log: Array<[number, number]> = [];
    // eslint-disable-next-line prefer-const
    let kLate: number;
    const k = e.on(() => e.at(1, kLate, 0)); // at time 5, asks for time 1
    kLate = e.on(() => log.push([e.now, 1]));
    e.at(5, k);
    e.run(10);
    expect(log).toEqual([[5, 1]]);
  });

  it('shouldStop interrupts a run (polled every 65,536 events) and the run can resume', () => {
    const e = new Engine();
    let count = 0;
    const k = e.on(() => {
      count++;
      e.after(1, k);
    });
    e.at(0, k);
    let polls = 0;
    const done = e.run(1e9, () => {
      polls++;
      return true;
    });
    expect(done).toBe(false);
    expect(polls).toBe(1);
    expect(count).toBe(65_536);
    expect(e.eventsProcessed).toBe(65_536);
    // The clock stays at the last event run, not at `until`.
    expect(e.now).toBe(65_535);
    // Resuming without a stop request runs on to the horizon.
    expect(e.run(200_000)).toBe(true);
    expect(count).toBe(200_000);
    expect(e.now).toBe(200_000);
  });

  it('shouldStop returning false lets the run complete', () => {
    const e = new Engine();
    let count = 0;
    const k = e.on(() => {
      count++;
      e.after(1, k);
    });
    e.at(0, k);
    let polls = 0;
    expect(e.run(300_000, () => (polls++, false))).toBe(true);
    expect(count).toBe(300_000);
    expect(polls).toBe(Math.floor(300_000 / 65_536));
    expect(e.now).toBe(300_000);
  });
});
