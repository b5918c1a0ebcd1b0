/**
 * The cluster examples in examples/ run as their batch engine would run them: every shard as
 * its own process with the variables that engine sets (JOB_COMPLETION_INDEX for a Kubernetes
 * Indexed Job, the matrix value for GitHub Actions, SLURM_ARRAY_TASK_* for a Slurm array),
 * then their merge command; the merged folder must hold the bytes of the whole run. The
 * Kubernetes pods run in a folder laid out as the Dockerfile's image (docker itself cannot
 * run here).
 *
 * The examples name the flagship; here each runs a smaller shipped scenario through the
 * SCENARIO variable every example reads (the flagship's 192 runs would take minutes), and
 * the test checks that the flagship path they name exists.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { writeOutputs } from '../../src/report/write.js';

/** Shipped, 8 runs (8 variants x 1 seed) of 4 simulated minutes: every shard of 8 gets one. */
const SCENARIO = 'scenarios/distributed-rate-limiting.yaml';
/** Its seeds (it says none: 1), in place of the examples' fixed 3 for the flagship. */
const SEEDS = '1';
const COMPARED = ['summary.json', 'timeseries.csv', 'runs.json', 'scenario.yaml'];

let tmp: string;
let whole: string;
/** A folder laid out like the image: what the Dockerfile's last stage copies. */
let image: string;
/** Holds a `retrystorm` command, as the image puts one on PATH. */
let bin: string;

beforeAll(async () => {
  ensureBuilt();
  tmp = mkdtempSync(join(tmpdir(), 'rs-cluster-'));
  // The whole run, unsharded, as `retrystorm run` writes it.
  whole = join(tmp, 'whole');
  writeOutputs(await runExperiment(loadScenarioFile(join(ROOT, SCENARIO)), { workers: 1 }), whole);
  image = layOutImage(join(tmp, 'app'));
  bin = join(tmp, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'retrystorm'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(image, 'bin/retrystorm.js'))} "$@"\n`);
  chmodSync(join(bin, 'retrystorm'), 0o755);
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * Copies what the Dockerfile's final stage copies: `COPY src dest` from the repository,
 * `COPY --from=build /app/x dest` from the build's output here (node_modules is linked, not
 * copied: the image prunes it to production dependencies). Checks the `ln` that puts
 * `retrystorm` on PATH points at a file the image has.
 */
function layOutImage(to: string): string {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m);
  const last = stages.at(-1)!;
  expect(last).toMatch(/^WORKDIR \/app$/m);
  const copies = [...last.matchAll(/^COPY (--from=build )?(\S+) (\S+)$/gm)];
  expect(copies.length).toBeGreaterThanOrEqual(5);
  for (const [, fromBuild, src, dest] of copies) {
    const from = fromBuild ? join(ROOT, src.replace(/^\/app\//, '')) : join(ROOT, src);
    expect(existsSync(from), `the Dockerfile copies ${src}, which does not exist here`).toBe(true);
    const target = join(to, dest === './' ? '' : dest, dest === './' ? src : '');
    mkdirSync(dirname(target), { recursive: true });
    if (src.endsWith('node_modules')) symlinkSync(from, target);
    else cpSync(from, target, { recursive: true });
  }
  // Every COPY of the build stage names files the repository has.
  for (const [, words] of stages.at(-2)!.matchAll(/^COPY (.+)$/gm)) {
    for (const s of words.split(' ').slice(0, -1)) expect(existsSync(join(ROOT, s)), `the build stage copies ${s}`).toBe(true);
  }
  const link = /ln -s \/app\/(\S+) \/usr\/local\/bin\/retrystorm/.exec(last);
  expect(link, 'the image puts retrystorm on PATH').not.toBeNull();
  expect(existsSync(join(to, link![1]))).toBe(true);
  expect(last).toMatch(/^ENTRYPOINT \["retrystorm"\]$/m);
  return to;
}

/** Variables that would tell a shard its index and must not leak in from where the test runs. */
const SHARD_VARIABLES = /^(JOB_COMPLETION_INDEX|SLURM_\w+|RETRYSTORM_\w+)$/;

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!SHARD_VARIABLES.test(k)) env[k] = v;
  return { ...env, PATH: `${bin}:${process.env.PATH}`, ...extra };
}

interface Done {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Done> {
  return new Promise((done, fail) => {
    const p = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    p.stdout.on('data', (d) => (output += d));
    p.stderr.on('data', (d) => (output += d));
    p.on('error', fail);
    p.on('close', (code) => done({ code, output }));
  });
}

/** Runs the shards two at a time (a batch engine would run them all at once, on other machines). */
async function runShards(jobs: Array<() => Promise<Done>>): Promise<Done[]> {
  const results: Done[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([lane(), lane()]);
  return results;
}

function expectWholeRun(merged: string, shards: number): void {
  for (const name of COMPARED) {
    expect(readFileSync(join(merged, name), 'utf8') === readFileSync(join(whole, name), 'utf8'), `${name} differs from the whole run's`).toBe(true);
  }
  expect(JSON.parse(readFileSync(join(merged, 'summary.json'), 'utf8')).partial).toBe(false);
  expect(shards).toBeGreaterThan(1);
}

