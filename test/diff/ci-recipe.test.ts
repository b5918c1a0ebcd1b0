// The CI recipe as a pull request meets it: the shipped script (bin/retrystorm-ci-diff.sh)
// run in a git repository made here, on a branch with two commits over its base: one
// scenario made worse (its guard on change fails), one with only a comment changed, one
// left alone. The workflow in docs/ only adds posting the comment and keeping the artifact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, ensureBuilt } from '../helpers/cli.js';

const SMALL = `name: small
horizon: 20m
seeds: 2
measures: { bucket: 10s }
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 4s } }
server: { slots: 3, queue: unbounded, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: capacity-cut, at: 5m, duration: 2m, slots: 1 }
variants:
  retries: {}
  no-retries:
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
expectations:
  - { variant: no-retries, recoveryTimeS: { worsenBy: { atMost: 10% } } }
`;
const CALM = SMALL.replace('name: small', 'name: calm').replace(/^expectations:[\s\S]*$/m, '');

let repo: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });

function script(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const p = spawn('bash', [join(ROOT, 'bin/retrystorm-ci-diff.sh'), ...args], { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', fail);
    p.on('close', (code) => done({ code, stderr }));
  });
}

beforeAll(() => {
  ensureBuilt();
  repo = mkdtempSync(join(tmpdir(), 'rs-ci-'));
  git('init', '--quiet', '--initial-branch=main');
  mkdirSync(join(repo, 'scenarios'));
  writeFileSync(join(repo, 'scenarios/small.yaml'), SMALL);
  writeFileSync(join(repo, 'scenarios/calm.yaml'), CALM);
  writeFileSync(join(repo, 'scenarios/untouched.yaml'), CALM.replace('name: calm', 'name: untouched'));
  git('add', '.');
  git('commit', '--quiet', '-m', 'base');
  git('checkout', '--quiet', '-b', 'pull-request');
  writeFileSync(join(repo, 'scenarios/small.yaml'), SMALL.replace('retry: { maxAttempts: 1 }', 'retry: { maxAttempts: 3 }'));
  git('commit', '--quiet', '-am', 'no-retries: retry three times');
  writeFileSync(join(repo, 'scenarios/calm.yaml'), `# a reviewer asked for this comment\n${CALM}`);
  git('commit', '--quiet', '-am', 'calm: a comment');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('the CI recipe on two commits of a test repository', () => {
  it('diffs each changed scenario into one comment, keeps the reports, and fails on the guard', async () => {
    const r = await script(['main', 'out']);
    expect(r.code, r.stderr).toBe(1);
    const comment = readFileSync(join(repo, 'out/comment.md'), 'utf8');
    const lines = comment.split('\n');
    expect(lines[0]).toBe('<!-- retrystorm-diff -->');
    expect(comment.match(/<!-- retrystorm-diff -->/g)).toHaveLength(1); // one marker: the workflow finds and updates this comment
    expect(lines[1]).toMatch(/^## retrystorm: 2 scenario\(s\) changed against main \([0-9a-f]{12}\)$/);
    expect(comment).not.toContain('untouched');
    // The worse scenario: its verdict, its failed guard and the change that caused it.
    expect(comment).toMatch(/^### retrystorm diff: small: \d+ worse beyond seed noise, 1 guard\(s\) failed$/m);
    expect(comment).toContain('- ⛔ guard failed: no-retries: recovery time worsens by at most 10%');
    expect(comment).toContain('- no-retries: clients.app.layers.app.maxAttempts 1 → 3');
    // The head simulates only what changed: small's no-retries (2 seeds); its retries
    // variant and all of calm are the base's runs, taken from it (run-reuse.ts).
    const stderrOf = (scenario: string) => readFileSync(join(repo, 'out', scenario, 'stderr.txt'), 'utf8');
    expect(stderrOf('scenarios_small')).toMatch(/head: running \S*small\.yaml, 2 run\(s\) on \d+ worker\(s\); 2 run\(s\) unchanged from the base \(same scenario and seed\), taken from it/);
    expect(stderrOf('scenarios_calm')).toMatch(/head: \S*calm\.yaml: 4 run\(s\) unchanged from the base \(same scenario and seed\), taken from it/);
    // The comment-only change: nothing.
    expect(comment).toMatch(/^### retrystorm diff: calm: no change beyond seed noise$/m);
    expect(comment).toContain('**The scenario** runs the same world and experiment once resolved (no change).');
    for (const side of ['base', 'head']) for (const s of ['scenarios_small', 'scenarios_calm']) expect(existsSync(join(repo, 'out', s, side, 'report.html')), `${s}/${side}`).toBe(true);
    // The base's worktree is gone, and the branch is as it was.
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git('status', '--porcelain').trim()).toBe('?? out/');
  }, 300_000);

  it('fails the check on a head worse beyond seed noise only when asked (RETRYSTORM_FAIL_ON_WORSE), and keeps the comment under a size limit', async () => {
    git('checkout', '--quiet', '-b', 'worse', 'main');
    writeFileSync(join(repo, 'scenarios/calm.yaml'), CALM.replace('retry: { maxAttempts: 1 }', 'retry: { maxAttempts: 3 }'));
    git('commit', '--quiet', '-am', 'calm: no-retries retries three times (no guard)');
    try {
      const plain = await script(['main', 'out-worse']);
      expect(plain.code, plain.stderr).toBe(0);
      const comment = readFileSync(join(repo, 'out-worse/comment.md'), 'utf8');
      expect(comment).toMatch(/^### retrystorm diff: calm: \d+ worse beyond seed noise$/m);
      const strict = await script(['main', 'out-strict'], { RETRYSTORM_FAIL_ON_WORSE: '1' });
      expect(strict.code, strict.stderr).toBe(1);
      // A limit smaller than the comment: the verdict stays, the folds go, the artifact is named.
      const limit = Math.floor(comment.length / 2);
      const cut = await script(['main', 'out-cut'], { RETRYSTORM_COMMENT_CHARS: String(limit) });
      expect(cut.code, cut.stderr).toBe(0);
      const short = readFileSync(join(repo, 'out-cut/comment.md'), 'utf8');
      expect([...short].length).toBeLessThanOrEqual(limit);
      expect(short).toMatch(/^### retrystorm diff: calm: \d+ worse beyond seed noise$/m);
      expect(short).not.toContain('<details>');
      expect(short).toContain("the whole diff is `scenarios_calm/diff.md` in the workflow's artifact");
    } finally {
      git('checkout', '--quiet', 'pull-request');
    }
  }, 300_000);

  it('says so, and exits 0, when no scenario changed', async () => {
    const r = await script(['HEAD', 'out-none']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, 'out-none/comment.md'), 'utf8')).toContain('No scenario file changed');
  }, 60_000);

  it('ships a workflow that calls the script and posts one comment, updated by its marker', () => {
    const wf = parse(readFileSync(join(ROOT, 'docs/github-actions-pr-diff.yml'), 'utf8'));
    const steps = wf.jobs.diff.steps as Array<Record<string, unknown>>;
    expect(steps.find((s) => s.id === 'diff')?.run).toMatch(/^npx retrystorm-ci-diff "origin\/\$\{\{ github\.base_ref \}\}" retrystorm-diff$/);
    expect(JSON.stringify(steps)).toContain('<!-- retrystorm-diff -->');
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin['retrystorm-ci-diff']).toBe('./bin/retrystorm-ci-diff.sh');
  });
});
