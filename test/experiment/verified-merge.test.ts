/**
 * merge folds nothing in on trust (issue 17): a runs.json whose numbers were edited, a
 * result or a failure moved to an index outside the plan or of another shard, a run given
 * twice (or both finished and failed), an incomplete result, a truncated file, another
 * version's or another scenario's runs: each is refused with one line naming the file and
 * what is wrong (exit 2 from the CLI).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../src/experiment/experiment.js';
import { loadScenario } from '../../src/scenario/load.js';
import { writeOutputs } from '../../src/report/write.js';
import { MergeError, mergeDirs } from '../../src/experiment/merge.js';
import { contentDigest, type SavedRuns } from '../../src/experiment/runs-json.js';
import { TOOL_VERSION } from '../../src/experiment/tool-version.js';
import { toolBuild } from '../../src/experiment/tool-build.js';
import { runCliProcess } from '../helpers/cli.js';
import { summaryText } from '../helpers/outputs.js';

const SCENARIO = `
name: verified
horizon: 2m
seeds: 2
measures: { bucket: 10s, hold: 20s }
clients:
  app:
    arrivals: { kind: constant, rate: 40/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 10, serviceTime: { kind: exponential, mean: 50ms } }
faults:
  - { kind: dependency-down, at: 40s, duration: 10s }
variants:
  a: {}
  b: { overlay: { server: { queue: 20 } } }
`;

let dir: string;
const at = (name: string) => join(dir, name);
const runsOf = (name: string): SavedRuns => JSON.parse(readFileSync(join(at(name), 'runs.json'), 'utf8'));

/** A copy of shard folder `from` whose runs.json is edited; `redigest` recomputes the content digest (a careful forger, or a bug). */
function tampered(from: string, name: string, edit: (s: SavedRuns) => void, redigest = true): string {
  cpSync(at(from), at(name), { recursive: true });
  const s = runsOf(from);
  edit(s);
  if (redigest) s.digest = contentDigest(s.results);
  writeFileSync(join(at(name), 'runs.json'), JSON.stringify(s));
  return at(name);
}

