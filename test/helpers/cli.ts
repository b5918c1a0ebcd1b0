// The CLI as users meet it: `node bin/retrystorm.js …` from the compiled dist/ (`npm test`
// builds first). Shared by the tests that run it as a process.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Builds dist/ when a test runs without `npm test` having built it. */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  }
}

/**
 * Runs the CLI in `cwd` and collects what it printed; RETRYSTORM_DEBUG is cleared so no stack
 * trace leaks in, and so are the variables `--shard auto` reads (unless given in `extraEnv`),
 * in case the tests themselves run inside a Kubernetes Job or a Slurm array.
 */
export function runCliProcess(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(RETRYSTORM_DEBUG|JOB_COMPLETION_INDEX|SLURM_\w+|RETRYSTORM_SHARD_INDEX)$/.test(k)) env[k] = v;
  Object.assign(env, extraEnv);
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', fail);
    p.on('close', (code) => done({ code, stdout, stderr }));
  });
}
