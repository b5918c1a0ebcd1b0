/**
 * The import rules (.dependency-cruiser.cjs: layers that import only downward, no circles)
 * hold for the shipped code, and the same rules refuse a fixture in which the engine imports
 * the CLI: the check can fail, so its silence on src/ means something.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation { rule: { name: string }; from: string; to: string }

function cruise(cwd: string): Violation[] {
  const r = spawnSync(process.execPath, [CRUISE, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(r.stdout, r.stderr).not.toBe('');
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('import rules', () => {
  it('hold for src/: every layer imports downward, and no files import each other in a circle', () => {
    expect(cruise(ROOT).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('refuse an upward import (the engine importing the CLI)', () => {
    const found = cruise(join(ROOT, 'test/architecture/upward-import'));
    expect(found.map((v) => [v.rule.name, v.from, v.to])).toEqual([['engine-imports-downward', 'src/engine/clock.ts', 'src/cli/exit-codes.ts']]);
  });
});
