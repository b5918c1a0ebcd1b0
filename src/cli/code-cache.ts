/**
 * Loads one of the bundle's CommonJS files (dist/bundle/cli/main.cjs, experiment/worker.cjs)
 * with a V8 code cache beside it: the bytecode of the functions an earlier process compiled,
 * so that this one deserializes them instead of parsing and compiling its sources again.
 *
 * Why: every command, and each of the test suite's ~100 CLI processes, starts by compiling
 * the same 2 MB of JavaScript on its main thread and 0.3 MB on each worker thread. Node 20
 * has no compile cache for ES modules (module.enableCompileCache came with Node 22), but a
 * vm.Script takes V8's: a small `retrystorm run` went from 0.96 to 0.82 s of CPU (medians of
 * 10 pairs; docs/DESIGN.md, "The CLI runs from a bundle").
 *
 * Why it is safe: V8 checks a cache against its own version, the V8 flags and the source's
 * length, and rejects it on any mismatch (this module then compiles from source as usual
 * and writes a new cache). The source's length alone could match an edited file, so the
 * cache's name carries a hash of the source: a cache is only ever offered to the very source
 * it was made from. Bytecode is what the source compiles to, so a run gives the same bytes
 * with or without it. A cache that cannot be written (a read-only install) is skipped.
 */
// V8 rejects a cache made under other flags: the inlining budget the simulation sets (see
// inlining.ts) must already be set when a script is compiled, in every thread, so that the
// cache written after a run matches the next process's flags.
import '../engine/inlining.js';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

// V8 drops the bytecode of functions that have not run for a few garbage collections, so a
// cache written at the end of a long run (the flagship: minutes) lacked the start-up's
// functions, the ones a cache is for (0.97 MB against 1.49 MB after a small run). Kept, they
// cost a few MB; like the inlining budget, set before anything is compiled.
setFlagsFromString('--no-flush-bytecode');

export type CacheUse = 'used' | 'absent' | 'rejected';

export interface CachedModule {
  /** What the file's module.exports holds after it ran. */
  exports: Record<string, unknown>;
  /** Whether a cache was offered and V8 took it. */
  cache: CacheUse;
  /** The cache's file (beside the source, named after the source's hash). */
  cacheFile: string;
  /**
   * Writes the cache of what this process has compiled so far, when there was none to use
   * (absent or rejected). Call it late, after the work, so that the functions compiled on
   * the way are in it. Never throws.
   */
  writeCache(): void;
}

/**
 * Loads `file` (a CommonJS file) as Node would, through V8's code cache. A cache holds the
 * functions its writer compiled, so processes that do different work keep different caches:
 * `label` (a word) tells them apart, such as the CLI's command (`validate` compiles a fifth of
 * what `run` does, and a cache written by the first would leave the second compiling the rest).
 */
export function loadWithCodeCache(file: string | URL, label = ''): CachedModule {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  const source = readFileSync(path, 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const cacheFile = `${path}.${hash}${/^\w+$/.test(label) ? `.${label}` : ''}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: path,
    cachedData,
    // The bundle has no import() left (esbuild turned every one into a require), but an
    // import() in a vm.Script needs a loader: this one is the main context's, as in a module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache: CacheUse = cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as Record<string, unknown>, filename: path, id: path, loaded: false };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  module.loaded = true;
  return {
    exports: module.exports,
    cache,
    cacheFile,
    writeCache: () => {
      if (cache === 'used') return;
      // Written whole, then renamed: a process starting meanwhile reads the old file or the new one.
      const partial = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      try {
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        rmSync(partial, { force: true });
      }
    },
  };
}
