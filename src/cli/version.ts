/**
 * What `retrystorm --version` says: the version first, alone on its line (what a script
 * reads), then what else tells two installs apart: the formats of the files this build
 * writes (summary.json, runs.json), the Node.js it runs on, and the commit it was built from.
 *
 * The commit is recorded by `npm run build` (scripts/bundle.mjs writes dist/bundle/
 * build-info.json when the package is built in a git checkout, as an install from a git URL
 * is): read here from one small file, not by running git, which an installed package may not
 * have. Without the record (a tarball built elsewhere without git, the sources run through
 * tsx) the line is left out; nothing here can fail the command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOL_VERSION } from '../experiment/tool-version.js';

/** What scripts/bundle.mjs records of the checkout a build was made from. */
interface BuildInfo {
  commit?: string;
  /** Files tracked by git were changed since that commit when it was built. */
  dirty?: boolean;
}

function buildInfo(): BuildInfo {
  try {
    const here = fileURLToPath(import.meta.url);
    // The package: above src/cli/version.ts (tsx), dist/src/cli/version.js, or dist/bundle/cli/main.cjs.
    const pkg = join(here, here.endsWith('.ts') ? '../../..' : '../../../..');
    const info = JSON.parse(readFileSync(join(pkg, 'dist/bundle/build-info.json'), 'utf8')) as BuildInfo;
    return typeof info === 'object' && info !== null ? info : {};
  } catch {
    return {};
  }
}

export async function versionText(): Promise<string> {
  // Imported here, not at start-up: only --version needs the formats' modules.
  const [{ SUMMARY_FORMAT }, { RUNS_FORMAT }] = await Promise.all([import('../results/results.js'), import('../experiment/runs-json.js')]);
  const { commit, dirty } = buildInfo();
  const lines = [
    TOOL_VERSION,
    `summary.json format: ${SUMMARY_FORMAT}`,
    `runs.json format: ${RUNS_FORMAT}`,
    `node: ${process.version}`,
  ];
  if (typeof commit === 'string' && /^[0-9a-f]{7,64}$/.test(commit)) lines.push(`commit: ${commit}${dirty === true ? ' (with uncommitted changes)' : ''}`);
  return lines.join('\n');
}
