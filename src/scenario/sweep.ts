/**
 * Sweeps: one or two scenario parameters varied over a list or a range, to see where a
 * policy stops recovering (outage 1m..30m, load 0.5x..1.2x). A point sets the parameter in
 * the raw scenario before validation, so every point is checked like a whole scenario.
 * The special parameter `load` multiplies every population's arrival rates.
 */
import { parseDuration, parseRate } from './units.js';

import type { PathSegment } from './raw-path.js';
export type { PathSegment };

export interface SweepPoint {
  /** Position in the expansion (row-major over the parameters). */
  index: number;
  /** Parameter path (as written) → value (as written in the scenario, e.g. "10m", 0.8). */
  values: Record<string, string | number>;
}

export const LOAD_PARAMETER = 'load';

/** A fault's length as a swept or searched parameter ("faults[0].duration"; the index captured): what "recovers up to" and "outage" are said of. */
export const FAULT_LENGTH = /^faults\[(\d+)\]\.duration$/;

/** "faults[0].duration" → ['faults', 0, 'duration']; returns a message when unreadable. */
export function parsePath(text: string): PathSegment[] | string {
  const out: PathSegment[] = [];
  const re = /([A-Za-z0-9_$-]+)|\[(\d+)\]|(\.)/gy;
  let expectName = true;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < text.length) {
    const at = re.lastIndex;
    m = re.exec(text);
    if (!m) return `"${text}" is not a parameter path (unreadable at "${text.slice(at)}"); write e.g. faults[0].duration or clients.app.arrivals.rate`;
    if (m[1] !== undefined) {
      if (!expectName) return `"${text}" is not a parameter path: a "." is missing before "${m[1]}"`;
      out.push(m[1]);
      expectName = false;
    } else if (m[2] !== undefined) {
      out.push(Number(m[2]));
    } else {
      expectName = true;
    }
  }
  if (out.length === 0 || expectName) return `"${text}" is not a parameter path; write e.g. faults[0].duration`;
  return out;
}

/** The values of a range: `steps` evenly spaced values from `from` to `to`, keeping the unit of `from`. */
export function rangeValues(from: string | number, to: string | number, steps: number): Array<string | number> | string {
  const split = (v: string | number) => {
    if (typeof v === 'number') return { n: v, unit: '' };
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*([^\d\s].*)?$/.exec(v);
    return m ? { n: Number(m[1]), unit: (m[2] ?? '').trim() } : undefined;
  };
  const a = split(from), b = split(to);
  if (!a || !b) return 'range ends must be a number or a number with one unit, e.g. from: 1m, to: 30m';
  if (a.unit !== b.unit) return `range ends must use the same unit (got "${from}" and "${to}")`;
  if (steps < 2) return 'a range needs at least 2 steps';
  const out: Array<string | number> = [];
  for (let i = 0; i < steps; i++) {
    const v = Number((a.n + ((b.n - a.n) * i) / (steps - 1)).toPrecision(6));
    out.push(typeof from === 'number' && typeof to === 'number' ? v : `${v}${a.unit}`);
  }
  return out;
}

/** Cartesian product of the parameters' values, the first parameter varying slowest. */
export function sweepPoints(params: Array<{ parameter: string; values: Array<string | number> }>): SweepPoint[] {
  let points: Array<Record<string, string | number>> = [{}];
  for (const p of params) points = points.flatMap((pt) => p.values.map((v) => ({ ...pt, [p.parameter]: v })));
  return points.map((values, index) => ({ index, values }));
}

/** Whether two sweep values mean the same: "1m" and "60s" do, as do "100/min" and "100/min". */
export function sameValue(a: string | number, b: string | number): boolean {
  if (String(a) === String(b)) return true;
  for (const parse of [parseDuration, parseRate]) {
    const x = parse(a), y = parse(b);
    if (x.ok && y.ok) return Math.abs(x.value - y.value) <= 1e-9 * Math.max(1, Math.abs(x.value));
  }
  return typeof a === 'number' && typeof b === 'number' && a === b;
}
