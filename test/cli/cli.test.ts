import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCliInProcess } from '../helpers/cli.js';
import { NUMBER_OPTIONS, OPTIONS } from '../../src/cli/main.js';

// The CLI as users meet it: `node bin/retrystorm.js ...`, from the compiled dist/ (`npm test` builds first).
const ROOT = resolve(import.meta.dirname, '../..');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Result {
  const env = { ...process.env };
  delete env.RETRYSTORM_DEBUG; // a user error must not need it to read well, nor show a stack without it
  // maxBuffer: `retrystorm schema` prints about 1 MB (spawnSync's default limit), and a
  // pipe to a file has no limit at all; 64 MiB still guards against a runaway output.
  const r = spawnSync(process.execPath, ['bin/retrystorm.js', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/\b[A-Z]\w*Error\b/); // ZodError, TypeError, YAMLParseError, ScenarioError…
  expect(output).not.toMatch(/internal error/);
}

let dir: string;
function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(tmpdir() + '/rs-');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const BASE = [
  'name: t', //                                        1
  'horizon: 10m', //                                   2
  'clients:', //                                       3
  '  app:', //                                         4
  '    clients: 100', //                               5
  '    arrivals: { kind: constant, rate: 50/s }', //   6
  '    retry:', //                                     7
  '      maxAttempts: 4', //                           8
  '      timeout: 1s', //                              9
  'server:', //                                       10
  '  slots: 10', //                                   11
  '  serviceTime:', //                                12
  '    kind: exponential', //                         13
  '    mean: 20ms', //                                14
];
const scenario = (replace: Record<number, string>) => BASE.map((line, i) => replace[i + 1] ?? line).join('\n') + '\n';

const BAD: { name: string; text: string; at: string; path: string; says: RegExp }[] = [
  { name: 'malformed-yaml', text: scenario({ 6: '    arrivals: { kind: constant, rate: 50/s' }), at: '6:15', path: '', says: /YAML: .*end with a \}/ },
  { name: 'bad-indent', text: scenario({ 9: '     timeout: 1s' }), at: '9:1', path: '', says: /YAML: All mapping items must start at the same column/ },
  { name: 'deep-wrong-type', text: scenario({ 8: '      maxAttempts: "four"' }), at: '8:20', path: 'clients.app.retry.maxAttempts', says: /expected a whole number/ },
  { name: 'unknown-key', text: scenario({ 7: '    retires:' }), at: '7:5', path: 'clients.app.retires', says: /did you mean "retry"\?/ },
  { name: 'negative-duration', text: scenario({ 9: '      timeout: -5s' }), at: '9:16', path: 'clients.app.retry.timeout', says: /cannot be negative/ },
  { name: 'rate-without-unit', text: scenario({ 6: '    arrivals: { kind: constant, rate: 800 }' }), at: '6:39', path: 'clients.app.arrivals.rate', says: /needs a unit/ },
  { name: 'too-many-clients', text: scenario({ 5: '    clients: 1000000000000' }), at: '5:14', path: 'clients.app.clients', says: /at most 10,000,000 clients/ },
  { name: 'century-horizon', text: scenario({ 2: 'horizon: 876000h' }), at: '2:10', path: 'horizon', says: /beyond the limit of 30d/ },
];

/**
 * One `validate` of every bad file: validate checks each file it is given and reports each
 * file's problems under its own name, so each case below reads its lines from this one
 * process instead of starting its own (about 0.8 s of CPU each); `run` takes one file, so
 * each case still runs its own.
 */
let everyBadFile: Result | undefined;
function validateEveryBadFile(): Result {
  if (!everyBadFile) {
    everyBadFile = cli('validate', ...BAD.map((b) => write(`${b.name}.yaml`, b.text)));
    expect(everyBadFile.stderr).toMatch(new RegExp(`${BAD.length} of ${BAD.length} file\\(s\\) invalid`));
  }
  return everyBadFile;
}

