/**
 * `retrystorm validate FILE...` and `retrystorm schema`: check scenario files, print the JSON
 * Schema. Neither simulates, so neither loads the model, the worker pool or the report
 * renderer (a CI step that validates every scenario starts each check in a fraction of the
 * time `run` takes to start).
 */
import { ScenarioError } from '../scenario/problems.js';
import { STDIN, STDIN_NAME } from '../scenario/read-source.js';
import { editorSchema } from './docs.js';
import { EXIT, UsageError } from './errors.js';
import { loadInput, type Io } from './scenario-input.js';

export async function validateCommand(files: string[], io: Io, opts: { allowOutside?: boolean } = {}): Promise<number> {
  if (files.length === 0) throw new UsageError('name the scenario file(s) to check (- reads standard input)');
  if (files.filter((f) => f === STDIN).length > 1) throw new UsageError('"-" (standard input) can be read once: name it once');
  let bad = 0;
  for (const f of files) {
    try {
      const loaded = await loadInput(f, opts); // what its expectations and objectives name too
      const points = loaded.points.length > 1 ? `, ${loaded.points.length} sweep points` : '';
      io.out(`${f === STDIN ? STDIN_NAME : f}: ok (${loaded.variants.length} variant(s): ${loaded.variants.map((v) => v.name).join(', ')}${points})`);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      bad++;
      io.err(e.message);
    }
  }
  if (bad > 0) io.err(`${bad} of ${files.length} file(s) invalid`);
  return bad > 0 ? EXIT.badInput : EXIT.ok;
}

export async function schemaCommand(io: Io): Promise<number> {
  io.out(JSON.stringify(editorSchema(), null, 2));
  return EXIT.ok;
}
