/**
 * The model's outputs pinned byte for byte: every shipped scenario, every variant, at its first
 * sweep point, seed 1, cut 10 minutes after its first fault ends (at least 20 minutes, at most
 * 30 and its horizon), gives a run record whose digest is the one
 * recorded in golden-records.json. A reshaping of the model (a class split, a step moved, a
 * path specialised) must leave these unchanged; a change that means to alter what the model
 * does updates the file in the same commit, so review sees which scenarios it moved:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/model/golden-records.test.ts
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import type { Scenario } from '../../src/scenario/schema.js';
import { recordDigest } from '../helpers/record-digest.js';

const GOLDEN = join(import.meta.dirname, 'golden-records.json');
/** Long enough to see the first fault and what follows it, short enough for the quick suite. */
function cutAt(s: Scenario): number {
  const first = s.faults.reduce((t, f) => Math.min(t, f.at + ('duration' in f && typeof f.duration === 'number' ? f.duration : 0)), Infinity);
  return Math.min(s.horizon, 30 * 60, Math.max(20 * 60, (Number.isFinite(first) ? first : 0) + 10 * 60));
}
const update = process.env.UPDATE_GOLDEN === '1';


const files = readdirSync('scenarios').filter((f) => f.endsWith('.yaml')).sort();
const digests: Record<string, string> = {};
const golden: Record<string, string> = existsSync(GOLDEN) ? JSON.parse(readFileSync(GOLDEN, 'utf8')) : {};

describe('the shipped scenarios\' run records, byte for byte (golden-records.json)', () => {
  for (const file of files) {
    it(file, () => {
      const loaded = loadScenarioFile(join('scenarios', file));
      const mine: Record<string, string> = {};
      for (const v of loaded.variants) mine[`${file} ${v.name}`] = recordDigest(simulate({ ...v.points[0], horizon: cutAt(v.points[0]) }, 1));
      Object.assign(digests, mine);
      const recorded = Object.fromEntries(Object.keys(mine).map((k) => [k, golden[k]]));
      if (!update) expect(mine, `${file}: the model's records changed (UPDATE_GOLDEN=1 if that is the point)`).toEqual(recorded);
    });
  }

  it('covers every shipped scenario and variant, and nothing else', () => {
    if (update) writeFileSync(GOLDEN, JSON.stringify(Object.fromEntries(Object.entries(digests).sort()), null, 2) + '\n');
    expect(Object.keys(digests).sort()).toEqual(Object.keys(update ? digests : golden).sort());
  });
});