function expectShardsRan(results: Done[], expected: Array<[number, number]>): void {
  results.forEach((r, i) => {
    expect(r.code, r.output).toBe(0);
    const [index, count] = expected[i];
    expect(r.output).toMatch(new RegExp(`^distributed-rate-limiting: .*, shard ${index}/${count}(;|$)`, "m"));
  });
}

interface Container {
  env: Array<{ name: string; value: string }>;
  command: string[];
  args: string[];
  volumeMounts: Array<{ mountPath: string }>;
}

function container(file: string): { spec: Record<string, unknown>; c: Container; env: Record<string, string> } {
  const job = parse(readFileSync(join(ROOT, file), 'utf8'));
  expect(job.kind).toBe('Job');
  const c = job.spec.template.spec.containers[0] as Container;
  const env = Object.fromEntries(c.env.map((e) => [e.name, String(e.value)]));
  // RESULTS is on the shared volume.
  expect(c.volumeMounts.some((m) => env.RESULTS.startsWith(m.mountPath + '/'))).toBe(true);
  return { spec: job.spec, c, env };
}

describe('examples/kubernetes: an Indexed Job of shards, then a merge Job', () => {
  it('each pod runs its JOB_COMPLETION_INDEX as a shard, in the image; the merge gives the whole run', async () => {
    const { spec, c, env } = container('examples/kubernetes/shards-job.yaml');
    expect(spec.completionMode).toBe('Indexed');
    const n = spec.completions as number;
    expect(env.SHARDS).toBe(String(n));
    expect(env.SEEDS).toBe('3'); // the flagship split: fixed seeds (seeds: auto cannot be sharded)
    expect(existsSync(join(image, env.SCENARIO)), `${env.SCENARIO} is in the image`).toBe(true);
    const results = join(tmp, 'k8s');
    const [command, ...args] = [...c.command, ...c.args];
    const ran = await runShards(
      Array.from({ length: n }, (_, k) => () => run(command, args, image, cleanEnv({ ...env, SCENARIO, SEEDS, RESULTS: results, JOB_COMPLETION_INDEX: String(k) }))),
    );
    expectShardsRan(ran, Array.from({ length: n }, (_, k) => [k + 1, n]));
    expect(readdirSync(results).sort()).toEqual(Array.from({ length: n }, (_, k) => `shard-${k}`).sort());

    const merge = container('examples/kubernetes/merge-job.yaml');
    const [mc, ...margs] = [...merge.c.command, ...merge.c.args];
    const m = await run(mc, margs, image, cleanEnv({ ...merge.env, RESULTS: results }));
    expect(m.code, m.output).toBe(0);
    expectWholeRun(join(results, 'merged'), n);
  });
});

/** A folder like a checkout of the repository (what actions/checkout or a Slurm user has). */
function checkout(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  for (const f of ['bin', 'scenarios']) symlinkSync(join(ROOT, f), join(dir, f));
  return dir;
}

/** Fills in the ${{ ... }} expressions a GitHub Actions step uses. */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in context)) throw new Error(`the test does not know \${{ ${name} }}`);
    return context[name];
  });
}

