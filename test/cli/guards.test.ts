// The command line's guards and conventions, tried as a new user and as an adversary would:
// what is too large is refused up front with bounded memory (measured by the process
// itself), flags cannot ask for what a file may not, a closed pipe ends quietly, "-" reads
// standard input, and text from a scenario cannot drive the terminal.
import { spawnSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliInProcess } from '../helpers/cli.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the process, in MiB (reported by the process as it exits). */
  peakMiB: number;
}

let dir: string;
let rssCount = 0;

/** Runs the CLI with `input` on standard input, and reads back the peak RSS it reported. */
function cli(args: string[], input = ''): Result {
  const rssFile = join(dir, `rss-${rssCount++}`);
  const env: NodeJS.ProcessEnv = { ...process.env, RS_MAX_RSS_FILE: rssFile };
  delete env.RETRYSTORM_DEBUG;
  const r = spawnSync(process.execPath, ['--require', join(ROOT, 'test/helpers/report-max-rss.cjs'), join(ROOT, 'bin/retrystorm.js'), ...args], {
    cwd: dir, env, input, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 2 ** 20,
  });
  const peakMiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : NaN;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, peakMiB };
}

function expectClean(output: string): void {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/\b[A-Z]\w*Error\b|internal error/);
}

/** The refusal took no more memory than Node itself and a small file (the bound, generous, is 200 MiB). */
const BOUNDED_MIB = 200;

