/**
 * `retrystorm validate FILE...` and `retrystorm schema`: check scenario files, print the JSON
 * Schema. Neither simulates, so neither loads the model, the worker pool or the report
 * renderer (a CI step that validates every scenario starts each check in a fraction of the
 * time `run` takes to start).
 */
import { ScenarioError, type Problem } from '../scenario/problems.js';
import { STDIN, STDIN_NAME } from '../scenario/read-source.js';
import { editorSchema } from './docs.js';
import { EXIT, UsageError } from './errors.js';
import { loadInput, printStyled, type Io } from './scenario-input.js';
import { styled } from './colour.js';

/**
 * What `validate --json` prints, one document for every file named (README, "Output for
 * scripts"); `format` names this shape, and changes when it does.
 */
export const VALIDATE_JSON_FORMAT = 'retrystorm-validate/1';

interface ValidateJson {
  format: typeof VALIDATE_JSON_FORMAT;
  /** Every file is valid (the exit code is then 0, else 2). */
  ok: boolean;
  files: Array<{ file: string; ok: boolean; variants: string[] | null; sweepPoints: number | null }>;
  /** Every problem of every file, in each file's order; line and col are null for a problem of the whole file (it cannot be read). */
  problems: Array<{ file: string; line: number | null; col: number | null; path: string; message: string }>;
  /** What the files' deployed configs hold that does not change the load (the files are valid). */
  warnings: Array<{ file: string; line: number | null; col: number | null; path: string; message: string }>;
}

export async function validateCommand(files: string[], io: Io, opts: { allowOutside?: boolean; json?: boolean } = {}): Promise<number> {
  if (files.length === 0) throw new UsageError('name the scenario file(s) to check (- reads standard input)');
  if (files.filter((f) => f === STDIN).length > 1) throw new UsageError('"-" (standard input) can be read once: name it once');
  let bad = 0;
  const doc: ValidateJson = { format: VALIDATE_JSON_FORMAT, ok: true, files: [], problems: [], warnings: [] };
  for (const f of files) {
    const shown = f === STDIN ? STDIN_NAME : f;
    try {
      const loaded = await loadInput(f, { ...opts, ...(opts.json ? {} : { warn: (line: string) => io.err(line) }) }); // what its expectations and objectives name too
      doc.warnings.push(...loaded.warnings.map(problemJson));
      const names = loaded.variants.map((v) => v.name);
      doc.files.push({ file: shown, ok: true, variants: names, sweepPoints: loaded.points.length });
      const points = loaded.points.length > 1 ? `, ${loaded.points.length} sweep points` : '';
      if (!opts.json) printStyled(io, [`${shown}: `, styled('pass', 'ok'), ` (${loaded.variants.length} variant(s): ${names.join(', ')}${points})`]);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      bad++;
      doc.files.push({ file: shown, ok: false, variants: null, sweepPoints: null });
      doc.problems.push(...e.problems.map(problemJson));
      if (!opts.json) io.err(e.message);
    }
  }
  doc.ok = bad === 0;
  if (opts.json) io.out(JSON.stringify(doc, null, 2));
  else if (bad > 0) io.err(`${bad} of ${files.length} file(s) invalid`);
  return bad > 0 ? EXIT.badInput : EXIT.ok;
}

function problemJson(p: Problem): ValidateJson['problems'][number] {
  const placed = p.line > 0;
  return { file: p.file, line: placed ? p.line : null, col: placed ? p.col : null, path: p.path, message: p.message };
}

export async function schemaCommand(io: Io): Promise<number> {
  io.out(JSON.stringify(editorSchema(), null, 2));
  return EXIT.ok;
}
