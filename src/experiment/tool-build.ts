/**
 * Which build of retrystorm computed a set of runs: the version and a digest of the code.
 *
 * Why the version alone is not enough: runs are taken from earlier folders (`run --reuse`,
 * `diff` with a base folder) and shards are merged, on the promise that the same scenario
 * and seed give the same result. That holds for one build, not for one version number: two
 * checkouts of 0.1.0 on either side of a change to the model, or a cluster image rebuilt from
 * a newer commit while an array job was running, would mix results of different code without
 * a word. runs.json and the journal record this identity: merge refuses runs made by another
 * build, and `--reuse` and `diff` take none of them (a note says why).
 *
 * The digest is of the compiled code a run's result depends on: every module of the engine,
 * the model, the measures, the experiment and the scenario loader under dist/src, by path and
 * content (not the CLI or the report, which only present results). What a process runs (the
 * CLI and its worker threads from dist/bundle/, an installed package, a container image built
 * from the same commit) is that code, bundled from dist/src by the same `npm run build`. The
 * tests run the sources through tsx and take the digest of the dist/ beside them, which
 * `npm test` has just built from those sources; with no dist/ at all, the sources' own. A
 * change to any of those modules makes another build, even one that cannot change a result
 * (a comment): over-strict, never silently wrong. Computed
 * once, on the thread that writes or checks runs.json (about 150 files, a few milliseconds).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOL_VERSION } from './tool-version.js';

let cached: string | undefined;

/** "0.1.0+" and the first 12 hex digits of the code's sha256. */
export function toolBuild(): string {
  return (cached ??= `${TOOL_VERSION}+${codeDigest()}`);
}

/** The parts of src/ a run's result depends on. */
const RESULT_CODE = ['engine', 'model', 'measures', 'experiment', 'scenario'];

function codeDigest(): string {
  const here = fileURLToPath(import.meta.url);
  // The package: above src/experiment/tool-build.ts (tsx), dist/src/experiment/tool-build.js,
  // or a file of dist/bundle/ (each one folder below it, as here).
  const pkg = join(here, here.endsWith('.ts') ? '../../..' : '../../../..');
  const compiled = join(pkg, 'dist/src');
  const sources = join(pkg, 'src');
  const checkout = existsSync(join(sources, 'experiment/tool-build.ts'));
  const [root, ext] = existsSync(join(compiled, 'experiment/tool-build.js')) ? [compiled, '.js'] : [sources, '.ts'];
  const hash = createHash('sha256');
  for (const part of RESULT_CODE) {
    for (const file of modules(join(root, part), ext)) {
      const path = relative(root, file).replaceAll('\\', '/');
      // In a checkout, `tsc -b` leaves the output of a deleted source behind; nothing loads it,
      // so it is not part of the build (a clean clone of the same commit has the same digest).
      if (ext === '.js' && checkout && !existsSync(join(sources, path.replace(/\.js$/, '.ts')))) continue;
      hash.update(path).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 12);
}

/** Every file ending in `ext` under `dir` (declarations excluded), in a fixed order. */
function modules(dir: string, ext: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(ext) && !name.endsWith('.d.ts'))
    .sort()
    .map((name) => join(dir, name));
}