describe('examples/github-actions: a matrix of shards, then a merge job', () => {
  it('each matrix job runs its shard; the merge job, given the artifacts, writes the whole run', async () => {
    const wf = parse(readFileSync(join(ROOT, 'examples/github-actions/retry-storm-sweep.yml'), 'utf8'));
    const shards: number[] = wf.jobs.shard.strategy.matrix.shard;
    expect(String(wf.env.SHARDS)).toBe(String(shards.length));
    expect(String(wf.env.SEEDS)).toBe('3');
    expect(existsSync(join(ROOT, wf.env.SCENARIO))).toBe(true);
    type Step = { run?: string; uses?: string; with?: Record<string, string> };
    const steps: Step[] = wf.jobs.shard.steps;
    const runStep = steps.find((s) => s.run?.includes(' run '))!;
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    const env = (shard: number) => ({ 'matrix.shard': String(shard), 'env.SHARDS': String(wf.env.SHARDS) });

    const workspaces = shards.map((s) => checkout(`gh-shard-${s}`));
    const ran = await runShards(
      shards.map((s, i) => () => run('bash', ['-e', '-c', expand(runStep.run!, env(s))], workspaces[i], cleanEnv({ SCENARIO, SEEDS, SHARDS: String(wf.env.SHARDS) }))),
    );
    expectShardsRan(ran, shards.map((s) => [s, shards.length]));

    // download-artifact with a pattern puts each artifact in a folder of its name under `path`.
    const mergeJob: Step[] = wf.jobs.merge.steps;
    const download = mergeJob.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    const mergeDir = checkout('gh-merge');
    shards.forEach((s, i) => {
      cpSync(join(workspaces[i], expand(upload.with!.path, env(s))), join(mergeDir, download.with!.path, expand(upload.with!.name, env(s))), { recursive: true });
    });
    const mergeStep = mergeJob.find((s) => s.run?.includes(' merge '))!;
    const m = await run('bash', ['-e', '-c', mergeStep.run!], mergeDir, cleanEnv({ SCENARIO }));
    expect(m.code, m.output).toBe(0);
    expectWholeRun(join(mergeDir, 'results/merged'), shards.length);
  });
});

describe('examples/slurm: a job array of shards, then a merge job', () => {
  it('each array task runs the shard --shard auto works out from SLURM_ARRAY_TASK_*; the merge gives the whole run', async () => {
    const script = readFileSync(join(ROOT, 'examples/slurm/retry-storm.sbatch'), 'utf8');
    const array = /^#SBATCH --array=(\d+)-(\d+)(?::(\d+))?$/m.exec(script);
    expect(array, 'an array range a-b[:step]').not.toBeNull();
    const [lo, hi, step] = [Number(array![1]), Number(array![2]), Number(array![3] ?? 1)];
    const ids = Array.from({ length: Math.floor((hi - lo) / step) + 1 }, (_, i) => lo + i * step);
    const cpus = /^#SBATCH --cpus-per-task=(\d+)$/m.exec(script)![1];
    expect(script).toMatch(/^SCENARIO=\$\{SCENARIO:-scenarios\/retry-storm\.yaml\}$/m);
    expect(script).toMatch(/^SEEDS=\$\{SEEDS:-3\}$/m);
    const dir = checkout('slurm');
    const slurm = (id: number) => ({
      SLURM_ARRAY_JOB_ID: '4242',
      SLURM_ARRAY_TASK_ID: String(id),
      SLURM_ARRAY_TASK_MIN: String(lo),
      SLURM_ARRAY_TASK_MAX: String(ids.at(-1)),
      SLURM_ARRAY_TASK_STEP: String(step),
      SLURM_ARRAY_TASK_COUNT: String(ids.length),
      SLURM_CPUS_PER_TASK: cpus,
    });
    const ran = await runShards(ids.map((id) => () => run('bash', [join(ROOT, 'examples/slurm/retry-storm.sbatch')], dir, cleanEnv({ ...slurm(id), SCENARIO, SEEDS }))));
    expectShardsRan(ran, ids.map((_, i) => [i + 1, ids.length]));
    const m = await run('bash', [join(ROOT, 'examples/slurm/merge.sbatch')], dir, cleanEnv({ SLURM_JOB_ID: '4243' }));
    expect(m.code, m.output).toBe(0);
    expectWholeRun(join(dir, 'results/retry-storm/merged'), ids.length);
  });
});