describe.each(BAD.map((b, i) => ({ ...b, process: i === 0 })))('bad input: $name', ({ name, text, at, path, says, process: asProcess }) => {
  function expectReported(r: Result, file: string): void {
    expect(r.code, r.stderr).toBe(2);
    const where = path ? `${file}:${at}  ${path}: ` : `${file}:${at}  `;
    const line = r.stderr.split('\n').find((l) => l.startsWith(where));
    expect(line, `no line starting with "${where}" in:\n${r.stderr}`).toBeDefined();
    expect(line).toMatch(says);
    expectNoStackTrace(r.stderr + r.stdout);
  }

  it('validate exits 2 and names file:line:col, path and problem', () => {
    const file = write(`${name}.yaml`, text);
    const r = validateEveryBadFile();
    expectReported(r, file);
  });

  // The first case as a process (exit code, stderr, no folder), the others through the same
  // function in this process: \`run\` loads a file as \`validate\` does, and the process above
  // showed every case's report already; what is checked here is that run refuses with it.
  it(`run exits 2 with the same report and writes nothing${asProcess ? ' (as a process)' : ''}`, async () => {
    const file = write(`${name}.yaml`, text);
    const out = join(dir, `out-${name}`);
    const args = ['run', file, '--out', out, '--quiet'];
    const r = asProcess ? cli(...args) : await runCliInProcess(args);
    expectReported(r, file);
    expect(r.stderr).toMatch(/nothing was run/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('output to a full disk (issue 39: a stack trace)', () => {
  it('says so in one line on stderr and exits 73 when standard output cannot be written', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['validate', 'scenarios/reference-storm.yaml'], ['schema']]) {
        const r = spawnSync(process.execPath, ['bin/retrystorm.js', ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', full, 'pipe'], timeout: 60_000 });
        expect(r.status, args.join(' ')).toBe(73);
        expect(r.stderr).toBe('retrystorm: cannot write to standard output (ENOSPC); is the disk behind it full?\n');
      }
    } finally {
      closeSync(full);
    }
  });
});

describe('validate', () => {
  it('exits 0 on a valid file and lists its variants', () => {
    const r = cli('validate', 'scenarios/reference-storm.yaml');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('scenarios/reference-storm.yaml: ok (2 variant(s): retries, no-retries)');
    expect(r.stderr).toBe('');
  });

  it('checks every file and exits 2 when any is invalid', () => {
    const bad = write('several.yaml', scenario({ 6: '    arrivals: { kind: constant, rate: 800 }', 7: '    retires:' }));
    const r = cli('validate', 'scenarios/reference-storm.yaml', bad);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('reference-storm.yaml: ok');
    const problems = r.stderr.split('\n').filter((l) => l.startsWith(bad));
    expect(problems.map((l) => l.slice(bad.length).split('  ')[0])).toEqual([':6:39', ':7:5']);
    expect(r.stderr).toContain('1 of 2 file(s) invalid');
  });
});

describe('schema', () => {
  it('prints a JSON Schema for scenario files', () => {
    const r = cli('schema');
    expect(r.code, r.stderr).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.clients).toBeDefined();
    expect(schema.properties.server).toBeDefined();
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'horizon', 'clients', 'server']));
  });
});

