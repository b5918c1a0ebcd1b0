/**
 * The rate-limit stages' top consumers at the featured point (story 001: "identify which
 * users or IPs are constantly near their limits"), one row per variant and stage, from the
 * `rateLimits` summary.json carries (src/measures/top-consumers.ts). report.html and
 * summary.md both render these rows; a scenario without a rate-limit stage has none.
 */
import { formatValue } from '../measures/format.js';
import type { Results } from '../results/results.js';
import { atPoint } from './cells.js';

export interface TopConsumerRow {
  variant: string;
  /** "1: per client, shared store". */
  stage: string;
  checked: string;
  refused: string;
  /** The busiest keys by requests seen: "partner#0 2,341 (1,941 refused)". */
  bySeen: string[];
  /** The busiest by refusals, when they are not the same keys in the same order. */
  byRefused: string[] | null;
}

const count = (x: number) => formatValue('count', x);

export function topConsumerRows(r: Results, point: number): TopConsumerRow[] {
  return r.variants.flatMap((v) => {
    const p = atPoint(v, point);
    if (!p || p.runs === 0 || !p.rateLimits) return [];
    return p.rateLimits.map((s) => {
      const text = (k: { key: string; seen: number; refused: number }) => `${k.key} ${count(k.seen)} (${count(k.refused)} refused)`;
      const same = s.topByRefused.length === s.topBySeen.length && s.topByRefused.every((k, i) => k.key === s.topBySeen[i].key);
      return {
        variant: v.name,
        stage: `${s.stage + 1}: per ${s.key === 'global' ? 'server (global)' : s.key}, ${s.store} store`,
        checked: count(s.checked),
        refused: count(s.refused),
        bySeen: s.topBySeen.map(text),
        byRefused: same ? null : s.topByRefused.map(text),
      };
    });
  });
}
