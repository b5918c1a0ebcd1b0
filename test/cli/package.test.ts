// What `npm publish` would ship, read from `npm pack --dry-run --json`: the license, the
// compiled CLI with every module it needs, the docs and scenarios, and nothing stray (no
// source maps pointing at a src/ that is not shipped, no tests, no compiled file whose
// source is gone, no development entry).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';

let shipped: string[];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

beforeAll(() => {
  ensureBuilt();
  // --ignore-scripts: the build is already there; prepare would rebuild it.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  shipped = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path).sort();
});

describe('the package', () => {
  it('ships the license package.json declares, and only the folders a user needs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect([...new Set(shipped.map((f) => f.split('/')[0]))].sort()).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'package.json', 'scenarios']);
  });

  it('ships no source maps (their sources, src/, are not shipped), no code caches and no tests', () => {
    expect(shipped.filter((f) => f.endsWith('.map'))).toEqual([]);
    // Written beside the bundle by the processes that run it (src/cli/code-cache.ts): this machine's V8's, no one else's.
    expect(shipped.filter((f) => f.endsWith('.v8cache'))).toEqual([]);
    expect(shipped.filter((f) => /(^|\/)test\/|\.test\.|\.tmp$/.test(f))).toEqual([]);
  });

  it('ships a compiled module for every source module, and none whose source is gone', () => {
    const sources = walk(join(ROOT, 'src')).filter((f) => f.endsWith('.ts')).map((f) => `dist/src/${relative(join(ROOT, 'src'), f).replace(/\.ts$/, '.js')}`);
    const compiled = shipped.filter((f) => f.startsWith('dist/src/'));
    const stale = compiled.filter((f) => !sources.includes(f));
    expect(stale, 'compiled files without a source: rm -rf dist && npm run build').toEqual([]);
    expect(sources.filter((f) => !compiled.includes(f))).toEqual(['dist/src/cli/dev.js']); // the tsx entry for development
  });

  it('ships every module the CLI and its worker threads import (the bundle, scripts/bundle.mjs)', () => {
    const missing: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (!shipped.includes(file)) missing.push(file);
      if (!existsSync(join(ROOT, file))) return;
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*(['"])(\.[^'"]+)\1/g)) visit(join(file, '..', m[2]));
      // An entry of the bundle loads its bundled file by URL (scripts/bundle.mjs).
      for (const m of text.matchAll(/new URL\((['"])(\.[^'"]+\.cjs)\1, import\.meta\.url\)/g)) visit(join(file, '..', m[2]));
    };
    // bin/retrystorm.js picks its entry at run time (the bundle, or dist/src after a bare
    // tsc -b or with RETRYSTORM_DEBUG), and the pool starts the worker by its path
    // (src/experiment/pool.ts): entries no import names.
    for (const entry of ['bin/retrystorm.js', 'dist/bundle/cli/main.js', 'dist/bundle/experiment/worker.js', 'dist/src/cli/main.js']) visit(entry);
    expect([...seen].filter((f) => f.startsWith('dist/bundle/')).sort()).toEqual(['dist/bundle/cli/main.cjs', 'dist/bundle/cli/main.js', 'dist/bundle/experiment/worker.cjs', 'dist/bundle/experiment/worker.js']);
    expect([...seen].filter((f) => f.startsWith('dist/src/')).length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('the version in the code is the version in package.json', () => {
    expect(TOOL_VERSION).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