const BASE = [
  'name: t',
  'horizon: 2m',
  'clients:',
  '  app:',
  '    arrivals: { kind: constant, rate: 20/s }',
  '    retry: { maxAttempts: 2, timeout: 1s }',
  'server:',
  '  slots: 4',
  '  serviceTime: { kind: exponential, mean: 50ms }',
  'measures: { bucket: 10s, warmup: 10s, hold: 10s }',
].join('\n') + '\n';

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-cli-guards-'));
  writeFileSync(join(dir, 'base.yaml'), BASE);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('refused up front, within bounded memory', () => {
  it('validate /dev/zero', () => {
    const r = cli(['validate', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\/dev\/zero {2}is more than 1,048,576 bytes, above the limit of 1,048,576 bytes \(1 MiB\) for a scenario file/);
    expect(r.peakMiB).toBeLessThan(BOUNDED_MIB);
    expectClean(r.stderr);
  });

  it('a 50 MB description, by validate and by run', () => {
    writeFileSync(join(dir, 'huge.yaml'), BASE + 'description: "' + 'x'.repeat(50 * 2 ** 20) + '"\n');
    for (const args of [['validate', 'huge.yaml'], ['run', 'huge.yaml', '--out', 'huge-out']]) {
      const r = cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^huge\.yaml {2}is 52,4\d\d,\d{3} bytes, above the limit of 1,048,576 bytes/);
      expect(r.peakMiB).toBeLessThan(BOUNDED_MIB);
    }
    expect(existsSync(join(dir, 'huge-out'))).toBe(false);
  });

  it('nesting 10,000 deep, at its position, without a stack overflow', () => {
    writeFileSync(join(dir, 'deep.yaml'), BASE + 'description: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n');
    const r = cli(['validate', 'deep.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('deep.yaml:11:77  nested more than 64 levels deep (the limit); a scenario nests about 10: look for unclosed or repeated brackets, or indentation that keeps growing');
    expectClean(r.stderr);
  });

  it.each([
    ['10,000 sweep values', `sweep:\n  - { parameter: server.slots, values: [${Array.from({ length: 10_000 }, (_, i) => i + 1).join(', ')}] }\n`, /sweep\[0\]\.values: at most 1,000 values in one sweep/],
    ['two sweeps of 1,000 steps', 'sweep:\n  - { parameter: server.slots, range: { from: 1, to: 1000, steps: 1000 } }\n  - { parameter: horizon, range: { from: 2m, to: 20m, steps: 1000 } }\n', /sweep: 1,000 x 1,000 = 1,000,000 sweep points is above the limit of 1,000/],
    ['10,000 variants x 10,000 seeds', 'seeds: 10000\nvariants:\n' + Array.from({ length: 10_000 }, (_, i) => `  v${i}: {}`).join('\n') + '\n', /variants: 10,000 variants is above the limit of 1,000/],
    ['1ms buckets over 200s x 16 seeds', 'seeds: 16\n', /measures\.bucket: 16 runs x 200,000 buckets = 3,200,000 buckets of results held in memory, above the limit of 1,000,000/],
  ])('%s', (name, extra, says) => {
    const text = name.startsWith('1ms') ? BASE.replace('horizon: 2m', 'horizon: 200s').replace('bucket: 10s', 'bucket: 1ms') + extra : BASE + extra;
    const file = `${name.replace(/\W+/g, '-')}.yaml`;
    writeFileSync(join(dir, file), text);
    const r = cli(['run', file, '--out', 'never']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(says);
    expect(r.stderr).toMatch(/nothing was run/);
    expect(r.peakMiB).toBeLessThan(BOUNDED_MIB);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

describe('flags follow the file\'s rules', () => {
  it.each([
    [['--seeds', '20000'], /^retrystorm: --seeds 20,000 is above the limit of 10,000 seeds per variant/],
    [['--seed', '1e300', '--seeds', '3'], /^retrystorm: --seed must be a whole number from 0 to 2147483648, like a scenario's seed \(got 1e\+300\)$/],
    [['--seed', '1.5'], /^retrystorm: --seed must be a whole number/],
  ])('run %j is refused before any run', async (flags, says) => {
    // The first as a process; the others are the same path (a flag's check in runCommand,
    // before any run, printed by execute), run through it in this process.
    const args = ['run', join(dir, 'base.yaml'), '--out', join(dir, 'never'), ...flags];
    const r = flags[1] === '20000' ? cli(args) : await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(says);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('--seeds within the seed limit is still refused when the results would not fit in memory', async () => {
    // In this process: refused by the same check before any run as the limits above (each a process).
    writeFileSync(join(dir, 'fine.yaml'), BASE.replace('bucket: 10s', 'bucket: 1s'));
    const r = await runCliInProcess(['run', join(dir, 'fine.yaml'), '--out', join(dir, 'never'), '--seeds', '10000']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('retrystorm: 10,000 runs x 120 buckets (with --seeds) = 1,200,000 buckets of results held in memory, above the limit of 1,000,000 (about 3 kB each while the outputs are written); use a wider measures.bucket, or fewer seeds, variants or sweep points');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('--workers above the cores is capped, with a note, unless --force-workers', () => {
    const cores = availableParallelism();
    const r = cli(['run', 'base.yaml', '--out', 'w-out', '--seeds', String(cores + 2), '--workers', String(cores + 50)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`note: --workers ${cores + 50} is more than the ${cores} core(s) here: using ${cores} (--force-workers to use ${cores + 50} anyway)`);
    expect(r.stderr).toContain(`running ${cores + 2} run(s) on ${cores} worker(s)`);
    const forced = cli(['run', 'base.yaml', '--out', 'w-out2', '--seeds', String(cores + 2), '--workers', String(cores + 1), '--force-workers']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`running ${cores + 2} run(s) on ${cores + 1} worker(s)`);
  });
});

describe('conventions', () => {
  it('--version prints the version of package.json (alone on its first line: details follow)', () => {
    const r = cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(TOOL_VERSION);
    expect(TOOL_VERSION).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  function pipeToHead(command: string): { code: number | null; stdout: string; stderr: string } {
    const errFile = join(dir, `err-${rssCount++}`);
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${join(ROOT, 'bin/retrystorm.js')}" ${command} 2>"${errFile}" | head -c 10`], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: readFileSync(errFile, 'utf8') };
  }

  it('`schema | head -c 10` ends quietly with success, and no stack trace', () => {
    const r = pipeToHead('schema');
    expect(r.stdout).toBe('{\n  "$sche');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('`run ... | head -c 10` ends quietly, keeping the run\'s outputs and exit code', () => {
    const r = pipeToHead('run base.yaml --quiet --out piped');
    expect(r.stdout).toBe('t: 1 varia');
    expectClean(r.stderr);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'piped', 'summary.json'))).toBe(true);
  });

  it('"-" reads the scenario from standard input, for validate and run', () => {
    const ok = cli(['validate', '-'], BASE);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('<stdin>: ok (1 variant(s): base)\n');
    const bad = cli(['validate', '-'], BASE.replace('slots: 4', 'slots: four'));
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('<stdin>:8:10  server.slots: expected a whole number (concurrency slots)');
    const run = cli(['run', '-', '--quiet', '--out', 'from-stdin'], BASE);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'from-stdin', 'scenario.yaml'), 'utf8')).toBe(BASE);
  });

  it('"-" with nothing on standard input is refused, not a silent pass; "-" twice is refused', () => {
    const empty = cli(['validate', '-']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^<stdin>:1:1 {2}a scenario is a mapping of keys/);
    const twice = cli(['validate', '-', '-'], BASE);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^retrystorm: "-" \(standard input\) can be read once: name it once/);
  });

  it('escapes control characters from a scenario (ESC, OSC, BEL) in what it prints', () => {
    const evil = BASE.replace('name: t', 'name: t\nquestion: "\\e]0;owned\\a\\e[31mred\\r"') + 'variants:\n  ok: {}\n  "\\e[2Jwipe": {}\n';
    const r = cli(['validate', '-'], evil);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('variants.\\u001b[2Jwipe: invalid key "\\u001b[2Jwipe"');
    expect(r.stderr + r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const question = cli(['run', '-', '--out', 'evil'], evil.replace(/variants:[\s\S]*$/, ''));
    expect(question.code, question.stderr).toBe(0);
    expect(question.stdout).toContain('\\u001b]0;owned\\u0007\\u001b[31mred');
    expect(question.stdout + question.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('prints an estimate of time and memory before a large experiment starts, on the line before "running"', async () => {
    // One run of 1.8e9 user actions: the estimate (minutes) is printed, then the run is stopped.
    const { spawn } = await import('node:child_process');
    const big = BASE.replace('rate: 20/s', 'rate: 1000000/s').replace('horizon: 2m', 'horizon: 30m');
    const lines = await new Promise<string[]>((done, fail) => {
      const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'run', '-', '--out', 'estimated', '--workers', '1'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      const guard = setTimeout(() => { p.kill('SIGKILL'); fail(new Error(`no "running" line: ${err}`)); }, 120_000);
      p.stderr.on('data', (d) => {
        err += d;
        if (/^running /m.test(err)) p.kill('SIGTERM');
      });
      p.on('close', () => { clearTimeout(guard); done(err.split('\n')); });
      p.stdin.end(big);
    });
    const at = lines.findIndex((l) => l.startsWith('running 1 run(s) on 1 worker(s)'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toMatch(/^estimate: 1 run\(s\), about 1\.8e9 user actions: at least 20m on 1 worker\(s\) \(at 1\.5M attempts\/s per worker, more when clients retry\); results about \d+ MB in memory \(180 buckets\)$/);
  });
});
