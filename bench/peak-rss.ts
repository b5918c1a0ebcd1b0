/**
 * Preloaded into a benchmarked process (`node --import dist/bench/peak-rss.js ...`) so that
 * any program, ours or the hand-written reference loop, reports its own peak RSS the same
 * way: one line on stderr as it exits, read by whole-process.ts, with a second line for the
 * CPU time it used. The operating system's figures (getrusage's ru_maxrss, ru_utime and
 * ru_stime) cover the whole process, start-up and every thread included.
 */
import { writeSync } from 'node:fs';
import { CPU_TAG, PEAK_RSS_TAG } from './whole-process.js';

process.on('exit', () => {
  const u = process.resourceUsage();
  writeSync(2, `\n${PEAK_RSS_TAG} ${u.maxRSS}\n${CPU_TAG} ${u.userCPUTime + u.systemCPUTime}\n`);
});
