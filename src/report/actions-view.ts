/**
 * The operator actions that took effect, as people read them: at one sweep point, per
 * variant, each action once (the seeds' runs usually agree; when an alert fires at
 * different times in different seeds, the earliest and latest are given), with what it did
 * and why it fired in words. The time-series markers and the report's actions table are
 * both made from these rows, so they cannot disagree.
 */
import type { Results } from '../results/results.js';
import { atPoint } from './cells.js';
import { formatDuration } from '../scenario/units.js';

type FiredAction = Results['variants'][number]['points'][number]['perSeed'][number]['actions'][number];

export interface ActionRow {
  variant: string;
  name: string;
  /** The effect's kind: block, scale, fallback, undo… */
  kind: string;
  /** Earliest and latest time it took effect over the seeds (s). */
  firstS: number;
  lastS: number;
  /** Seeds in whose run it took effect, of those run. */
  seeds: number;
  of: number;
  /** Why it fired, in words (from the first seed that has it). */
  why: string;
  /** Present when it changed nothing (an undo of an action that had not happened). */
  note?: string;
}

const time = formatDuration;

/** Why an action fired, in one phrase. */
export function triggerText(a: FiredAction): string {
  const t = a.trigger;
  switch (t.kind) {
    case 'at':
      return 'at a fixed time';
    case 'signal': {
      const cond = t.above !== undefined ? `above ${t.above}` : `below ${t.below}`;
      return `alert: ${t.signal} ${cond} for ${time(t.forS)} (checked every ${time(t.everyS)}), held at ${time(t.heldAtS)} (${Number(t.value.toPrecision(3))}); acted ${time(t.afterS)} later`;
    }
    case 'autoscaler':
      return `autoscaler: ${t.metric} was ${Number(t.value.toPrecision(3))} at ${time(t.decidedAtS)}${a.instances !== undefined ? `; ${a.instances} instance(s) after` : ''}`;
  }
}

/** Every action at sweep point `point`, by variant in scenario order, then by time. */
export function actionRows(r: Results, point: number): ActionRow[] {
  const out: ActionRow[] = [];
  for (const v of r.variants) {
    const p = atPoint(v, point);
    if (!p) continue;
    const byName = new Map<string, ActionRow>();
    for (const s of p.perSeed) {
      const seen = new Set<string>();
      for (const a of s.actions) {
        // An autoscaler decides many times: each decision is its own action.
        const key = a.trigger.kind === 'autoscaler' ? `${a.name}@${a.atS}` : a.name;
        const row = byName.get(key);
        if (!row) {
          byName.set(key, { variant: v.name, name: a.name, kind: a.kind, firstS: a.atS, lastS: a.atS, seeds: 1, of: p.perSeed.length, why: triggerText(a), ...(a.note ? { note: a.note } : {}) });
        } else {
          row.firstS = Math.min(row.firstS, a.atS);
          row.lastS = Math.max(row.lastS, a.atS);
          if (!seen.has(key)) row.seeds++;
        }
        seen.add(key);
      }
    }
    out.push(...[...byName.values()].sort((a, b) => a.firstS - b.firstS || a.name.localeCompare(b.name)));
  }
  return out;
}

/** When, in words: one time, or the range over the seeds. */
export function whenText(a: ActionRow): string {
  return a.firstS === a.lastS ? time(a.firstS) : `${time(a.firstS)} to ${time(a.lastS)}`;
}
