#!/usr/bin/env node
/**
 * Fault injection for every command that writes (run, merge, report, diff, edge): kills at
 * random points, a full disk, and concurrent writers, each trial checked against the
 * invariants the output-folder discipline promises (docs/testing.md, "Fault injection"):
 *
 * - the folder is the previous result byte for byte or a whole new one (every file there,
 *   each JSON parsing), or, after a kill between a commit's renames, it is made one of the two
 *   by the next command that reads it (`report DIR`, which reads it strictly);
 * - no NAME.tmp is left once the next command has run, and no hidden folder but a killed run's
 *   journal (`.NAME.partial-PID`), which `merge` turns into a partial result;
 * - every exit code is in the documented set (0, 1, 2, 73, 130, 143, or death by the signal
 *   sent), never 70, never a stack trace;
 * - on a full disk: exit 0 or 73; on 73 the previous result is byte-identical, nothing the
 *   command wrote is left, and a run's message counts the finished runs its journal kept;
 * - concurrent writers: each one finishes (0) or is refused up front (2); the folder is whole.
 *
 * The full disk is a small tmpfs when this process may mount one (root), else a file-size limit
 * (`ulimit -f`), which makes writes fail the same way (EFBIG instead of ENOSPC).
 *
 *   npm run build && node scripts/fault-injection.mjs [--trials N] [--seed S]
 *
 * N is the trials per command and fault (default 6); S seeds the random kill times and fills.
 * Bounded: about 4 minutes on two busy cores with the defaults, one command at a time (two or
 * three in the concurrent trials), each a small scenario; a results folder is about 2 MB.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/retrystorm.js');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const TRIALS = arg('trials', 6);
let seed = arg('seed', 39) >>> 0;
/** mulberry32: the kill times and fills are the same for the same --seed. */
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const FILES = ['summary.json', 'summary.md', 'report.html', 'timeseries.csv', 'populations.csv', 'expectations.xml', 'timeseries.openmetrics.txt', 'runs.json', 'scenario.yaml'];
const ALLOWED = new Set([0, 1, 2, 73, 130, 143]);
const SCENARIO = `
name: fi
horizon: 1m
seeds: 8
clients:
  app:
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 5, serviceTime: { kind: exponential, mean: 50ms } }
faults:
  - { kind: dependency-down, at: 20s, duration: 10s }
`;
const HEAD = SCENARIO.replace('slots: 5', 'slots: 6');

const W = mkdtempSync(join(tmpdir(), 'rs-faults-'));
writeFileSync(join(W, 'fi.yaml'), SCENARIO);
writeFileSync(join(W, 'head.yaml'), HEAD);
const TINY = join(ROOT, 'test/experiment/search/tiny-cliff.yaml');

/** Runs the CLI; resolves with its exit code (or the signal that ended it), stdout and stderr. */
function cli(args, { cwd = W, killAfterMs, signal, stdoutFile, ulimitKiB } = {}) {
  return new Promise((done) => {
    const out = stdoutFile ? openSync(stdoutFile, 'w') : 'pipe';
    const cmd = ulimitKiB ? 'sh' : process.execPath;
    const argv = ulimitKiB ? ['-c', `ulimit -f ${ulimitKiB} && exec "$0" "$@"`, process.execPath, BIN, ...args] : [BIN, ...args];
    const p = spawn(cmd, argv, { cwd, stdio: ['ignore', out, 'pipe'], env: { ...process.env, RETRYSTORM_DEBUG: '' } });
    if (stdoutFile) closeSync(out);
    let stdout = '', stderr = '';
    p.stdout?.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => p.kill(signal), killAfterMs);
    p.on('close', (code, sig) => {
      clearTimeout(timer);
      done({ code, signal: sig, stdout, stderr });
    });
  });
}

/** A digest of a folder's files (names and bytes), NAME.tmp aside. */
function digest(dir) {
  if (!existsSync(dir)) return 'missing';
  const h = createHash('sha256');
  for (const n of readdirSync(dir, { recursive: true }).sort()) {
    const p = join(dir, n);
    if (statSync(p).isFile()) h.update(`${n}\0`).update(readFileSync(p)).update('\0');
  }
  return h.digest('hex');
}

/** Whether `dir` holds a whole result: every file, each JSON parsing. */
function whole(dir) {
  if (!existsSync(dir)) return false;
  if (!FILES.every((f) => existsSync(join(dir, f)))) return false;
  try {
    JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8'));
    return true;
  } catch {
    return false;
  }
}

