// The last step of `npm run build`: bundles what a CLI process and its worker threads load
// into dist/bundle/, from the modules tsc has just compiled into dist/src/.
//
// Why: a small `retrystorm run` loaded 322 ES modules on its main thread (178 of ours, 144 of
// zod, yaml, yargs and piscina) and 72 on each worker thread, and Node 20 resolves, reads and
// compiles each on its own. That was about a quarter of the CPU of such a run (1.04 s against
// 0.79 s bundled, whole process), paid by every command and by each of the test suite's ~85
// CLI processes. Bundled, the main thread loads 24.
// docs/DESIGN.md ("The CLI runs from a bundle") has the reasons and what stays unbundled.
//
// The layout is load-bearing: every file is one folder below dist/bundle/ (entries in cli/
// and experiment/, shared code in chunks/), as every module is one folder below dist/src/,
// so a path relative to a module's own URL (the worker's file, the package root) is the
// same from either.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist/bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/main.js', 'dist/src/experiment/worker.js'],
  outbase: 'dist/src',
  outdir,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // Commands are imported when they run (src/cli/main.ts): each stays a chunk of its own.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // piscina starts its own worker file by path: it must stay a package of its own.
  external: ['piscina'],
  // CommonJS dependencies (seedrandom, yargs' helpers) call require, which an ES module lacks.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  // For RETRYSTORM_DEBUG's stack traces (bin/retrystorm.js enables source maps then).
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
