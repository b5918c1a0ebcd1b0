/**
 * Progress of a long experiment: on a terminal, one line redrawn in place (runs done, ETA,
 * simulated attempts per second); elsewhere (CI logs, pipes) a plain line every few
 * seconds, because carriage returns make unreadable logs.
 */
import { formatDuration } from '../scenario/units.js';

export interface Progress {
  run(done: number, total: number, attempts: number): void;
  end(): void;
}

export function progress(stream: NodeJS.WriteStream, quiet: boolean, everyS = 5): Progress {
  if (quiet) return { run() {}, end() {} };
  const started = performance.now();
  let attemptsSum = 0;
  let lastLine = 0;
  const tty = stream.isTTY === true;
  const text = (done: number, total: number) => {
    const elapsed = (performance.now() - started) / 1000;
    const eta = done > 0 ? (elapsed / done) * (total - done) : NaN;
    const rate = attemptsSum / Math.max(elapsed, 1e-9);
    return `${done}/${total} runs, ETA ${Number.isFinite(eta) ? formatDuration(Math.round(eta)) : '?'}, ${formatRate(rate)} attempts/s`;
  };
  return {
    run(done, total, attempts) {
      attemptsSum += attempts;
      if (tty) {
        const width = 24;
        const filled = Math.round((done / total) * width);
        stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text(done, total)}\x1b[K`);
      } else {
        const now = performance.now();
        if (done === total || now - lastLine >= everyS * 1000) {
          lastLine = now;
          stream.write(`progress: ${text(done, total)}\n`);
        }
      }
    },
    end() {
      if (tty) stream.write('\n');
    },
  };
}

function formatRate(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)}k`;
  return x.toFixed(0);
}
