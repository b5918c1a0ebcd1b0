/**
 * `retrystorm edge` as users meet it, as a process: the tipping point of a small storm's
 * arrival rate, the same bytes for one worker and two, and bad flags refused with exit 2 and
 * the flag that is wrong.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseSummary } from '../../src/results/summary-json.js';
import { ensureBuilt, runCliInProcess, runCliProcess, ROOT, type CliResult } from '../helpers/cli.js';
import { searchResultsSchema } from '../../src/results/search.js';

const TINY = join(ROOT, 'test/experiment/search/tiny-cliff.yaml');

/**
 * `edge TINY --workers 2 --json`, run once: the first test compares it with one worker, the
 * search block's test with what `run` wrote (the same search). A process each time it is
 * asked for would repeat the same 40-run search.
 */
let twoWorkers: Promise<CliResult>;
beforeAll(() => {
  ensureBuilt();
  twoWorkers = runCliProcess(ROOT, ['edge', TINY, '--workers', '2', '--json']);
  twoWorkers.catch(() => {}); // a failure to start is reported by the tests that await it
});

describe('retrystorm edge', () => {
  it('finds the rate at which the small storm stops recovering, the same on one worker and on two', async () => {
    const one = await runCliProcess(ROOT, ['edge', TINY, '--workers', '1', '--json']);
    const two = await twoWorkers;
    expect(one.stderr).toMatch(/searching clients\.app\.arrivals\.rate for 1 variant\(s\), at most 40 runs each/);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const s = searchResultsSchema.parse(JSON.parse(one.stdout));
    const v = s.variants[0];
    // A grid of 6 seeds per value recovered 6/6 at 50/s, 3/6 at 60/s and 0/6 at 70/s.
    expect(v).toMatchObject({ variant: 'base', direction: 'falling', crossing: 'within' });
    expect(v.lo).toBeLessThanOrEqual(60);
    expect(v.hi).toBeGreaterThanOrEqual(60);
    expect(v.hi! - v.lo!).toBeLessThan(40); // of a range of 75/s, in 40 runs
    expect(v.estimate).toBeGreaterThanOrEqual(v.lo!);
    expect(v.estimate).toBeLessThanOrEqual(v.hi!);
    expect(v.runs).toBeLessThanOrEqual(40);
    expect(v.tried.reduce((n, t) => n + t.runs, 0)).toBe(v.runs);
    for (const t of v.tried) expect(t.lo).toBeLessThanOrEqual(t.recovered / t.runs);
  });

  it('says the tipping point in words, with its interval, the runs, and each tried value with its Wilson interval', async () => {
    const r = await runCliProcess(ROOT, ['edge', TINY, '--workers', '2', '--budget', '20', '--range', '40/s..80/s']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tiny-cliff: Tipping point of clients\.app\.arrivals\.rate \(where the probability of recovering within the hold crosses 50%\), searched from 40\/s to 80\/s:\n/);
    expect(r.stdout).toMatch(/\n {2}base {2}recovers up to clients\.app\.arrivals\.rate = 60\/s \(95%: from below 40\/s to above 80\/s\), 20 runs; the budget ran out before the precision asked \(2\/s\)\n/);
    expect(r.stdout).toMatch(/\n {6}value +recovered +probability \(95%\)\n {6}40\/s +\d\/4 +\d+% \(\d+%–\d+%\)\n/);
    expect(r.stdout).toMatch(/\n20 runs in all, seeds from 1, 2 worker\(s\)/);
  });

  it.each([
    [['--range', '5m..1m', '--parameter', 'faults[0].duration'], /^retrystorm: --range: the range is empty: "to" \(1m\) must be larger than "from" \(5m\)$/m],
    [['--parameter', 'faults[0].length', '--range', '1m..2m'], /^retrystorm: --parameter: the scenario sets no value at "faults\[0\]\.length": a search varies a value the base scenario already has$/m],
    [['--parameter', 'faults[0].duration'], /^retrystorm: give --range FROM\.\.TO for --parameter faults\[0\]\.duration/m],
    [['--range', '1m-5m'], /^retrystorm: --range takes FROM\.\.TO in the parameter's unit/m],
    [['--level', '1.5'], /^retrystorm: --level: the level is a probability strictly between 0 and 1/m],
    [['--budget', '5'], /^retrystorm: --budget: a search needs at least 20 runs/m],
    [['--parameter', 'server.slots', '--range', '0..20'], /tiny-cliff\.yaml:\d+:\d+ +server\.slots: must be at least 1.*\(at server\.slots = 0\)/],
  ])('refuses %j with exit 2 and the flag that is wrong', async (flags, message) => {
    // The first as a process (exit code, the message on stderr, no stack trace); the others are
    // the same path (edgeCommand refusing before any run, printed by execute), run through it here.
    const args = ['edge', TINY, ...flags];
    const r = flags[1] === '5m..1m' ? await runCliProcess(ROOT, args) : await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('stopped by SIGTERM (a pod or a CI job ending), says so and exits 143, as run does (it exited 130)', async () => {
    const { spawn } = await import('node:child_process');
    const r = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
      const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'edge', TINY, '--workers', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const guard = setTimeout(() => { p.kill('SIGKILL'); fail(new Error(`no "searching" line: ${stderr}`)); }, 120_000);
      // The "searching" line comes after the signal handlers are installed: a signal then stops the search.
      p.stderr.on('data', (d) => {
        stderr += d;
        if (/^searching /m.test(stderr) && !p.killed) p.kill('SIGTERM');
      });
      p.on('close', (code) => { clearTimeout(guard); done({ code, stderr }); });
    });
    expect(r.stderr).toContain('stopping (SIGTERM): a search half done has no interval to report');
    expect(r.code).toBe(143);
  });

  it('asks for a parameter when the scenario has no search block', async () => {
    // In this process: the same refusal path as the process test above.
    const r = await runCliInProcess(['edge', join(ROOT, 'scenarios/reference-storm.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reference-storm has no search: block: give --parameter PATH and --range FROM\.\.TO/);
  });

  it('is done by run when the scenario has a search block: in summary.json, summary.md and the checks, which fail when the cliff is not where they say', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-run-'));
    try {
      const scenario = join(dir, 's.yaml');
      writeFileSync(scenario, readFileSync(TINY, 'utf8') + 'expectations:\n  - { variant: base, tippingPoint: { atLeast: 50/s } }\n  - { variant: base, tippingPoint: { atMost: 55/s } }\n');
      const r = await runCliProcess(dir, ['run', scenario, '--out', 'out', '--workers', '2']);
      expect(r.code).toBe(1);
      const summary = parseSummary(readFileSync(join(dir, 'out/summary.json'), 'utf8'), 'summary.json');
      const edge = await twoWorkers;
      expect(edge.code).toBe(0);
      // The same search as edge's: same scenario, same seeds.
      expect(summary.search).toEqual(JSON.parse(edge.stdout));
      const v = summary.search!.variants[0];
      const at = `${v.estimate}/s`;
      expect(r.stdout).toMatch(new RegExp(`\nPASS {2}base: tipping point of clients\\.app\\.arrivals\\.rate at least 50/s \\(${at.replace('.', '\\.')} \\(95%: `));
      expect(r.stdout).toMatch(/\nFAIL {2}base: tipping point of clients\.app\.arrivals\.rate at most 55\/s /);
      expect(summary.expectations.map((e) => [e.measure, e.kind, e.limit, e.value, e.passed])).toEqual([
        ['tippingPoint', 'atLeast', 50, v.estimate, true],
        ['tippingPoint', 'atMost', 55, v.estimate, false],
      ]);
      const md = readFileSync(join(dir, 'out/summary.md'), 'utf8');
      expect(md).toContain(`- **base** recovers up to clients.app.arrivals.rate = ${at} (95%: ${v.lo}/s–${v.hi}/s), ${v.runs} runs`);
      expect(md).toContain('| value | recovered | probability (95%) |');
      // report DIR reads the search back (strictly) and renders the same summary.md.
      const again = await runCliProcess(dir, ['report', 'out']);
      expect(again.code).toBe(0);
      expect(readFileSync(join(dir, 'out/summary.md'), 'utf8')).toBe(md);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
