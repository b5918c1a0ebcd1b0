// Each story is a shipped scenario whose outcome a test checks (README, "The stories"): a
// scenario added to scenarios/ without a test under test/scenarios/ that loads it fails here.
// Most of those tests are in the slow suite (docs/testing.md); this check is in both.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Not a story: the benchmark's model (docs/benchmarks.md), checked by test/experiment/search and the engine tests. */
const NOT_STORIES = new Set(['reference-storm.yaml']);

const shipped = readdirSync('scenarios').filter((f) => f.endsWith('.yaml') && !NOT_STORIES.has(f)).sort();
const testFiles = readdirSync('test/scenarios').filter((f) => f.endsWith('.ts'));
const testText = testFiles.map((f) => readFileSync(join('test/scenarios', f), 'utf8'));

describe('every shipped story has an outcome test', () => {
  it('finds the stories', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(15);
  });

  it.each(shipped)('%s is loaded by a test in test/scenarios/', (file) => {
    const loaders = testFiles.filter((_, i) => testText[i].includes(`scenarios/${file}`) && /\.test\.ts$|fixture\.ts$/.test(testFiles[i]));
    expect(loaders, `no file in test/scenarios/ loads scenarios/${file}`).not.toEqual([]);
  });
});
