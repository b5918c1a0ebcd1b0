// `retrystorm diff` as users run it (a process, from dist/), on a smaller model of the
// flagship (test/diff/small-flagship.ts): its base is run once into a results folder, and
// each change is run from its scenario file by `diff` itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { smallFlagship } from './small-flagship.js';

let dir: string;
const diff = (head: string, ...flags: string[]) => runCliProcess(dir, ['diff', 'base-out', head, ...flags], { NO_COLOR: '1' });

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-diff-'));
  const files: Record<string, string> = {
    'base.yaml': smallFlagship(),
    'attempts-8.yaml': smallFlagship({ attempts: 8 }),
    'attempts-8-deadline-60s.yaml': smallFlagship({ attempts: 8, deadline: '60s' }),
    'comment.yaml': smallFlagship({ comment: 'a reviewer asked for this comment' }),
    'seeds-5.yaml': smallFlagship({ seeds: 5 }),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const base = await runCliProcess(dir, ['run', 'base.yaml', '--out', 'base-out', '--quiet']);
  expect(base.stderr).toBe('');
  expect(base.code).toBe(0);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('retrystorm diff on the flagship (smaller model)', () => {
  it('client-ceiling at 8 attempts with a 60 s deadline: recovery at 12 min is worse beyond seed noise, and the check fails', async () => {
    const r = await diff('attempts-8-deadline-60s.yaml', '--json', '--out', 'h8d');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/passed on the base and fail on the head: client-ceiling at faults\[0\]\.duration=12m: recovered at least 100%/);
    const d = JSON.parse(r.stdout);
    const p = d.points.find((x: { variant: string }) => x.variant === 'client-ceiling');
    expect(p.values).toEqual({ 'faults[0].duration': '12m' });
    const rt = p.changes.find((c: { key: string }) => c.key === 'recoveryTimeS');
    // Every seed recovered within about 2.5 minutes before, none recovers before the horizon (18 minutes after the outage).
    expect(rt.base).toBeGreaterThan(60);
    expect(rt.base).toBeLessThan(300);
    expect(rt.head).toBeNull();
    expect(rt).toMatchObject({ beyondNoise: true, direction: 'worse' });
    const po = p.changes.find((c: { key: string }) => c.key === 'perceivedOutageS');
    expect(po).toMatchObject({ beyondNoise: true, direction: 'worse' });
    expect(po.lo).toBeGreaterThan(5 * 60);
    // as-is did not change: its scenario did not.
    const asIs = d.points.find((x: { variant: string }) => x.variant === 'as-is');
    expect(asIs.changes.every((c: { beyondNoise: boolean; delta: number | null }) => !c.beyondNoise && (c.delta === null || c.delta === 0))).toBe(true);
  }, 300_000);

  it('says so in the terminal and in the comment, verdict first', async () => {
    // The head's results, kept by the test above (--out), read back: no second run.
    const text = await diff('h8d/head');
    expect(text.stdout.split('\n')[1]).toMatch(/^ {2}client-ceiling at faults\[0\]\.duration = 12m: recovery time 2m\d+s -> not recovered \(worse, beyond seed noise\)$/);
    const md = await diff('h8d/head', '--markdown');
    const lines = md.stdout.split('\n');
    expect(lines[1]).toMatch(/^### retrystorm diff: retry-storm: \d+ worse beyond seed noise, 1 expectation\(s\) now failing$/);
    expect(lines[3]).toMatch(/^- 🔴 client-ceiling at faults\\\[0\\\]\.duration = 12m: recovery time 2m\d+s → not recovered \(worse, beyond seed noise\)$/);
  }, 300_000);

  it('client-ceiling at 8 attempts alone changes nothing: its 20 s deadline and the honoured 30 s Retry-After end the retries first', async () => {
    const r = await diff('attempts-8.yaml', '--json');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    for (const p of d.points) for (const c of p.changes) expect(c.delta === null || c.delta === 0, `${p.variant} ${c.key}`).toBe(true);
  }, 300_000);

  it('a changed comment changes no number', async () => {
    const r = await diff('comment.yaml', '--json');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.points).toHaveLength(2);
    for (const p of d.points) for (const c of p.changes) expect(c.base === c.head && !c.beyondNoise, `${p.variant} ${c.key}`).toBe(true);
    expect(d.ranking.every((k: { changed: boolean }) => !k.changed)).toBe(true);
  }, 300_000);

  it('more seeds alone: numbers move, nothing beyond seed noise', async () => {
    const r = await diff('seeds-5.yaml', '--json');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.base.seeds).toEqual([1, 2, 3]);
    expect(d.head.seeds).toEqual([1, 2, 3, 4, 5]);
    const changes = d.points.flatMap((p: { changes: unknown[] }) => p.changes);
    expect(changes.some((c: { delta: number | null }) => c.delta !== null && c.delta !== 0)).toBe(true); // two more seeds did move the means
    expect(changes.filter((c: { beyondNoise: boolean }) => c.beyondNoise)).toEqual([]);
  }, 300_000);

  it('refuses a side that is neither a folder nor a file, with exit code 2', async () => {
    const r = await diff('nowhere.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/head nowhere\.yaml: no such file or folder/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
