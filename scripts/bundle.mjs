// The last step of `npm run build`: bundles what a CLI process and its worker threads load
// into dist/bundle/, from the modules tsc has just compiled into dist/src/.
//
// Why: a small `retrystorm run` loaded 322 ES modules on its main thread (178 of ours, 144 of
// zod, yaml, yargs and piscina) and 72 on each worker thread, and Node 20 resolves, reads and
// compiles each on its own. That was about a quarter of the CPU of such a run (1.04 s against
// 0.79 s bundled, whole process), paid by every command and by each of the test suite's ~85
// CLI processes. Each entry is now one CommonJS file, loaded through src/cli/code-cache.ts
// with V8's code cache, which Node 20 offers only to scripts (0.96 -> 0.82 s for a small run).
// docs/DESIGN.md ("The CLI runs from a bundle") has the reasons and what stays unbundled.
//
// The layout is load-bearing: every file is one folder below dist/bundle/ (cli/ and
// experiment/), as every module is one folder below dist/src/, so a path relative to a
// module's own URL (the worker's file, the package root) is the same from either. Each entry
// is a small ES module (`cli/main.js`, `experiment/worker.js`: what bin/retrystorm.js imports
// and what piscina starts) that loads its bundled `.cjs` through the cache.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist/bundle');
// Also removes the code caches of the previous bundle (each is named after its source's hash).
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/main.js', 'dist/src/experiment/worker.js'],
  outbase: 'dist/src',
  outdir,
  entryNames: '[dir]/[name]',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  // One file per entry: a script, which is what V8's code cache is for. The commands are still
  // imported when they run (src/cli/main.ts): esbuild keeps each one's initialisation lazy.
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // piscina starts its own worker file by path: it must stay a package of its own.
  external: ['piscina'],
  // The modules find files next to themselves through import.meta.url, which a CommonJS file
  // lacks: it is the bundled file's own URL, one folder below dist/bundle/ like the module's.
  define: { 'import.meta.url': '__bundleFileUrl' },
  banner: { js: "const __bundleFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});

// The entries. The loader is the compiled module of src/cli/code-cache.ts, beside the bundle
// in the package (dist/src/), not in it: it has to run before the bundle is compiled.
const header = '// Written by scripts/bundle.mjs: loads the bundled file through V8\'s code cache (src/cli/code-cache.ts).\n';
writeFileSync(join(outdir, 'cli/main.js'), `${header}import { loadWithCodeCache } from '../../src/cli/code-cache.js';

// A cache per command: each holds what its command compiles. A command missing from this list
// (the commands are src/cli/main.ts's) shares the cache 'other', and only loses some speed.
const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
const main = loadWithCodeCache(new URL('./main.cjs', import.meta.url), /^(run|diff|edge|merge|report|validate|schema)$/.test(command ?? '') ? command : 'other');
// At a successful exit, when the command has done all its work: the cache then holds every
// function it compiled (a refused command, exit 2, compiled only the way to its refusal).
process.once('exit', (code) => {
  if (code === 0) main.writeCache();
});
export const { runCli } = main.exports;
`);
writeFileSync(join(outdir, 'experiment/worker.js'), `${header}import { loadWithCodeCache } from '../../src/cli/code-cache.js';

const worker = loadWithCodeCache(new URL('./worker.cjs', import.meta.url));
const run = worker.exports.default;
let ran = false;
// After the first run, which compiled the simulation: piscina ends its threads without an exit event.
export default function runTask(task) {
  const result = run(task);
  if (!ran) {
    ran = true;
    worker.writeCache();
  }
  return result;
}
`);

// The commit this build was made from, for `retrystorm --version` (src/cli/version.ts): recorded
// when the package is built in a git checkout (a clone, an install from a git URL); left out,
// without a word, where there is no git or no checkout (a tarball unpacked elsewhere).
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
let buildInfo = {};
try {
  // The package's own checkout only: a package built inside another repository (its
  // node_modules) would otherwise record that repository's commit.
  const own = realpathSync(git('rev-parse', '--show-toplevel')) === realpathSync(root);
  const commit = own ? git('rev-parse', 'HEAD') : '';
  if (/^[0-9a-f]{40,64}$/.test(commit)) buildInfo = { commit, dirty: git('status', '--porcelain', '--untracked-files=no') !== '' };
} catch {
  // No git, or not a checkout: the version says no commit.
}
writeFileSync(join(outdir, 'build-info.json'), JSON.stringify(buildInfo) + '\n');
