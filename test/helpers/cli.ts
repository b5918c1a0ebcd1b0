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

/**
 * Builds dist/ (the compiled modules and the CLI's bundle, as `npm run build` does) when a
 * test runs without `npm test` having built it.
 */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/bundle/cli/main.js'))) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  }
  if (!existsSync(join(ROOT, 'dist/bundle/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build`');
}

/**
 * Runs the CLI in `cwd` and collects what it printed; RETRYSTORM_DEBUG is cleared so no stack
 * trace leaks in, and so are the variables `--shard auto` reads and the colour switches
 * (FORCE_COLOR, NO_COLOR: output stays plain in a pipe) unless given in `extraEnv`,
 * in case the tests themselves run inside a Kubernetes Job or a Slurm array.
 */
export function runCliProcess(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(RETRYSTORM_DEBUG|JOB_COMPLETION_INDEX|SLURM_\w+|RETRYSTORM_SHARD_INDEX|FORCE_COLOR|NO_COLOR)$/.test(k)) env[k] = v;
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

/**
 * The same command line run in this process, through the function the CLI's process calls
 * (`execute` in src/cli/main.ts) with the output collected: for a refusal that is one code
 * path with a refusal its test file checks as a process (exit code, message, files), so
 * each behaviour a user meets keeps a process test while the variations of it cost no
 * process start (about 0.8 s of CPU each). Paths must be absolute: this process's working
 * folder is the repository's. Only refusals: a command that simulates would start a worker
 * pool that loads the sources through tsx.
 */
export async function runCliInProcess(args: string[]): Promise<CliResult> {
  const { execute } = await import('../../src/cli/main.js');
  const { forTerminal } = await import('../../src/cli/terminal-text.js');
  let stdout = '', stderr = '';
  // Printed as the process prints it: through forTerminal, one line per call.
  const code = await execute(args, {
    out: (s) => (stdout += forTerminal(s) + '\n'),
    err: (s) => (stderr += forTerminal(s) + '\n'),
    progressStream: process.stderr,
  });
  return { code, stdout, stderr };
}
