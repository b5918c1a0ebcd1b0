// The bundle's loader (src/cli/code-cache.ts, compiled: what the bundle's entries import) on
// small CommonJS files, each load in a process of its own as the CLI's are (within one
// process V8 keeps what it compiled, and would never look at a cache file): a cache is
// written, then taken; a damaged one is refused and replaced; an edited file of the same
// length is never offered its predecessor's cache; labels keep separate caches. V8 says
// whether it took a cache (vm.Script's cachedDataRejected): these are V8's answers, not ours.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';

interface Loaded { cache: string; cacheFile: string; version: number; where: string; sum: number }

/** Loads `file` with the cache in a new node process; `write` then writes the cache (as the CLI does at exit). */
function load(file: string, { label = '', write = false } = {}): Loaded {
  const loader = pathToFileURL(join(ROOT, 'dist/src/cli/code-cache.js')).href;
  const script = `import { loadWithCodeCache } from ${JSON.stringify(loader)};
const m = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(label)});
if (${write}) m.writeCache();
console.log(JSON.stringify({ cache: m.cache, cacheFile: m.cacheFile, version: m.exports.version, where: m.exports.where, sum: m.exports.sum(100) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Loaded;
}

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-code-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CommonJS file with a function worth compiling, which uses require and __dirname as a bundle does. */
function source(version: number): string {
  return [
    "const { join } = require('node:path');",
    `exports.version = ${version};`,
    'exports.where = join(__dirname, "x");',
    'exports.sum = function sum(n) { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };',
  ].join('\n');
}

const caches = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache')).sort();

describe('loadWithCodeCache', () => {
  it('runs the file as a CommonJS module, writes a cache when there is none, and V8 takes it the next time', () => {
    const file = join(dir, 'a.cjs');
    writeFileSync(file, source(1));
    const first = load(file, { write: true });
    expect(first).toMatchObject({ cache: 'absent', version: 1, where: join(dir, 'x'), sum: 5050 });
    expect(existsSync(first.cacheFile)).toBe(true);
    const second = load(file, { write: true });
    expect(second).toMatchObject({ cache: 'used', cacheFile: first.cacheFile, version: 1, sum: 5050 });
    // A process that used the cache leaves it as it is; no partial file is left behind.
    expect(caches().filter((f) => f.startsWith('a.cjs.'))).toEqual([first.cacheFile.slice(dir.length + 1)]);
    expect(readdirSync(dir).filter((f) => f.startsWith('a.cjs.') && !f.endsWith('.v8cache'))).toEqual([]);
  });

  it('refuses a damaged cache, runs the file all the same, and replaces the cache', () => {
    const file = join(dir, 'b.cjs');
    writeFileSync(file, source(2));
    const made = load(file, { write: true });
    writeFileSync(made.cacheFile, Buffer.alloc(4096, 7));
    expect(load(file, { write: true })).toMatchObject({ cache: 'rejected', version: 2, sum: 5050 });
    expect(load(file).cache).toBe('used');
  });

  it('never offers a cache to an edited file, even of the same length (V8 checks only the length)', () => {
    const file = join(dir, 'c.cjs');
    writeFileSync(file, source(3));
    load(file, { write: true });
    writeFileSync(file, source(4)); // the same length: one digit changed
    expect(load(file)).toMatchObject({ cache: 'absent', version: 4 });
  });

  it('keeps one cache per label (what one command compiled is not what another does)', () => {
    const file = join(dir, 'd.cjs');
    writeFileSync(file, source(5));
    const run = load(file, { label: 'run', write: true });
    expect(run.cacheFile).toMatch(/d\.cjs\.[0-9a-f]{16}\.run\.v8cache$/);
    expect(load(file, { label: 'validate' }).cache).toBe('absent');
    expect(load(file, { label: 'run' }).cache).toBe('used');
  });
});
