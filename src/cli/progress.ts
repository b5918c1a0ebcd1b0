/**
 * Progress of an experiment while it runs, from what the workers report: runs finished, and
 * how far each run in progress has got in simulated time. On a terminal, a block redrawn in
 * place a few times a second (the whole experiment, then one bar per run in progress); in a
 * pipe or a CI log, where carriage returns make unreadable logs, a plain line every interval
 * (5 s by default), so even one long run never leaves the log silent for longer than that.
 * An interval given by the user (`--progress-every`) sets both.
 *
 * The figures are wall-clock estimates for people: nothing here reaches the result files.
 */
import { formatDuration } from '../scenario/units.js';

export interface Progress {
  /** Runs are planned: how many, and how much simulated time they add up to (seconds); each look of `seeds: auto` plans more. */
  planned(runs: number, simulatedS: number): void;
  /** Run `index` (its position in the experiment) has started on a worker. */
  started(index: number, label: string, horizonS: number): void;
  /** A run in progress has reached `simS` of simulated time. */
  moved(index: number, simS: number): void;
  /** A run finished (its simulated attempts feed the attempts/s figure). */
  finished(index: number, attempts: number): void;
  /** Stops the timer and leaves the last picture (a terminal gets its final redraw). */
  end(): void;
}

export interface ProgressOptions {
  /** Nothing is drawn. */
  quiet?: boolean;
  /** Seconds between two updates: plain lines (default 5) or, on a terminal, redraws (default 0.2). */
  everyS?: number;
  /** Wall clock in ms and a repeating timer: injectable so the output can be tested without waiting. */
  clock?: () => number;
  every?: (ms: number, fn: () => void) => () => void;
}

export interface ProgressStream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

interface Running {
  label: string;
  horizonS: number;
  simS: number;
}

const realEvery = (ms: number, fn: () => void) => {
  const t = setInterval(fn, ms);
  t.unref(); // progress never keeps the process alive
  return () => clearInterval(t);
};

/** Lists at most this many runs in progress on a plain line (a 64-core machine runs 64). */
const LISTED_ON_A_LINE = 4;

export function progress(stream: ProgressStream, opts: ProgressOptions = {}): Progress {
  if (opts.quiet) return { planned() {}, started() {}, moved() {}, finished() {}, end() {} };
  const clock = opts.clock ?? (() => performance.now());
  const every = opts.every ?? realEvery;
  const tty = stream.isTTY === true;
  const startedAt = clock();
  let total = 0;
  let totalSimS = 0;
  let done = 0;
  let doneSimS = 0;
  let attempts = 0;
  const running = new Map<number, Running>();
  let stop: (() => void) | undefined;
  let drawn = 0; // lines of the last terminal picture
  let ended = false;

  const fraction = () => {
    let sim = doneSimS;
    for (const r of running.values()) sim += r.simS;
    return totalSimS > 0 ? Math.min(1, sim / totalSimS) : done / Math.max(total, 1);
  };
  const summary = () => {
    const elapsedS = (clock() - startedAt) / 1000;
    const f = fraction();
    const eta = done === total ? 0 : f > 0 ? (elapsedS * (1 - f)) / f : NaN;
    // Attempts are counted when a run finishes: until one has, there is no rate to show.
    const rate = done > 0 ? `, ${formatRate(attempts / Math.max(elapsedS, 1e-9))} attempts/s` : '';
    return `${done}/${total} runs, ${percent(f)} of simulated time, ETA ${Number.isFinite(eta) ? formatDuration(Math.round(eta)) : '?'}${rate}`;
  };
  const at = (r: Running) => `${formatDuration(Math.floor(r.simS))} of ${formatDuration(r.horizonS)}`;

  const line = () => {
    const runs = [...running.values()];
    const listed = runs.slice(0, LISTED_ON_A_LINE).map((r) => `${r.label} at ${at(r)}`);
    if (runs.length > LISTED_ON_A_LINE) listed.push(`${runs.length - LISTED_ON_A_LINE} more`);
    stream.write(`progress: ${summary()}${listed.length ? `; running: ${listed.join(', ')}` : ''}\n`);
  };

  const picture = () => {
    const width = Math.max(40, (stream.columns || 100) - 1); // a terminal of unknown size says 0
    const lines = [`${bar(fraction(), 24)} ${summary()}`];
    for (const r of running.values()) lines.push(`  ${bar(r.horizonS > 0 ? r.simS / r.horizonS : 0, 16)} ${at(r)}  ${r.label}`);
    // Cut to the terminal's width: a wrapped line would throw off the cursor-up count.
    const text = lines.map((l) => (l.length > width ? l.slice(0, width - 1) + '…' : l));
    const up = drawn > 1 ? `\x1b[${drawn - 1}A` : '';
    stream.write(`${up}\r${text.join('\x1b[K\n')}\x1b[K\x1b[J`);
    drawn = text.length;
  };

  const draw = tty ? picture : line;

  // The last picture, once: on a terminal the final state in place, in a log one closing line.
  // It comes when the last run finishes (the timer stops there) or when the experiment ends
  // early (interrupted), whichever is first.
  const finish = () => {
    if (ended) return;
    ended = true;
    stop?.();
    if (total === 0) return;
    draw();
    if (tty) stream.write('\n');
  };

  return {
    planned(runs, simulatedS) {
      total += runs;
      totalSimS += simulatedS;
      if (runs === 0 || (stop && !ended)) return;
      // A later look of `seeds: auto` reopens a finished picture below the last one.
      ended = false;
      drawn = 0;
      stop = every((opts.everyS ?? (tty ? 0.2 : 5)) * 1000, draw);
    },
    started(index, label, horizonS) {
      running.set(index, { label, horizonS, simS: 0 });
    },
    moved(index, simS) {
      const r = running.get(index);
      if (r) r.simS = Math.max(r.simS, Math.min(simS, r.horizonS));
    },
    finished(index, runAttempts) {
      const r = running.get(index);
      running.delete(index);
      done++;
      // A run that finished before it was seen starting (too short to report) still counts whole.
      doneSimS += r ? r.horizonS : totalSimS / Math.max(total, 1);
      attempts += runAttempts;
      if (done === total) finish();
    },
    end: finish,
  };
}

function bar(f: number, width: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, f)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** Rounded down, so that 100% means done (one run left in 192 is not "100%"). */
function percent(f: number): string {
  return f < 0.1 ? `${(Math.floor(f * 1000) / 10).toFixed(1)}%` : `${Math.floor(f * 100 + 1e-9)}%`;
}

function formatRate(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)}k`;
  return x.toFixed(0);
}
