/**
 * Times a command as a whole process: wall time from spawn to exit (start-up included,
 * as a user would wait for it) and the process's own peak RSS, reported by the peak-rss.ts
 * preload. Used for comparisons against other programs, where timing only our inner loop
 * would flatter us.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
/** The line the preload writes: `peak-rss-kib N`. */
export const PEAK_RSS_TAG = 'peak-rss-kib';
/** The line it writes after it: `cpu-us N`, user and system CPU of every thread. */
export const CPU_TAG = 'cpu-us';

const PRELOAD = fileURLToPath(new URL('./peak-rss.js', import.meta.url));

export interface ProcessRun {
  wallS: number;
  peakRssMiB: number;
  /** User and system CPU seconds of the whole process (every thread); NaN when it did not say. */
  cpuS: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node [args]` with the peak-RSS preload; throws with the child's stderr if it fails.
 * `preload: false` runs it bare (its peak RSS and CPU are then NaN): for a command whose
 * child processes would inherit the preload, such as vitest's workers.
 */
export function runNode(args: string[], cwd?: string, { preload = true } = {}): ProcessRun {
  const t0 = process.hrtime.bigint();
  const p = spawnSync(process.execPath, preload ? ['--import', PRELOAD, ...args] : args, { encoding: 'utf8', cwd, maxBuffer: 64 << 20 });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  if (p.error) throw p.error;
  if (p.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${p.status ?? p.signal}:\n${p.stderr.slice(-4000)}`);
  if (!preload) return { wallS, peakRssMiB: NaN, cpuS: NaN, stdout: p.stdout, stderr: p.stderr };
  const kib = peakRssKiB(p.stderr);
  if (kib === undefined) throw new Error(`node ${args.join(' ')} did not report its peak RSS`);
  // Process-wide and only growing, like the peak: the largest line is the process's total.
  const cpu = tagged(p.stderr, CPU_TAG);
  return { wallS, peakRssMiB: kib / 1024, cpuS: cpu.length ? Math.max(...cpu) / 1e6 : NaN, stdout: p.stdout, stderr: p.stderr };
}

/**
 * The peak RSS a process preloaded with peak-rss.js reported on stderr, in KiB. Worker
 * threads inherit the preload and report the same process-wide figure as they end: the
 * largest line is the process's peak.
 */
export function peakRssKiB(stderr: string): number | undefined {
  const all = tagged(stderr, PEAK_RSS_TAG);
  return all.length ? Math.max(...all) : undefined;
}

/** The numbers of every `TAG N` line. */
function tagged(stderr: string, tag: string): number[] {
  return [...stderr.matchAll(new RegExp(`^${tag} (\\d+)$`, 'gm'))].map((m) => Number(m[1]));
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** "median (min-max)" of a set of figures. */
export const spread = (xs: number[], digits = 2): string =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

/**
 * CPU seconds the whole machine has been busy since boot (user, nice, system, irq, softirq
 * and steal in /proc/stat), or NaN where there is no /proc/stat: the difference over a run
 * counts every process it started, waited for or not (a browser a test launched, too).
 */
export function machineBusyS(): number {
  if (!existsSync('/proc/stat')) return NaN;
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return (user + nice + system + irq + softirq + (steal ?? 0)) / 100; // USER_HZ: 100 on Linux
}

/** The machine's load averages over 1, 5 and 15 minutes, printed beside every figure (these machines are shared). */
export const loadAverages = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