describe('usage errors', () => {
  it.each([
    [['frobnicate'], /^retrystorm: unknown command "frobnicate" \(commands: run, merge, report, diff, edge, calibrate, validate, schema\)$/],
    [['validate', 'scenarios/reference-storm.yaml', '--bogus'], /^retrystorm: unknown option --bogus \(options: --allow-outside, --json, --help, --version\)$/],
    [['run', 'scenarios/reference-storm.yaml', '--seedz', '3', '--seed-count=2'], /^retrystorm: unknown option --seedz \(did you mean --seed\?\); unknown option --seed-count \(options: --seed, --seeds, --out, /],
    [['run'], /^retrystorm: run: give a scenario file \(or - for standard input\), e\.g\. retrystorm run scenarios\/retry-storm\.yaml$/],
    [['run', 'scenarios/reference-storm.yaml', '--seed', '-1'], /^retrystorm: --seed must be a whole number/],
    // The extra argument named alone (both files were listed as "unexpected"), and an empty value said as one (it read "got 0").
    [['run', 'scenarios/reference-storm.yaml', 'other.yaml'], /^retrystorm: run takes one scenario file; left over: other\.yaml$/],
    [['diff', 'a', 'b', 'c'], /^retrystorm: diff takes two results folders or scenario files, the base then the head; left over: c$/],
    [['run', 'scenarios/reference-storm.yaml', '--seeds', ''], /^retrystorm: --seeds needs a value \(it was given an empty one\)$/],
    [['merge', 'package.json'], /^retrystorm: package\.json is a file, not a folder: a results folder is one written by "retrystorm run --out DIR"/],
    [['run', 'scenarios/reference-storm.yaml', '--progress-every', '25d'], /^retrystorm: --progress-every is at most 24d, the longest interval a timer can keep \(got "25d"\); --quiet prints no progress at all$/],
    [['run', 'scenarios/reference-storm.yaml', '--report-url', 'javascript:alert(1)'], /^retrystorm: --report-url must be an http\(s\) URL or a relative path, the report's place for summary\.md's link \(got "javascript:alert\(1\)"\)$/],
  ])('%j exits 2 with a one-line message and a pointer to --help', async (args, first) => {
    // The first as a process; the others are the same path (yargs' refusal or a flag's check,
    // thrown as a UsageError and printed by execute), run through it in this process.
    const r = args[0] === 'frobnicate' ? cli(...args) : await runCliInProcess(args.map((a) => (a.startsWith('scenarios/') ? join(ROOT, a) : a)));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(first);
    expect(lines.slice(1)).toEqual(['run "retrystorm --help" for usage']);
    expectNoStackTrace(r.stderr);
  });

  it('with no command at all, prints the help (its commands) and exits 0, as git and kubectl do (it exited 2)', () => {
    const r = cli();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Commands:$/m);
    for (const command of ['run', 'merge', 'report', 'diff', 'edge', 'validate', 'schema']) expect(r.stdout).toMatch(new RegExp(`^ {2}retrystorm ${command}\\b`, 'm'));
  });

  it.each(Object.keys(OPTIONS))('the option table of %s (did-you-mean, and which options take the next token) is what its --help declares', (command) => {
    // As a process: yargs prints help to the process's own stdout.
    const help = cli(command, '--help').stdout;
    // The Options section alone: the Examples after it use the options too.
    const options = help.slice(help.indexOf('Options:')).split('\nExamples:')[0];
    // One block per option: from its "--name" line to the next; its type is the first [type] in it.
    const blocks = options.split(/\n(?=  --)/).filter((b) => b.startsWith('  --'));
    const declared = { values: [] as string[], switches: [] as string[] };
    for (const b of blocks) {
      const name = /^  --(\S+)/.exec(b)![1];
      if (name === 'help' || name === 'version') continue;
      (/\[boolean\]/.test(b) ? declared.switches : declared.values).push(name);
      expect(NUMBER_OPTIONS.includes(name), `--${name} is a [number] option`).toBe(/\[number\]/.test(b));
    }
    expect({ values: [...declared.values].sort(), switches: [...declared.switches].sort() }).toEqual({ values: [...OPTIONS[command].values].sort(), switches: [...OPTIONS[command].switches].sort() });
  });

  it('a value option right before --help shows the help (it is not the missing value)', () => {
    const r = cli('run', 'scenarios/reference-storm.yaml', '--seeds', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--progress-every');
  });

  it.each([['merge'], ['validate']])('%s --help marks its files required, with no "[default: []]" beside it', (command) => {
    // As a process: yargs prints help to the process's own stdout.
    const r = cli(command, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[array\] \[required\]/);
    expect(r.stdout).not.toContain('[default: []]');
  });

  it('run on a missing file exits 2 saying "no such file"', async () => {
    // In this process: a ScenarioError printed by execute, as the bad-input process test shows.
    const missing = join(dir, 'nope.yaml');
    const r = await runCliInProcess(['run', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`${missing}  no such file`);
    expectNoStackTrace(r.stderr);
  });
});

describe('run', () => {
  const TINY = [
    'name: tiny',
    'horizon: 2m',
    'clients:',
    '  app:',
    '    arrivals: { kind: constant, rate: 50/s }',
    '    retry: { maxAttempts: 3 }',
    'server:',
    '  slots: 10',
    '  serviceTime: { kind: exponential, mean: 20ms }',
    'faults:',
    '  - kind: dependency-down',
    '    at: 30s',
    '    duration: 10s',
    'measures:',
    '  bucket: 5s',
    '  warmup: 10s',
    '  hold: 20s',
  ].join('\n');

  function runTiny(out: string, ...extra: string[]): Result {
    const file = join(dir, 'tiny.yaml');
    if (!existsSync(file)) writeFileSync(file, TINY);
    return cli('run', file, '--out', out, ...extra);
  }

  it('simulates a small scenario, prints the table and writes summary.json and timeseries.csv', () => {
    const out = join(dir, 'run-a');
    const r = runTiny(out);
    expect(r.code, r.stderr).toBe(0);
    expectNoStackTrace(r.stdout + r.stderr);
    expect(r.stdout).toMatch(/^tiny: 1 variant\(s\) x 1 seed\(s\); 2m simulated each/);
    expect(r.stdout).toMatch(/^variant\s+recovered\s+recovery time/m);
    expect(r.stdout).toMatch(/^base\s/m);

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.format).toBe('retrystorm-summary/4');
    expect(summary.variants).toHaveLength(1);
    expect(summary.variants[0].name).toBe('base');
    const m = summary.variants[0].points[0].measures;
    expect(m.recoveryTimeS.value === null || m.recoveryTimeS.value >= 0).toBe(true);
    expect(m.successRatio.value).toBeGreaterThan(0);
    expect(m.successRatio.value).toBeLessThan(1); // the dependency was down for 10 s
    expect(m.attempts.value).toBeGreaterThan(m.actionsStarted.value); // and clients retried

    const csv = readFileSync(join(out, 'timeseries.csv'), 'utf8').trimEnd().split('\n');
    const header = csv[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['t_s', 'attempts', 'retries', 'latency_p99_ms']));
    expect(csv.length - 1).toBe(120 / 5); // one row per 5 s bucket
    expect(csv.slice(1).every((row) => row.split(',').length === header.length)).toBe(true);
  });

  it('with seeds: auto, says the seeds each variant got; --shard is refused with one line, --seeds N runs N everywhere', () => {
    const file = join(dir, 'tiny-auto.yaml');
    writeFileSync(file, `${TINY}\nseeds: auto\nvariants:\n  three: {}\n  two: { overlay: { clients: { app: { retry: { maxAttempts: 2 } } } } }\n`);
    const out = join(dir, 'run-auto');
    const r = cli('run', file, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^tiny: 2 variant\(s\) x \d+( to \d+)? seed\(s\) \(seeds: auto\);/);
    expect(r.stdout).toMatch(/^seeds: \d+( to \d+)? per variant and point \(seeds: auto, start 2, max 8\): \d+ runs/m);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.seeding.cells.map((c: { variant: string }) => c.variant)).toEqual(['three', 'two']);
    expect(summary.seeding.cells.every((c: { seeds: number }) => [2, 4, 8].includes(c.seeds))).toBe(true);
    expect(summary.runsPlanned).toBe(summary.seeding.cells.reduce((n: number, c: { seeds: number }) => n + c.seeds, 0));
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/### Seeds each variant got/);

    const sharded = cli('run', file, '--out', join(dir, 'run-auto-shard'), '--shard', '1/2');
    expect(sharded.code).toBe(2);
    expect(sharded.stderr.split('\n')[0]).toBe('retrystorm: seeds: auto decides each look from the results of every cell, which one shard does not have; run it unsharded, or give a fixed number of seeds (--seeds N) to split it');
    expectNoStackTrace(sharded.stderr);
    expect(existsSync(join(dir, 'run-auto-shard'))).toBe(false);

    const fixed = cli('run', file, '--out', join(dir, 'run-auto-fixed'), '--seeds', '3', '--quiet');
    expect(fixed.code, fixed.stderr).toBe(0);
    const fixedSummary = JSON.parse(readFileSync(join(dir, 'run-auto-fixed', 'summary.json'), 'utf8'));
    expect(fixedSummary.seeding).toBeNull();
    expect(fixedSummary.runsPlanned).toBe(6);
    expect(fixedSummary.ranking.confidence).toBe(0.95);
  });

  it('is reproducible: the same seed gives a byte-identical summary.json, another seed a different one', () => {
    const [a, b, c] = ['run-seed-1a', 'run-seed-1b', 'run-seed-2'].map((d) => join(dir, d));
    expect(runTiny(a, '--quiet', '--seed', '1').code).toBe(0);
    expect(runTiny(b, '--quiet', '--seed', '1').code).toBe(0);
    expect(runTiny(c, '--quiet', '--seed', '2').code).toBe(0);
    const [sa, sb, sc] = [a, b, c].map((d) => readFileSync(join(d, 'summary.json'), 'utf8'));
    expect(sb).toBe(sa);
    expect(sc).not.toBe(sa);
    // not only the recorded seed: the simulated outcome differs too
    const outcome = (s: string) => JSON.stringify(JSON.parse(s).variants, (k, v) => (k === 'seed' ? undefined : v));
    expect(outcome(sc)).not.toBe(outcome(sa));
  });
});