const tmps = (dir) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((n) => String(n).endsWith('.tmp')) : []);
const hiddenOf = (dir) => {
  const parent = resolve(dir, '..'), name = dir.split('/').at(-1);
  return existsSync(parent) ? readdirSync(parent).filter((n) => n.startsWith(`.${name}.`)) : [];
};

const counts = {};
const violations = [];
function tally(command, fault, outcome) {
  const c = ((counts[command] ??= {})[fault] ??= { trials: 0, outcomes: {} });
  c.trials++;
  c.outcomes[outcome] = (c.outcomes[outcome] ?? 0) + 1;
}
function violation(command, fault, what, r) {
  violations.push(`${command} / ${fault}: ${what}${r ? ` (exit ${r.code ?? r.signal}; ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')})` : ''}`);
}
function checkExit(command, fault, r, sent) {
  const ok = r.code === null ? r.signal === sent : ALLOWED.has(r.code);
  if (!ok) violation(command, fault, 'exit outside the documented set', r);
  if (/internal error|\n\s+at /.test(r.stderr)) violation(command, fault, 'internal error or stack trace', r);
  return r.code === null ? `killed by ${r.signal}` : `exit ${r.code}`;
}

/**
 * After a fault: the target is the previous result or a whole new one, once the next command
 * (report, which finishes a stopped commit and removes a killed rewrite's NAME.tmp) has run.
 * A killed run's journal, if any, is merged. Returns what the folder holds.
 */
async function settleAndJudge(command, fault, out, previous) {
  const before = digest(out);
  const missing = !existsSync(out);
  if (existsSync(out) || hiddenOf(out).some((n) => /\.(commit|old)-\d+$/.test(n))) {
    const next = await cli(['report', out]);
    if (next.code !== 0) violation(command, fault, 'the next command (report) did not read the folder', next);
  }
  const after = digest(out);
  let state = after === previous ? 'previous' : whole(out) ? 'new, whole' : 'NOT WHOLE';
  if (state === 'NOT WHOLE') violation(command, fault, `the folder is neither the previous result nor a whole new one (${existsSync(out) ? readdirSync(out).join(',') : 'missing'})`);
  if (missing && existsSync(out)) state += ' (commit finished by the next command)';
  else if (before !== after && state === 'previous') state += ' (after the next command)';
  if (tmps(out).length) violation(command, fault, `NAME.tmp left: ${tmps(out).join(', ')}`);
  for (const h of hiddenOf(out)) {
    const p = join(resolve(out, '..'), h);
    if (/\.partial-\d+$/.test(h)) {
      const lines = existsSync(join(p, 'runs.ndjson')) ? readFileSync(join(p, 'runs.ndjson'), 'utf8').trim().split('\n').length - 1 : 0;
      if (lines > 0) {
        const rec = join(W, 'recovered');
        const m = await cli(['merge', p, '--out', rec]);
        if (m.code !== 0 && m.code !== 130) violation(command, fault, "a killed run's journal does not merge", m);
        else state += `; journal of ${lines} run(s) merged`;
        rmSync(rec, { recursive: true, force: true });
      }
    } else if (!/\.lock(\.\d+)?$/.test(h)) {
      // A dead writer's lock is taken over by the next one; anything else is left over.
      violation(command, fault, `hidden ${h} left beside the folder after the next command`);
    }
    rmSync(p, { recursive: true, force: true });
  }
  return state;
}

// The previous results every trial starts from, and what each command is given.
async function must(args) {
  const r = await cli(args);
  if (r.code !== 0 && r.code !== 130) throw new Error(`setup: retrystorm ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}
await must(['run', 'fi.yaml', '--out', 'prev-run', '--seed', '100', '--quiet', '--workers', '1']);
await must(['run', 'fi.yaml', '--out', 'shard1', '--shard', '1/2', '--quiet', '--workers', '1']);
await must(['run', 'fi.yaml', '--out', 'shard2', '--shard', '2/2', '--quiet', '--workers', '1']);
// Three seeds where the trials run two, so the previous diff folders differ from the new ones.
await must(['diff', 'fi.yaml', 'head.yaml', '--out', 'prev-diff', '--seeds', '3']);
// `report` of a folder renders the same bytes it holds: so "previous" is the only whole state.
cpSync(join(W, 'prev-run'), join(W, 'check'), { recursive: true });
await must(['report', 'check']);
if (digest(join(W, 'check')) !== digest(join(W, 'prev-run'))) throw new Error('report does not re-render the bytes a run wrote: the report trials cannot tell previous from new');

/** Each command: its arguments given the target folder, the folder(s) it writes, and how long a clean run takes. */
const COMMANDS = {
  run: { args: (o) => ['run', 'fi.yaml', '--out', o, '--workers', '1', '--quiet'], prev: 'prev-run', targets: (o) => [o], need: 2.4e6 },
  merge: { args: (o) => ['merge', 'shard1', 'shard2', '--out', o], prev: 'prev-run', targets: (o) => [o], need: 2.3e6 },
  report: { args: (o) => ['report', o], prev: 'prev-run', targets: (o) => [o], need: 0.9e6 },
  diff: { args: (o) => ['diff', 'fi.yaml', 'head.yaml', '--out', o, '--seeds', '2'], prev: 'prev-diff', targets: (o) => [join(o, 'base'), join(o, 'head')], need: 3.5e6 },
  edge: { args: () => ['edge', TINY, '--workers', '1', '--budget', '20', '--quiet'], prev: undefined, targets: () => [], need: 8192 },
};
const fresh = (name, prev, under = W) => {
  const o = join(under, name);
  rmSync(o, { recursive: true, force: true });
  if (prev) cpSync(join(W, prev), o, { recursive: true });
  return o;
};

/** The full disk: a 8 MiB tmpfs mounted for each trial when allowed, else a file-size limit. */
const full = (() => {
  const mnt = join(W, 'disk');
  mkdirSync(mnt, { recursive: true });
  const tmpfs = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt]).status === 0;
  if (tmpfs) spawnSync('umount', [mnt]);
  return {
    kind: tmpfs ? 'an 8 MiB tmpfs, filled at random before each trial' : 'a file-size limit (ulimit -f) drawn at random',
    prepare() {
      let ulimitKiB;
      if (tmpfs) spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt]);
      return {
        dir: mnt,
        get ulimitKiB() {
          return ulimitKiB;
        },
        /** Leaves `want` bytes free (drawn from none to 1.5 times what the command writes). */
        fill(want) {
          want = Math.floor(want);
          if (!tmpfs) {
            ulimitKiB = Math.max(1, Math.floor(want / 1024));
            return;
          }
          const free = Number(statfsSync(mnt).bavail) * Number(statfsSync(mnt).bsize);
          const filler = Math.max(0, free - want);
          const chunk = Buffer.alloc(1 << 20);
          const fd = openSync(join(mnt, 'filler'), 'w');
          try {
            for (let left = filler; left > 0; left -= chunk.length) writeFileSync(fd, left >= chunk.length ? chunk : chunk.subarray(0, left));
          } catch {
            // Full already: what the trial wants.
          } finally {
            closeSync(fd);
          }
        },
      };
    },
    release() {
      if (tmpfs) spawnSync('umount', [mnt]);
      else rmSync(mnt, { recursive: true, force: true }), mkdirSync(mnt);
    },
  };
})();

const started = performance.now();
process.on('exit', () => spawnSync('umount', [join(W, 'disk')]));
for (const [command, c] of Object.entries(COMMANDS)) {
  // How long a clean run takes: kills are spread over it and a bit past it.
  const t0 = performance.now();
  const clean = await cli(c.args(fresh('clean', c.prev)));
  const cleanMs = performance.now() - t0;
  if (clean.code !== 0) throw new Error(`${command} does not run cleanly: exit ${clean.code}\n${clean.stderr}`);

  // 1. Killed at a random point by SIGKILL, SIGTERM or SIGINT.
  for (let i = 0; i < TRIALS; i++) {
    const out = fresh('out', c.prev);
    const previous = c.targets(out).map(digest);
    const sig = ['SIGKILL', 'SIGTERM', 'SIGINT'][Math.floor(random() * 3)];
    const r = await cli(c.args(out), { killAfterMs: random() * cleanMs * 1.1, signal: sig });
    const exit = checkExit(command, 'kill', r, sig);
    const states = [];
    for (const [k, t] of c.targets(out).entries()) states.push(await settleAndJudge(command, 'kill', t, previous[k]));
    tally(command, 'kill', `${sig}: ${exit}${states.length ? `, ${[...new Set(states)].join(' / ')}` : ''}`);
  }

  // 2. A full disk: the target on a small tmpfs (or under a file-size limit) filled at random.
  for (let i = 0; i < TRIALS; i++) {
    const disk = full.prepare();
    const out = fresh('out', c.prev, disk.dir);
    const previous = c.targets(out).map(digest);
    disk.fill(random() * c.need * 1.5);
    const stdoutFile = command === 'edge' ? join(disk.dir, 'edge.out') : undefined;
    const r = await cli(c.args(out), { stdoutFile, ulimitKiB: disk.ulimitKiB });
    const exit = checkExit(command, 'full disk', r);
    if (r.code !== 0 && r.code !== 73) violation(command, 'full disk', 'neither written (0) nor refused as unwritable (73)', r);
    const states = [];
    // A run (or a diff's side) stopped by the full disk: the journal holds what the message says, and the merge it prints works.
    const kept = /(\d+) finished run\(s\) are kept in (\S+)\/runs\.ndjson/.exec(r.stderr);
    if (kept) {
      const lines = readFileSync(join(kept[2], 'runs.ndjson'), 'utf8').trim().split('\n').length - 1;
      if (lines !== Number(kept[1])) violation(command, 'full disk', `says ${kept[1]} run(s) kept, the journal holds ${lines}`, r);
      const m = await cli(['merge', kept[2], '--out', join(W, 'recovered')]);
      if (m.code !== 0 && m.code !== 130) violation(command, 'full disk', 'the printed merge fails', m);
      rmSync(join(W, 'recovered'), { recursive: true, force: true });
      rmSync(kept[2], { recursive: true, force: true });
      states.push(`journal of ${kept[1]} run(s) kept and merged`);
    }
    for (const [k, t] of c.targets(out).entries()) {
      if (r.code === 73 && digest(t) !== previous[k]) violation(command, 'full disk', `exit 73 but ${t} changed`, r);
      if (tmps(t).length) violation(command, 'full disk', `NAME.tmp left in ${t}`, r);
      const left = hiddenOf(t);
      if (left.length) violation(command, 'full disk', `left beside ${t}: ${left.join(', ')}`, r);
      states.push(r.code === 73 ? 'previous' : whole(t) ? 'new, whole' : 'NOT WHOLE');
    }
    tally(command, 'full disk', `${exit}${states.length ? `, ${[...new Set(states)].join(' / ')}` : ''}`);
    full.release();
  }

  // 3. Writers at once into one folder (edge writes no folder: it has no such trial).
  if (c.targets('x').length === 0) continue;
  for (let i = 0; i < TRIALS; i++) {
    const out = fresh('out', c.prev);
    const writers = command === 'diff' ? 2 : 3;
    const rs = await Promise.all(Array.from({ length: writers }, () => cli(c.args(out))));
    const codes = rs.map((r) => checkExit(command, 'concurrent', r));
    for (const r of rs) if (r.code === 2 && !/another retrystorm .*(is writing|is starting)/.test(r.stderr)) violation(command, 'concurrent', 'exit 2 for another reason than the lock', r);
    if (!rs.some((r) => r.code === 0)) violation(command, 'concurrent', 'no writer finished', rs[0]);
    for (const t of c.targets(out)) {
      if (!whole(t)) violation(command, 'concurrent', `${t} is not whole`);
      if (tmps(t).length) violation(command, 'concurrent', `NAME.tmp left in ${t}`);
      if (hiddenOf(t).length) violation(command, 'concurrent', `left beside ${t}: ${hiddenOf(t).join(', ')}`);
    }
    tally(command, 'concurrent', `${codes.filter((x) => x === 'exit 0').length} of ${writers} wrote, ${codes.filter((x) => x === 'exit 2').length} refused (exit 2); folder whole`);
  }
}

const wallS = (performance.now() - started) / 1000;
console.log(`fault injection: ${TRIALS} trials per command and fault, seed ${arg('seed', 39)}, full disk: ${full.kind}; ${wallS.toFixed(0)} s\n`);
for (const [command, faults] of Object.entries(counts)) {
  for (const [fault, { trials, outcomes }] of Object.entries(faults)) {
    console.log(`${command.padEnd(6)} ${fault.padEnd(10)} ${String(trials).padStart(3)} trials: ${Object.entries(outcomes).sort((a, b) => b[1] - a[1]).map(([o, n]) => `${n} ${o}`).join('; ')}`);
  }
}
console.log(violations.length ? `\n${violations.length} VIOLATION(S):\n${violations.join('\n')}` : '\nno violation');
rmSync(W, { recursive: true, force: true });
process.exit(violations.length ? 1 : 0);
