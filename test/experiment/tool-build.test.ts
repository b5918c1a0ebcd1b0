// The build runs.json records (src/experiment/tool-build.ts): the version and a digest of the
// compiled code a result depends on. Two copies of dist/src, one with a byte changed in the
// model, one with a byte changed in the CLI: the first is another build, the second is not.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { toolBuild } from '../../src/experiment/tool-build.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';

let dir: string;

/**
 * The build a copy of dist/src reports, as a process running it would: an installed package
 * (dist/ alone), or with `checkout` a checkout (src/ beside it).
 */
function buildOf(name: string, edit?: { file: string; append: string }, checkout = false): string {
  const copy = join(dir, name, 'dist/src');
  cpSync(join(ROOT, 'dist/src'), copy, { recursive: true });
  if (checkout) cpSync(join(ROOT, 'src'), join(dir, name, 'src'), { recursive: true });
  if (edit) writeFileSync(join(copy, edit.file), (existsSync(join(copy, edit.file)) ? readFileSync(join(copy, edit.file), 'utf8') : '') + edit.append);
  const module = join(copy, 'experiment/tool-build.js');
  return execFileSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(module)}).then((m) => console.log(m.toolBuild()))`], { encoding: 'utf8' }).trim();
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-tool-build-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the build runs.json records', () => {
  it('is the version and 12 hex digits, the same in the tests as in the compiled CLI beside them', () => {
    expect(toolBuild()).toMatch(new RegExp(`^${TOOL_VERSION.replaceAll('.', '\\.')}\\+[0-9a-f]{12}$`));
    expect(buildOf('same')).toBe(toolBuild());
  });

  it('changes with any change to the code a result depends on, and not with the CLI or the report', () => {
    expect(buildOf('model', { file: 'model/simulate.js', append: '\n// changed\n' })).not.toBe(toolBuild());
    expect(buildOf('measures', { file: 'measures/registry.js', append: '\n// changed\n' })).not.toBe(toolBuild());
    expect(buildOf('cli', { file: 'cli/main.js', append: '\n// changed\n' })).toBe(toolBuild());
    expect(buildOf('report', { file: 'report/write.js', append: '\n// changed\n' })).toBe(toolBuild());
  });

  it('leaves out, in a checkout, a compiled module whose source is gone (what tsc -b leaves behind after a delete)', () => {
    const stale = { file: 'model/deleted-long-ago.js', append: 'export const x = 1;\n' };
    expect(buildOf('checkout', undefined, true)).toBe(toolBuild());
    expect(buildOf('stale-in-checkout', stale, true)).toBe(toolBuild());
    // An installed package has no sources to tell: whatever it ships is its build.
    expect(buildOf('stale-in-package', stale)).not.toBe(toolBuild());
  });
});
