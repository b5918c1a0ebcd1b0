// A setting operator actions change and undo (src/model/overridable.ts): an undo takes out
// its own action's value only; a writer without undo (the autoscaler) supersedes them all.
import { describe, expect, it } from 'vitest';
import { Overridable } from '../../src/model/overridable.js';

function setting(base: number) {
  const applied: number[] = [];
  const s = new Overridable(base, (v) => applied.push(v));
  return { s, applied };
}

describe('Overridable', () => {
  it('keeps the latest action in force, and an undo takes out only its own value', () => {
    const { s, applied } = setting(1);
    const undoA = s.override(2);
    const undoB = s.override(4);
    undoA(); // b is still in force
    expect(s.value).toBe(4);
    undoB();
    expect(s.value).toBe(1);
    expect(applied).toEqual([2, 4, 4, 1]);
  });

  it('ignores an undo run twice', () => {
    const { s } = setting(1);
    const undoA = s.override(2);
    s.override(3);
    undoA();
    undoA();
    expect(s.value).toBe(3);
  });

  it('lets a writer without undo supersede every action before it: their undos change nothing', () => {
    const { s, applied } = setting(1);
    const undoA = s.override(2);
    s.set(5);
    undoA();
    expect(s.value).toBe(5);
    const undoB = s.override(8);
    undoB();
    expect(s.value).toBe(5);
    expect(applied).toEqual([2, 5, 8, 5]);
  });
});
