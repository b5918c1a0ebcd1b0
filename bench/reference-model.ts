/**
 * The benchmark's reference model, read from scenarios/reference-storm.yaml (its one home)
 * through the real loader: 10,000 clients, 800 actions/s, 100 slots, exponential 100 ms
 * service, a 1 s timeout, up to 4 attempts with full-jitter backoff capped at 1, 2 and 4 s,
 * the dependency down from 600 s to 720 s. A case changes only the horizon and whether the
 * outage happens, which is what the hand-written loop it is compared with takes as flags
 * (`--T`, `--down 0:0`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAbsolute, join } from 'node:path';
import { loadScenarioFile } from '../src/scenario/load.js';
import type { Scenario } from '../src/scenario/schema.js';

/** The repository's root, from bench/ (sources under tsx) or dist/bench/ (compiled). */
export const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url));

export const REFERENCE_FILE = join(ROOT, 'scenarios/reference-storm.yaml');

export interface ReferenceCase {
  horizonS: number;
  outage: boolean;
}

/** The `retries` variant of the reference scenario, over `horizonS`, with or without its outage. */
export function referenceScenario(c: ReferenceCase): Scenario {
  const loaded = loadScenarioFile(REFERENCE_FILE);
  const retries = loaded.variants.find((v) => v.name === 'retries');
  if (!retries) throw new Error(`${REFERENCE_FILE} has no variant "retries"`);
  const s = retries.scenario;
  return { ...s, horizon: c.horizonS, faults: c.outage ? s.faults : [] };
}

/** The hand-written loop's flags for a case: the same horizon and outage window. */
export function handLoopArgs(c: ReferenceCase): string[] {
  return ['--lam', '800', '--T', String(c.horizonS), '--down', c.outage ? '600:720' : '0:0'];
}

/**
 * The hand-written loop's file: `given` (a benchmark's --reference), relative to the
 * repository unless absolute; by default where the team keeps it, beside the repository.
 */
export function handLoopPath(given = '../shared/bench/reference-loop.js'): string {
  const path = isAbsolute(given) ? given : join(ROOT, given);
  if (!existsSync(path)) throw new Error(`no hand-written reference loop at ${path}: it is not part of this repository; pass --reference PATH`);
  return path;
}
