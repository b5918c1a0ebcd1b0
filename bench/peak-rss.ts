/**
 * Preloaded into a benchmarked process (`node --import dist/bench/peak-rss.js ...`) so that
 * any program, ours or the hand-written reference loop, reports its own peak RSS the same
 * way: one line on stderr as it exits, read by whole-process.ts. The operating system's
 * figure (getrusage's ru_maxrss) covers the whole process, start-up included.
 */
import { writeSync } from 'node:fs';
import { PEAK_RSS_TAG } from './whole-process.js';

process.on('exit', () => {
  writeSync(2, `\n${PEAK_RSS_TAG} ${process.resourceUsage().maxRSS}\n`);
});
