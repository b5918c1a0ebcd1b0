import { describe, it, expect } from 'vitest';
import { EventQueue } from '../../src/engine/event-queue.js';
import { Engine, NOT_CANCELLABLE } from '../../src/engine/engine.js';
import { RunBudgetExceeded } from '../../src/engine/budget.js';
import { stream } from '../../src/engine/rng.js';

interface Ev {
  time: number;
  seq: number;
  kind: number;
  ref: number;
  aux: number;
}

/** (time, seq) order. */
function before(a: Ev, b: Ev): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/**
 * Reference pending set: an array kept sorted in *descending* (time, seq) order (binary
 * insertion), so the earliest event is at the end and pops in O(1).
 */
class ReferenceQueue {
  private readonly items: Ev[] = [];

  push(e: Ev): void {
    const a = this.items;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(e, a[mid])) lo = mid + 1;
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

  peek(): Ev | undefined {
    return this.items[this.items.length - 1];
  }
}


/**
 * Two runs of one random program (lanes, and the heap alone) processed the same events in the
 * same order. Compared without a 200k-element diff on failure: the first difference is found.
 */
function expectSameRun(withLanes: { log: number[]; events: number }, heapOnly: { log: number[]; events: number }): void {
  expect(withLanes.events).toBeGreaterThan(100_000);
  expect(withLanes.events).toBe(heapOnly.events);
  const a = withLanes.log, b = heapOnly.log;
  let firstDiff = -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) { firstDiff = i; break; }
  expect(firstDiff).toBe(-1);
}
describe('EventQueue', () => {
  it('is empty at first: size 0, peekTime Infinity', () => {
    const q = new EventQueue();
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
  });

  it('pops in time order, carrying kind, ref and aux', () => {
    const q = new EventQueue();
    q.push(3, 0, 1, 30, -3);
    q.push(1, 1, 2, 10, -1);
    q.push(2, 2, 3, 20, -2);
    expect(q.size).toBe(3);
    expect(q.peekTime()).toBe(1);
    expect(q.peekSeq()).toBe(1);
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

  it('pops events with equal times in seq order (the order they were pushed, when seq counts up)', () => {
    const q = new EventQueue(2); // small capacity: also exercises growth
    for (let i = 0; i < 50; i++) q.push(i % 2 === 0 ? 5 : 4, i, 0, i, 0);
    const refs: number[] = [];
    while (q.size > 0) {
      q.pop();
      refs.push(q.poppedRef);
    }
    const odd = Array.from({ length: 25 }, (_, i) => 2 * i + 1);
    const even = Array.from({ length: 25 }, (_, i) => 2 * i);
    expect(refs).toEqual([...odd, ...even]);
  });

  it('breaks time ties by seq, not by push order', () => {
    const q = new EventQueue();
    q.push(1, 7, 0, 7, 0);
    q.push(1, 3, 0, 3, 0);
    q.push(1, 5, 0, 5, 0);
    const refs: number[] = [];
    while (q.size > 0) {
      q.pop();
      refs.push(q.poppedRef);
    }
    expect(refs).toEqual([3, 5, 7]);
  });

  const configs = [
    { capacity: 1, seqs: 'increasing' },
    { capacity: 1024, seqs: 'increasing' },
    { capacity: 16, seqs: 'shuffled' },
  ] as const;
  for (const { capacity, seqs } of configs) {
    it(`matches a reference sort over 100k interleaved pushes and pops (capacity ${capacity}, ${seqs} seqs)`, () => {
      const rng = stream(capacity, 'test/event-queue');
      const q = new EventQueue(capacity);
      const ref = new ReferenceQueue();
      // Shuffled: unique seqs in random order (a permutation), so ties are broken by seq alone.
      const seqOf = Array.from({ length: 100_000 }, (_, i) => i);
      if (seqs === 'shuffled') {
        for (let i = seqOf.length - 1; i > 0; i--) {
          const j = Math.floor(rng() * (i + 1));
          [seqOf[i], seqOf[j]] = [seqOf[j], seqOf[i]];
        }
      }
      let pushes = 0;
      let pops = 0;
      let maxSize = 0;
      let emptied = 0;
      let mismatches = 0;
      const check = (e: Ev) => {
        if (
          q.poppedTime !== e.time ||
          q.poppedKind !== e.kind ||
          q.poppedRef !== e.ref ||
          q.poppedAux !== e.aux
        ) {
          mismatches++;
          // Report the first mismatch in full (this throws).
          expect([q.poppedTime, q.poppedKind, q.poppedRef, q.poppedAux]).toEqual([e.time, e.kind, e.ref, e.aux]);
        }
      };
      for (let op = 0; op < 100_000; op++) {
        // The push probability swings between phases so the heap repeatedly grows to
        // ~1,800 events (past the 1024 initial capacity) and drains to empty.
        const pushProb = Math.floor(op / 4000) % 2 === 0 ? 0.7 : 0.3;
        if (ref.size === 0 || rng() < pushProb) {
          // Times on a coarse grid (many exact ties) mixed with continuous ones.
          const time = rng() < 0.7 ? Math.floor(rng() * 64) / 4 : rng() * 16;
          const e: Ev = {
            time,
            seq: seqOf[pushes],
            kind: Math.floor(rng() * 8),
            ref: pushes,
            aux: Math.floor(rng() * 2 ** 32) - 2 ** 31, // the whole Int32 range
          };
          pushes++;
          q.push(e.time, e.seq, e.kind, e.ref, e.aux);
          ref.push(e);
        } else {
          const e = ref.pop();
          q.pop();
          pops++;
          check(e);
          if (ref.size === 0) emptied++;
        }
        const top = ref.peek();
        if (q.size !== ref.size || q.peekTime() !== (top?.time ?? Infinity) || (top && q.peekSeq() !== top.seq)) {
          expect({ size: q.size, time: q.peekTime(), seq: q.peekSeq() }).toEqual({ size: ref.size, time: top?.time, seq: top?.seq });
        }
        maxSize = Math.max(maxSize, ref.size);
      }
      // Drain what is left.
      while (ref.size > 0) {
        const e = ref.pop();
        q.pop();
        pops++;
        check(e);
      }
      expect(mismatches).toBe(0);
      expect(q.size).toBe(0);
      expect(pushes).toBe(pops);
      // The run really exercised deep heaps, growth and repeated emptying.
      expect(maxSize).toBeGreaterThan(1500);
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

  it('refuses an event at NaN, or after a delay of NaN, instead of ending the run as if at its horizon', () => {
    const e = new Engine();
    const k = e.on(() => {});
    const lane = e.lane();
    for (const schedule of [() => e.at(NaN, k), () => e.atInLane(lane, NaN, k), () => e.after(NaN, k), () => e.afterInLane(lane, NaN, k)]) {
      expect(schedule).toThrow(/scheduled at NaN: a bug in the model's arithmetic/);
    }
    e.at(5, k);
    e.run(10);
    expect(e.eventsProcessed).toBe(1);
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
  it('merges FIFO-lane events with heap events in (time, scheduling order)', () => {
    const e = new Engine();
    const log: Array<[number, string]> = [];
    const k = e.on((r) => log.push([e.now, `h${r}`]));
    const kl = e.on((r) => log.push([e.now, `l${r}`]));
    const lane = e.lane();
    e.at(1, k, 0); // seq 0
    e.afterInLane(lane, 1, kl, 1); // seq 1, time 1: after h0
    e.at(1, k, 2); // seq 2, time 1: after l1
    e.afterInLane(lane, 2, kl, 3); // time 2
    e.at(0.5, k, 4);
    e.at(2, k, 5); // time 2, after l3
    expect(e.pending).toBe(6);
    e.run(10);
    expect(log).toEqual([
      [0.5, 'h4'],
      [1, 'h0'],
      [1, 'l1'],
      [1, 'h2'],
      [2, 'l3'],
      [2, 'h5'],
    ]);
    expect(e.pending).toBe(0);
  });

  it('sends an event due before its lane\'s tail to the heap, keeping the order right', () => {
    const e = new Engine();
    const log: number[] = [];
    const k = e.on((r) => log.push(r));
    const lane = e.lane();
    e.afterInLane(lane, 5, k, 5);
    e.afterInLane(lane, 3, k, 3); // earlier than the tail: heap
    e.afterInLane(lane, 5, k, 6); // equal to the tail: lane, after 5
    e.afterInLane(lane, 4, k, 4); // heap
    expect(e.pending).toBe(4);
    e.run(4.5);
    expect(log).toEqual([3, 4]);
    expect(e.pending).toBe(2);
    e.run(10);
    expect(log).toEqual([3, 4, 5, 6]);
  });

  it('runs a random program in exactly the same order whether lanes or the heap hold its events', () => {
    // Handlers schedule follow-ups from a seeded stream: random delays on the heap, fixed
    // delays (like per-try timeouts) through afterInLane, some at the current time. The run
    // with lanes must be the run with plain after(): same events, same order, same clock.
    const program = (useLanes: boolean) => {
      const e = new Engine();
      const rng = stream(3, 'test/engine-program');
      const lanes = [e.lane(), e.lane()];
      const delays = [0.25, 1];
      const log: number[] = [];
      let next = 0;
      const k = e.on((id) => {
        log.push(id, e.now);
        if (log.length > 2 * 100_000) return;
        const n = e.pending < 50 ? 3 : e.pending > 500 ? 0 : 1 + Math.floor(rng() * 2);
        for (let i = 0; i < n; i++) {
          const u = rng();
          if (u < 0.4) {
            const l = u < 0.2 ? 0 : 1;
            if (useLanes) e.afterInLane(lanes[l], delays[l], k, next++);
            else e.after(delays[l], k, next++);
          } else if (u < 0.5) e.after(0, k, next++);
          else if (u < 0.8) e.after(Math.floor(rng() * 8) / 8, k, next++); // grid: ties with lane events
          else e.after(rng() * 2, k, next++);
        }
      });
      for (let i = 0; i < 10; i++) e.at(0, k, next++);
      e.run(1e9);
      return { log, events: e.eventsProcessed };
    };
    expectSameRun(program(true), program(false));
  });
});

describe('Engine: streams in lanes by absolute time, and lanes made mid-run', () => {
  // Runs a random program whose handlers schedule fixed delays in lanes, streams of
  // increasing times (atInLane), zero delays and random delays on a grid (ties with lane
  // events); `useLanes` false puts everything in the heap. Lanes are added during the run
  // too (past the eight the lane-head array starts with): the run loop must see them.
  const program = (useLanes: boolean) => {
    const e = new Engine();
    const rng = stream(5, 'test/engine-streams');
    const waits = [0.5, 1, 0.25, 2, 0.75, 1.5];
    const lanes = waits.map(() => -1);
    const made = 3;
    for (let w = 0; w < made; w++) if (useLanes) lanes[w] = e.lane();
    const stream1 = useLanes ? e.lane() : -1;
    let nextArrival = 0;
    const log: number[] = [];
    let next = 0;
    const k = e.on((id) => {
      log.push(id, e.now);
      if (log.length > 2 * 100_000) return;
      if (useLanes && lanes[waits.length - 1] < 0 && e.now > 20) {
        for (let w = made; w < waits.length; w++) lanes[w] = e.lane(); // lanes made mid-run
        for (let x = 0; x < 4; x++) e.lane(); // and empty ones, so the head array grows
      }
      const n = e.pending < 50 ? 3 : e.pending > 500 ? 0 : 1 + Math.floor(rng() * 2);
      for (let i = 0; i < n; i++) {
        const u = rng();
        if (u < 0.45) {
          const w = Math.floor(u * 13) % waits.length;
          if (lanes[w] >= 0) e.afterInLane(lanes[w], waits[w], k, next++);
          else e.after(waits[w], k, next++);
        } else if (u < 0.55) {
          nextArrival = Math.max(nextArrival, e.now) + Math.floor(rng() * 4) / 8; // increasing, sometimes equal
          e.atInLane(stream1, nextArrival, k, next++);
        } else if (u < 0.6) e.after(0, k, next++);
        else if (u < 0.85) e.after(Math.floor(rng() * 8) / 8, k, next++);
        else e.after(rng() * 2, k, next++);
      }
    });
    for (let i = 0; i < 10; i++) e.at(0, k, next++);
    e.run(1e9);
    return { log, events: e.eventsProcessed };
  };

  it('runs a random program in exactly the same order whether lanes or the heap hold its events', () => {
    expectSameRun(program(true), program(false));
  });
});

describe('Engine: cancelling lane events', () => {
  it('never runs a cancelled event, whether it is at the head, in the middle or at the tail of its lane', () => {
    const e = new Engine();
    const ran: number[] = [];
    const k = e.on((r) => ran.push(r));
    const lane = e.lane();
    const h = [1, 2, 3, 4, 5].map((r) => e.afterInLane(lane, r, k, r));
    e.cancelInLane(lane, h[2]); // middle
    e.cancelInLane(lane, h[0]); // head
    e.cancelInLane(lane, h[4]); // tail
    expect(e.pending).toBe(2);
    e.run(10);
    expect(ran).toEqual([2, 4]);
  });

  it('ignores the handle of an event that already ran or was cancelled, and of one that went to the heap', () => {
    const e = new Engine();
    const ran: number[] = [];
    const k = e.on((r) => ran.push(r));
    const lane = e.lane();
    const first = e.afterInLane(lane, 1, k, 1);
    const second = e.afterInLane(lane, 2, k, 2);
    const early = e.afterInLane(lane, 0.5, k, 0); // before the tail: heap
    expect(early).toBe(NOT_CANCELLABLE);
    e.cancelInLane(lane, early);
    e.run(1.5);
    e.cancelInLane(lane, first); // ran already
    e.cancelInLane(lane, second);
    e.cancelInLane(lane, second); // twice
    const third = e.afterInLane(lane, 1, k, 3);
    e.run(10);
    expect(ran).toEqual([0, 1, 3]);
    expect(third).toBeGreaterThan(second);
  });

  it('accepts events due from the new tail on once the tail was cancelled', () => {
    const e = new Engine();
    const ran: number[] = [];
    const k = e.on((r) => ran.push(r));
    const lane = e.lane();
    e.afterInLane(lane, 1, k, 1);
    const h = e.afterInLane(lane, 5, k, 5);
    e.cancelInLane(lane, h);
    expect(e.afterInLane(lane, 2, k, 2)).not.toBe(NOT_CANCELLABLE); // due before the cancelled 5: still in the lane
    e.run(10);
    expect(ran).toEqual([1, 2]);
  });

  it('keeps a lane at its size when events are scheduled and cancelled at one instant, forever', () => {
    // The retry loop of issue 17: a try starts (its timeout goes in the lane) and fails at
    // once, so its timeout is cancelled, and the clock never moves.
    const e = new Engine();
    const lane = e.lane();
    const k = e.on(() => {});
    let loops = 0;
    const kLoop = e.on(() => {
      const h = e.afterInLane(lane, 1, k);
      e.cancelInLane(lane, h);
      if (++loops < 1_000_000) e.after(0, kLoop);
    });
    const before = e.memory.bytes;
    e.at(0, kLoop);
    e.run(10);
    expect(loops).toBe(1_000_000);
    expect(e.memory.bytes).toBe(before);
    expect(e.pending).toBe(0);
  });

  it('runs a random program with cancellations as the heap alone runs it with the cancelled events skipped', () => {
    // Lane events are cancelled at random (head, middle, tail, already run); the heap-only
    // run schedules the same events and marks the cancelled ones, whose handler then does
    // nothing. Same live events, same order, same clock.
    const program = (useLanes: boolean) => {
      const e = new Engine();
      const rng = stream(5, 'test/engine-cancel');
      const lane = e.lane();
      const log: number[] = [];
      const cancelled = new Set<number>();
      const ran = new Set<number>();
      const handles: number[] = [];
      let next = 0;
      let live = 10; // scheduled, not run and not cancelled: the same in both runs (unlike e.pending)
      const k = e.on((id) => {
        if (cancelled.has(id)) return; // heap-only run: a cancelled event is skipped here
        live--;
        ran.add(id);
        log.push(id, e.now);
        if (log.length > 2 * 50_000) return;
        const n = live < 50 ? 3 : live > 400 ? 0 : 1 + Math.floor(rng() * 2);
        live += n;
        for (let i = 0; i < n; i++) {
          const id2 = next++;
          if (rng() < 0.5) {
            handles[id2] = useLanes ? e.afterInLane(lane, 1, k, id2) : (e.after(1, k, id2), id2);
          } else e.after(rng() * 2, k, id2);
        }
        // Cancel a random lane event scheduled so far (it may have run or been cancelled already).
        if (handles.length > 0 && rng() < 0.6) {
          const victim = Math.floor(rng() * handles.length);
          if (handles[victim] !== undefined) {
            if (useLanes) e.cancelInLane(lane, handles[victim]);
            // Both runs cancel only what has not run yet, as the lane does.
            if (!ran.has(victim) && !cancelled.has(victim)) {
              cancelled.add(victim);
              live--;
            }
          }
        }
      });
      for (let i = 0; i < 10; i++) e.at(0, k, next++);
      e.run(1e9);
      return log;
    };
    const a = program(true);
    const b = program(false);
    expect(a.length).toBeGreaterThan(10_000);
    let firstDiff = -1;
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) { firstDiff = i; break; }
    expect(firstDiff).toBe(-1);
  });
  it('laneFor gives streams of the same delay one lane, and they run as they would with a lane each', () => {
    const e0 = new Engine();
    expect(e0.laneFor(10)).toBe(e0.laneFor(10));
    expect(e0.laneFor(30)).not.toBe(e0.laneFor(10));
    // Three streams (two of delay 1, one of 0.5) scheduled at random times, some of their
    // events cancelled: shared lanes and a lane per stream give the same run.
    const program = (shared: boolean) => {
      const e = new Engine();
      const rng = stream(5, 'test/shared-lanes');
      const delays = [1, 1, 0.5];
      const lanes = delays.map((d) => (shared ? e.laneFor(d) : e.lane()));
      const log: number[] = [];
      const handles: Array<[number, number]> = [];
      let next = 0;
      const k = e.on((id) => {
        log.push(id, e.now);
        if (next > 50_000) return;
        for (let i = 0; i < 2; i++) {
          const s = Math.floor(rng() * 3);
          handles.push([s, e.afterInLane(lanes[s], delays[s], k, next++)]);
        }
        if (rng() < 0.3) {
          const [s, h] = handles[Math.floor(rng() * handles.length)];
          e.cancelInLane(lanes[s], h);
        }
        if (rng() < 0.5) e.after(rng() * 0.1, k, next++);
      });
      e.at(0, k, next++);
      e.run(1e9);
      return { log, events: e.eventsProcessed, lanes: new Set(lanes).size };
    };
    const sharing = program(true);
    const apart = program(false);
    expect(sharing.lanes).toBe(2);
    expect(apart.lanes).toBe(3);
    expect(sharing.events).toBeGreaterThan(20_000);
    expect(sharing.events).toBe(apart.events);
    let firstDiff = -1;
    for (let i = 0; i < Math.max(sharing.log.length, apart.log.length); i++) if (sharing.log[i] !== apart.log[i]) { firstDiff = i; break; }
    expect(firstDiff).toBe(-1);
  });
});

describe('Engine: the run budget', () => {
  it('stops a run whose pending events would exceed its memory budget, naming what grew', () => {
    const e = new Engine({ memoryBytes: 1 << 20 });
    const k = e.on(() => {});
    let scheduled = 0;
    let error: unknown;
    try {
      for (; scheduled < 1_000_000; scheduled++) e.at(scheduled, k);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(RunBudgetExceeded);
    expect((error as Error).message).toMatch(/^the run would hold more than its memory budget of 1 MiB \(\d+ MiB of simulation state when pending events grew\)$/);
    // Stopped at the doubling that would have crossed 1 MiB (36 bytes an event): 16,384 events held.
    expect(scheduled).toBe(16_384);
    expect(e.memory.bytes).toBeLessThanOrEqual(1 << 20);
  });

  it('stops a loop of zero-delay events once it has run its budget of events at one instant', () => {
    const e = new Engine({ eventsAtOneInstant: 500_000 });
    let count = 0;
    const k = e.on(() => {
      count++;
      e.after(0, k);
    });
    e.at(3, k);
    expect(() => e.run(10)).toThrow(/^\d[\d,]* events ran at one instant without the clock moving, over the budget of 500,000: the model is in a loop of zero-delay events/);
    expect(e.now).toBe(3);
    // Detected within two polls (65,536 events each) past the budget.
    expect(count).toBeGreaterThanOrEqual(500_000);
    expect(count).toBeLessThanOrEqual(500_000 + 2 * 65_536);
  });

  it('lets as many events run at one instant as the budget allows when the clock then moves on', () => {
    const e = new Engine({ eventsAtOneInstant: 300_000 });
    let count = 0;
    const k = e.on(() => {
      count++;
      // 200,000 events at t = 0, then one per second.
      e.after(count < 200_000 ? 0 : 1, k);
    });
    e.at(0, k);
    expect(e.run(400_000)).toBe(true);
    expect(count).toBe(200_000 + 400_000 - 1);
  });
});
