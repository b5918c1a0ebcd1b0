// The command line's habits a user of kubectl, helm or k6 expects (issue 40): Examples in every
// --help, --json on run and validate, a --version that tells builds apart, and colour that
// only a terminal gets (NO_COLOR and FORCE_COLOR obeyed). Each as a process, as users meet it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';
import { SUMMARY_FORMAT } from '../../src/results/results.js';
import { RUNS_FORMAT } from '../../src/experiment/runs-json.js';
import { colourFor, renderLine, styled } from '../../src/cli/colour.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-habits-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A small world, two variants and two seeds: one expectation passes, one fails. */
const SMALL = `name: small
horizon: 3m
seeds: 2
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 3, timeout: 1s }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 20ms }
faults:
  - { kind: dependency-down, at: 1m, duration: 30s }
variants:
  retries: {}
  no-retries:
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
expectations:
  - { variant: retries, successRatio: { atLeast: 0.5 } }
  - { variant: no-retries, successRatio: { atLeast: 0.99 } }
`;
const BAD = 'name: bad\nhorizon: 10 minutes\nclients: {}\n';

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The CLI under a pseudo-terminal (util-linux `script`), so that its stdout is a TTY. */
function onTerminal(args: string[], env: Record<string, string | undefined>): { code: number | null; out: string } {
  const line = [process.execPath, join(ROOT, 'bin/retrystorm.js'), ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.FORCE_COLOR;
  delete base.NO_COLOR;
  const r = spawnSync('script', ['-qec', line, '/dev/null'], { cwd: dir, env: { ...base, ...env, TERM: 'xterm' }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout };
}

const ESC = '\u001b[';

describe('--help', () => {
  it.each(['run', 'merge', 'report', 'diff', 'edge', 'calibrate', 'validate', 'schema'])('%s --help has an Examples section with the command in use', async (command) => {
    const r = await runCliProcess(dir, [command, '--help']);
    expect(r.code, r.stderr).toBe(0);
    const examples = r.stdout.split('Examples:\n')[1];
    expect(examples, r.stdout).toBeDefined();
    expect(examples).toMatch(new RegExp(`^ {2}(\\S+ \\| )?retrystorm ${command}\\b`, 'm'));
  });

  it('the help of retrystorm itself has examples too', async () => {
    const r = await runCliProcess(dir, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nExamples:\n {2}retrystorm run scenarios\/retry-storm\.yaml/);
  });
});

describe('--version', () => {
  it('prints the version alone on the first line, then the formats written, Node.js and the commit built from', async () => {
    const r = await runCliProcess(dir, ['--version']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([TOOL_VERSION, `summary.json format: ${SUMMARY_FORMAT}`, `runs.json format: ${RUNS_FORMAT}`, `node: ${process.version}`]);
    // This checkout was built by `npm run build`, which records its commit.
    const info = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/build-info.json'), 'utf8')) as { commit?: string; dirty?: boolean };
    expect(info.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(lines.slice(4)).toEqual([`commit: ${info.commit}${info.dirty ? ' (with uncommitted changes)' : ''}`]);
  });

  it('leaves the commit out, and still exits 0, where the build recorded none', () => {
    // A copy of the package without the bundle and its record: the compiled modules run.
    const pkg = join(dir, 'no-record');
    cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'dist/src'), join(pkg, 'dist/src'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    writeFileSync(join(pkg, 'dist/tsconfig.build.tsbuildinfo'), '{}');
    expect(existsSync(join(pkg, 'dist/bundle/build-info.json'))).toBe(false);
    const env = { ...process.env };
    delete env.RETRYSTORM_DEBUG;
    const r = spawnSync(process.execPath, [join(pkg, 'bin/retrystorm.js'), '--version'], { encoding: 'utf8', env, cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([TOOL_VERSION, `summary.json format: ${SUMMARY_FORMAT}`, `runs.json format: ${RUNS_FORMAT}`, `node: ${process.version}`]);
  });
});

describe('validate --json', () => {
  it('prints one JSON document with every file and every problem, and exits 2 when any file is invalid', async () => {
    const good = file('good.yaml', SMALL);
    const bad = file('bad.yaml', BAD);
    const r = await runCliProcess(dir, ['validate', good, bad, '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      format: 'retrystorm-validate/1',
      ok: false,
      files: [
        { file: good, ok: true, variants: ['retries', 'no-retries'], sweepPoints: 1 },
        { file: bad, ok: false, variants: null, sweepPoints: null },
      ],
      problems: [
        { file: bad, line: 2, col: 10, path: 'horizon', message: expect.stringMatching(/^"10 minutes" is not a duration/) },
        { file: bad, line: 3, col: 10, path: 'clients', message: expect.any(String) },
        { file: bad, line: 1, col: 1, path: 'server', message: 'missing required key "server"' },
      ].sort((a, b) => a.line - b.line || a.col - b.col),
      warnings: [],
    });
  });

  it('says ok: true and exits 0 when every file is valid', async () => {
    const r = await runCliProcess(dir, ['validate', file('good2.yaml', SMALL), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, problems: [] });
  });
});

describe('run --json', () => {
  it('prints the verdict, the expectations and the files written as one JSON document, with the exit code of the run', async () => {
    const out = join(dir, 'out-json');
    const r = await runCliProcess(dir, ['run', file('small.yaml', SMALL), '--out', out, '--workers', '1', '--json']);
    expect(r.code, r.stderr).toBe(1); // an expectation failed
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ format: 'retrystorm-run/1', ok: false, exitCode: 1, scenario: 'small', partial: false, runsPlanned: 4, runsFinished: 4, guards: [], failedRuns: [], out: 'out-json' });
    expect(typeof doc.verdict).toBe('string');
    expect(doc.expectations.map((e: { name: string; passed: boolean }) => [e.name, e.passed])).toEqual([
      ['retries: success at least 50%', true],
      ['no-retries: success at least 99%', false],
    ]);
    // What it says is what summary.json holds, and every file it names was written.
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(doc.expectations).toEqual(summary.expectations);
    // Paths relative to the working directory, where the folder is inside it.
    expect(doc.files).toContain('out-json/summary.json');
    for (const f of doc.files) expect(existsSync(join(dir, f)), f).toBe(true);
    // Progress and notes still go to stderr; stdout holds the document alone.
    expect(r.stderr).toMatch(/running 4 run\(s\)/);
  });
});

describe('colour', () => {
  it('colours nothing in a pipe: stdout is the plain text it always was', async () => {
    const good = file('plain.yaml', SMALL);
    const r = await runCliProcess(dir, ['validate', good]);
    expect(r.stdout).toBe(`${good}: ok (2 variant(s): retries, no-retries)\n`);
    const run = await runCliProcess(dir, ['run', file('small-plain.yaml', SMALL), '--out', join(dir, 'out-plain'), '--workers', '1', '--quiet']);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toMatch(/^small: 2 variant\(s\) x 2 seed\(s\)$/m);
    expect(run.stdout).toMatch(/^PASS {2}retries: success at least 50%/m);
    expect(run.stdout).toMatch(/^FAIL {2}no-retries: success at least 99%/m);
  });

  it('colours PASS, FAIL and the heading with FORCE_COLOR, even in a pipe', async () => {
    const r = await runCliProcess(dir, ['run', file('small-colour.yaml', SMALL), '--out', join(dir, 'out-colour'), '--workers', '1', '--quiet'], { FORCE_COLOR: '1' });
    expect(r.stdout).toContain(`${ESC}1msmall${ESC}22m: 2 variant(s)`);
    expect(r.stdout).toContain(`${ESC}32mPASS${ESC}39m  retries: success at least 50%`);
    expect(r.stdout).toContain(`${ESC}31mFAIL${ESC}39m  no-retries: success at least 99%`);
    const off = await runCliProcess(dir, ['validate', file('force0.yaml', SMALL)], { FORCE_COLOR: '0' });
    expect(off.stdout).not.toContain('\u001b');
  });

  it('colours on a terminal, and not with NO_COLOR or FORCE_COLOR=0 there', () => {
    const good = file('tty.yaml', SMALL);
    expect(onTerminal(['validate', good], {}).out).toContain(`: ${ESC}32mok${ESC}39m (2 variant(s)`);
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }]) {
      const r = onTerminal(['validate', good], env);
      expect(r.code, JSON.stringify(env)).toBe(0);
      expect(r.out, JSON.stringify(env)).toContain(': ok (2 variant(s)');
      expect(r.out, JSON.stringify(env)).not.toContain('\u001b');
    }
  });
});

describe('colour rules (colour.ts)', () => {
  it('FORCE_COLOR wins, then NO_COLOR, then TERM=dumb, then whether the stream is a terminal', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colourFor(tty, {})).toBe(true);
    expect(colourFor(pipe, {})).toBe(false);
    expect(colourFor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourFor(tty, { NO_COLOR: '' })).toBe(true); // no-color.org: present and not empty
    expect(colourFor(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourFor(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourFor(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colourFor(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourFor(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourFor(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('shows control characters of the text as escapes inside a coloured line: only its own codes colour', () => {
    expect(renderLine([styled('fail', 'FAIL'), '  x\u001b[32my'], true)).toBe(`${ESC}31mFAIL${ESC}39m  x\\u001b[32my`);
    expect(renderLine([styled('fail', 'FAIL'), '  x\u001b[32my'], false)).toBe('FAIL  x\\u001b[32my');
  });
});