function refusal(dirs: string[]): string {
  try {
    mergeDirs(dirs);
  } catch (e) {
    expect(e).toBeInstanceOf(MergeError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('merge accepted it');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-verified-'));
  const loaded = () => loadScenario(SCENARIO, 'verified.yaml');
  // On the calling thread (workers 0): the merge's checks are tested here, not the thread pool
  // (determinism.test.ts), and each pool under vitest starts threads that load the sources through tsx.
  writeOutputs(await runExperiment(loaded(), { workers: 0, shard: { index: 1, count: 2 } }), at('A'));
  writeOutputs(await runExperiment(loaded(), { workers: 0, shard: { index: 2, count: 2 } }), at('B'));
  writeOutputs(await runExperiment(loaded(), { workers: 0 }), at('U'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('merge verifies what it folds', () => {
  it('records the build (version and code digest) and the digests in runs.json, and merges untouched shards to the unsharded bytes', () => {
    const a = runsOf('A');
    expect(a.tool).toBe(toolBuild());
    expect(a.tool).toMatch(new RegExp(`^${TOOL_VERSION.replaceAll('.', '\\.')}\\+[0-9a-f]{12}$`));
    expect(a.scenarioDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a.digest).toBe(contentDigest(a.results));
    expect(summaryText(mergeDirs([at('A'), at('B')]))).toBe(readFileSync(join(at('U'), 'summary.json'), 'utf8'));
  });

  it('refuses an edited number (the digest no longer matches)', () => {
    const d = tampered('A', 'edited', (s) => (s.results[0].summary.measures.peakLoadMultiple = 999), false);
    expect(refusal([d, at('B')])).toMatch(/edited\/runs\.json: its results do not match its digest: they were edited after they were written/);
  });

  it('refuses an index outside the plan, even with a recomputed digest', () => {
    const d = tampered('A', 'far', (s) => (s.results[0].index = 1e9));
    expect(refusal([d, at('B')])).toMatch(/far\/runs\.json: a result has the index 1000000000, not one of the 4 planned runs \(0 to 3\)/);
    const proto = tampered('A', 'proto', (s) => ((s.results[0] as { index: unknown }).index = '__proto__'));
    expect(refusal([proto, at('B')])).toMatch(/a result has the index "__proto__"/);
  });

  it('refuses a run of another shard, a run given twice, and a result that is not the run planned at its index', () => {
    const foreign = tampered('A', 'foreign', (s) => s.results.push(runsOf('B').results[0]));
    expect(refusal([foreign, at('B')])).toMatch(/foreign\/runs\.json: run 1 \(variant a, point 0, seed 2\) belongs to another shard than 1\/2/);
    const twice = tampered('A', 'twice', (s) => s.results.push(s.results[0]));
    expect(refusal([twice, at('B')])).toMatch(/twice: run 0 \(variant a, point 0, seed 1\) is also in .*twice: a run appears once/);
    const swapped = tampered('A', 'swapped', (s) => (s.results[0].seed = 2));
    expect(refusal([swapped, at('B')])).toMatch(/result 0 is for variant a, point 0, seed 2, but the plan has variant a, point 0, seed 1 there/);
  });

  it('checks a failure as it checks a result: in the plan, of its shard, and not also finished', () => {
    const planned = (s: SavedRuns, k: number) => ({ index: s.results[k].index, variant: s.results[k].variant, point: s.results[k].point, seed: s.results[k].seed, message: 'boom' });
    const both = tampered('A', 'both', (s) => s.failures.push(planned(s, 0)));
    expect(refusal([both, at('B')])).toMatch(/run 0 \(variant a, point 0, seed 1\) is listed as failed and also as finished in .*both/);
    const foreign = tampered('A', 'foreign-failure', (s) => s.failures.push(planned(runsOf('B'), 0)));
    expect(refusal([foreign, at('B')])).toMatch(/foreign-failure\/runs\.json: failed run 1 \(variant a, point 0, seed 2\) belongs to another shard than 1\/2/);
    const far = tampered('A', 'far-failure', (s) => s.failures.push({ ...planned(s, 0), index: 99 }));
    expect(refusal([far, at('B')])).toMatch(/far-failure\/runs\.json: a failure has the index 99, not one of the 4 planned runs/);
  });

  it('refuses an incomplete result, and a finished shard with runs missing', () => {
    const bare = tampered('A', 'bare', (s) => (s.results[0] = { index: 0, variant: 'a', point: 0, seed: 1 } as SavedRuns['results'][number]));
    expect(refusal([bare, at('B')])).toMatch(/bare\/runs\.json: result 0 is incomplete/);
    const short = tampered('A', 'short', (s) => s.results.pop());
    expect(refusal([short, at('B')])).toMatch(/short\/runs\.json says it finished, yet 1 of its runs are missing \(first: run 2, variant b, point 0, seed 1\)/);
  });

  it('refuses another build\'s runs, runs of an edited scenario, and a truncated file, naming it', () => {
    const old = tampered('A', 'old', (s) => (s.tool = '0.0.1'));
    expect(refusal([old, at('B')])).toMatch(/old\/runs\.json was made by retrystorm 0\.0\.1, and this is .*: runs of different builds cannot be merged or reused/);
    // The same version built from other code (a checkout before a change, an image rebuilt
    // from a newer commit): refused too, since the same seed may give another result.
    const rebuilt = tampered('A', 'rebuilt', (s) => (s.tool = `${TOOL_VERSION}+000000000000`));
    expect(refusal([rebuilt, at('B')])).toMatch(/rebuilt\/runs\.json was made by retrystorm \d+\.\d+\.\d+\+000000000000, and this is \d+\.\d+\.\d+\+[0-9a-f]{12} \(version\+code digest\)/);
    const other = tampered('A', 'other', (s) => (s.scenarioDigest = 'sha256:' + '0'.repeat(64)));
    expect(refusal([other, at('B')])).toMatch(/other\/runs\.json was made from another scenario than .*other\/scenario\.yaml/);
    cpSync(at('A'), at('cut'), { recursive: true });
    const text = readFileSync(join(at('A'), 'runs.json'), 'utf8');
    writeFileSync(join(at('cut'), 'runs.json'), text.slice(0, text.length / 2));
    expect(refusal([at('cut'), at('B')])).toMatch(/cut\/runs\.json is not valid JSON .*truncated or edited\?/);
  });

  it('the CLI says it in one line with exit 2 and writes nothing', async () => {
    tampered('A', 'cli-edited', (s) => (s.results[0].summary.measures.attempts = 1), false);
    const r = await runCliProcess(dir, ['merge', 'cli-edited', 'B', '--out', 'M']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^retrystorm: .*cli-edited\/runs\.json: its results do not match its digest/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
