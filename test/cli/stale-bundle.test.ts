// bin/retrystorm.js runs the CLI's bundle (scripts/bundle.mjs) unless a bare `tsc -b` has
// compiled dist/src/ since it was made: then the bundle is yesterday's code, and the compiled
// modules run instead (and with RETRYSTORM_DEBUG, for their source maps). Tried on a copy of the package whose bundle entry is a marker, with
// the two files' modification times set, not waited for.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';

let pkg: string;
const BUILD_INFO = 'dist/tsconfig.build.tsbuildinfo';
const BUNDLE_ENTRY = 'dist/bundle/cli/main.js';

beforeAll(() => {
  ensureBuilt();
  pkg = mkdtempSync(join(tmpdir(), 'rs-stale-bundle-'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist/src'), join(pkg, 'dist/src'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  writeFileSync(join(pkg, BUILD_INFO), '{}');
  mkdirSync(join(pkg, 'dist/bundle/cli'), { recursive: true });
  writeFileSync(join(pkg, BUNDLE_ENTRY), "export async function runCli() { console.log('the bundle ran'); }\n");
});
afterAll(() => {
  if (pkg) rmSync(pkg, { recursive: true, force: true });
});

/** What the copy's `retrystorm --version` prints (RETRYSTORM_DEBUG unset unless `debug`). */
function version(debug = false): string {
  const env = { ...process.env };
  if (debug) env.RETRYSTORM_DEBUG = '1';
  else delete env.RETRYSTORM_DEBUG;
  // The first line: the version (the lines after it, src/cli/version.ts, are the build's details).
  return execFileSync(process.execPath, [join(pkg, 'bin/retrystorm.js'), '--version'], { encoding: 'utf8', env }).trim().split('\n')[0];
}

/** Sets the two files' modification times (seconds since the epoch) and runs `--version`. */
function versionWith(bundleAt: number, buildInfoAt: number): string {
  utimesSync(join(pkg, BUNDLE_ENTRY), bundleAt, bundleAt);
  utimesSync(join(pkg, BUILD_INFO), buildInfoAt, buildInfoAt);
  return version();
}

describe('bin/retrystorm.js', () => {
  it('runs the bundle when it was made after the last compile', () => {
    expect(versionWith(2_000_000_000, 1_900_000_000)).toBe('the bundle ran');
  });

  it('runs the compiled modules when tsc compiled after the bundle was made', () => {
    expect(versionWith(1_900_000_000, 2_000_000_000)).toBe(TOOL_VERSION);
  });

  it('runs the compiled modules with RETRYSTORM_DEBUG, whose source maps point a stack trace into the sources', () => {
    utimesSync(join(pkg, BUNDLE_ENTRY), 2_000_000_000, 2_000_000_000);
    utimesSync(join(pkg, BUILD_INFO), 1_900_000_000, 1_900_000_000);
    expect(version(true)).toBe(TOOL_VERSION);
  });

  it('runs the bundle when there is no build info (an installed package)', () => {
    rmSync(join(pkg, BUILD_INFO));
    expect(version()).toBe('the bundle ran');
  });
});
