/**
 * One way to write a value of each unit, for every writer (terminal, summary.md, report.html,
 * expectation messages): durations as "3m10s", shares as "12.3%", multiples as "10.2x",
 * counts with thousands separators. The precision follows the unit, so a p99 never prints
 * as 18.333333333333332.
 */
import { formatDuration } from '../scenario/units.js';
import type { Unit } from './measure.js';

/** Up to `digits` decimals, trailing zeros dropped: 2.5, 2, 0.33. */
function decimals(x: number, digits: number): string {
  return String(Number(x.toFixed(digits)));
}

// Made once: toLocaleString with options builds a new formatter per call, and the report
// formats tens of thousands of counts (what x.toLocaleString('en-US', options) does, faster).
const GROUPED_WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const GROUPED_TENTHS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

function grouped(x: number): string {
  return (Math.abs(x) >= 100 ? GROUPED_WHOLE : GROUPED_TENTHS).format(x);
}

function bytes(x: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (Math.abs(x) >= 1000 && i < units.length - 1) { x /= 1000; i++; }
  return `${i === 0 ? x.toFixed(0) : decimals(x, 1)} ${units[i]}`;
}

/** A shortened duration: "3m10s", under a minute to the second, "250ms" below a second. */
function duration(s: number): string {
  if (s > 0 && s < 1) return `${Math.round(s * 1000)}ms`;
  return formatDuration(Math.round(s));
}

/**
 * A share as a percentage, to a tenth of a point, with more digits where rounding would tell
 * a different story: a share below 1 never reads "100%" (0.999969 is "99.997%", not all the
 * new users served), and one above 0 never reads "0%".
 */
function share(x: number): string {
  const pct = x * 100;
  let digits = x >= 0.999 && x < 1 ? 2 : 1;
  while (digits < 6 && ((x < 1 && Number(pct.toFixed(digits)) >= 100) || (x > 0 && Number(pct.toFixed(digits)) <= 0))) digits++;
  return `${decimals(pct, digits)}%`;
}

export function formatValue(unit: Unit, x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '—';
  switch (unit) {
    case 'duration':
      return duration(x);
    case 'share':
      return share(x);
    case 'multiple':
      return `${decimals(x, x >= 10 ? 1 : 2)}x`;
    case 'rate':
      return `${grouped(x)}/s`;
    case 'count':
      return grouped(x);
    case 'slot-seconds':
      return x >= 3600 ? `${decimals(x / 3600, 1)} slot-h` : `${decimals(x, 0)} slot-s`;
    case 'bytes':
      return bytes(x);
    case 'number':
      return decimals(x, 2);
  }
}

/** "lo–hi" in the unit, for an interval. */
export function formatInterval(unit: Unit, lo: number | null, hi: number | null): string | null {
  if (lo === null || hi === null) return null;
  return `${formatValue(unit, lo)}–${formatValue(unit, hi)}`;
}

/** How many of `runs` seeds a fraction of seeds is (a fraction across seeds is k / runs). */
export function seedCount(fraction: number, runs: number): number {
  return Math.round(fraction * runs);
}

/** A fraction of seeds in words: "yes"/"no" for one run, "2 of 3 seeds" for several, "—" when unknown. */
export function seedsText(fraction: number | null, runs: number): string {
  if (fraction === null) return '—';
  if (runs <= 1) return fraction >= 1 ? 'yes' : 'no';
  return `${seedCount(fraction, runs)} of ${runs} seeds`;
}
