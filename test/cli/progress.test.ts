/**
 * The progress display, driven by a fake clock and a fake timer (no waiting): in a pipe, a
 * plain line every interval that says how far each run in progress has got in simulated
 * time, even while nothing finishes; on a terminal, a block redrawn in place with a bar for
 * the whole experiment and one per run. The CLI as a process is tested in cli-progress.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { progress, type ProgressStream } from '../../src/cli/progress.js';

function fakeTime() {
  let now = 0;
  const timers: Array<{ ms: number; next: number; fn: () => void; live: boolean }> = [];
  return {
    clock: () => now,
    every: (ms: number, fn: () => void) => {
      const t = { ms, next: now + ms, fn, live: true };
      timers.push(t);
      return () => (t.live = false);
    },
    /** Moves the clock by `ms`, firing each timer as often as it comes due. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.fn();
      }
      now = end;
    },
  };
}

function sink(isTTY: boolean, columns = 120): ProgressStream & { text: string } {
  const s = { text: '', isTTY, columns, write: (x: string) => (s.text += x) };
  return s;
}

describe('progress in a pipe', () => {
  it('prints a line every 5 s by default while a single long run is in progress, with its simulated time', () => {
    const time = fakeTime();
    const out = sink(false);
    const p = progress(out, { clock: time.clock, every: time.every });
    p.planned(1, 4 * 3600);
    p.started(0, 'as-is, faults[0].duration=12m, seed 1', 4 * 3600);
    // The worker reports 3 simulated minutes per wall second; 60 s of wall time pass.
    for (let s = 1; s <= 60; s++) {
      p.moved(0, s * 180);
      time.advance(1000);
    }
    const lines = out.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(12); // one every 5 s of the 60
    lines.forEach((l, i) => {
      const simulated = (i + 1) * 5 * 180; // what the run had reached when the line was printed
      expect(l).toBe(
        `progress: 0/1 runs, ${simulated < 1440 ? (Math.floor((simulated / 14400) * 1000) / 10).toFixed(1) : Math.floor((simulated / 14400) * 100 + 1e-9)}% of simulated time, ` +
          `ETA ${l.match(/ETA (\S+);/)![1]}; running: as-is, faults[0].duration=12m, seed 1 at ${fmt(simulated)} of 4h`,
      );
    });
    // ETA from the fraction of simulated time done: 15 min simulated in 5 s leaves 3h45m, i.e. 75 s.
    expect(lines[0]).toMatch(/^progress: 0\/1 runs, 6\.2% of simulated time, ETA 1m15s;/);
    // Halfway (2 h simulated after 40 s), 40 s remain.
    expect(lines[7]).toMatch(/^progress: 0\/1 runs, 50% of simulated time, ETA 40s;/);
    p.finished(0, 1_000_000);
    time.advance(10_000); // the pool shutting down: no more lines once every run is done
    p.end();
    expect(out.text.split('\n').filter(Boolean)).toHaveLength(13);
    expect(out.text.split('\n').filter(Boolean).at(-1)).toMatch(/^progress: 1\/1 runs, 100% of simulated time, ETA 0s, 16\.7k attempts\/s$/);
  });

  it('takes its interval from the options, counts finished runs whole, and lists at most four runs in progress', () => {
    const time = fakeTime();
    const out = sink(false);
    const p = progress(out, { clock: time.clock, every: time.every, everyS: 30 });
    p.planned(10, 10 * 600);
    for (let i = 0; i < 6; i++) p.started(i, `v seed ${i}`, 600);
    p.finished(0, 500);
    for (let i = 1; i < 6; i++) p.moved(i, 60);
    time.advance(29_999);
    expect(out.text).toBe('');
    time.advance(1);
    // 600 + 5 x 60 of 6000 simulated seconds.
    expect(out.text).toBe(
      'progress: 1/10 runs, 15% of simulated time, ETA 2m50s, 17 attempts/s; running: v seed 1 at 1m of 10m, v seed 2 at 1m of 10m, v seed 3 at 1m of 10m, v seed 4 at 1m of 10m, 1 more\n',
    );
  });

  it('never runs a run backwards or past its horizon, and ignores reports about runs it does not know', () => {
    const time = fakeTime();
    const out = sink(false);
    const p = progress(out, { clock: time.clock, every: time.every, everyS: 1 });
    p.planned(2, 200);
    p.started(0, 'a', 100);
    p.moved(0, 80);
    p.moved(0, 40); // a late message
    p.moved(1, 50); // not started: ignored
    time.advance(1000);
    p.moved(0, 1e9);
    time.advance(1000);
    const lines = out.text.trim().split('\n');
    expect(lines[0]).toMatch(/^progress: 0\/2 runs, 40% of simulated time, .* a at 1m20s of 1m40s$/);
    expect(lines[1]).toMatch(/^progress: 0\/2 runs, 50% of simulated time, .* a at 1m40s of 1m40s$/);
  });

  it('is silent with quiet, and after end', () => {
    const time = fakeTime();
    const out = sink(false);
    const q = progress(out, { quiet: true, clock: time.clock, every: time.every });
    q.planned(1, 100);
    q.started(0, 'a', 100);
    time.advance(60_000);
    q.end();
    expect(out.text).toBe('');
    const p = progress(out, { clock: time.clock, every: time.every, everyS: 1 });
    p.planned(1, 100);
    p.end();
    const after = out.text;
    time.advance(60_000);
    expect(out.text).toBe(after);
  });
});

describe('progress on a terminal', () => {
  it('redraws a block in place: the experiment bar, then one bar per run in progress with its simulated time', () => {
    const time = fakeTime();
    const out = sink(true);
    const p = progress(out, { clock: time.clock, every: time.every });
    p.planned(4, 4 * 3600);
    p.started(0, 'as-is, seed 1', 3600);
    p.started(1, 'as-is, seed 2', 3600);
    p.moved(0, 1800);
    p.moved(1, 900);
    time.advance(200);
    const first = out.text;
    expect(first).toBe(
      '\r[#####-------------------] 0/4 runs, 18% of simulated time, ETA 1s\x1b[K\n' +
        '  [########--------] 30m of 1h  as-is, seed 1\x1b[K\n' +
        '  [####------------] 15m of 1h  as-is, seed 2\x1b[K\x1b[J',
    );
    // Next frame: the cursor goes back up two lines and the block is drawn again over itself.
    p.finished(0, 100);
    p.moved(1, 3600);
    time.advance(200);
    const second = out.text.slice(first.length);
    expect(second).toBe(
      '\x1b[2A\r[############------------] 1/4 runs, 50% of simulated time, ETA 0s, 250 attempts/s\x1b[K\n' +
        '  [################] 1h of 1h  as-is, seed 2\x1b[K\x1b[J',
    );
    p.end();
    expect(out.text.endsWith('\x1b[J\n')).toBe(true);
  });

  it('cuts lines to the terminal width so that a wrapped line cannot throw off the redraw', () => {
    const time = fakeTime();
    const out = sink(true, 50);
    const p = progress(out, { clock: time.clock, every: time.every });
    p.planned(1, 100);
    p.started(0, 'a variant with a very long name, faults[0].duration=12m, seed 1', 100);
    time.advance(200);
    for (const line of out.text.split('\n')) {
      const visible = line.replace(/\x1b\[[0-9]*[A-Za-z]/g, '').replace('\r', '');
      expect(visible.length).toBeLessThanOrEqual(49);
    }
  });
});

function fmt(s: number): string {
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${r || (!h && !m) ? `${r}s` : ''}`;
}
