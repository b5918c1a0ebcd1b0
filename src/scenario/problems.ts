/**
 * What is wrong with a scenario file, said once and well: a problem knows where it is
 * (file:line:col and the path inside the scenario), what is wrong and, where we can tell,
 * what would be right. All user-facing wording for scenario errors lives here.
 */

export interface Problem {
  file: string;
  line: number;
  col: number;
  /** Dotted path inside the scenario, e.g. clients.app.retry.timeout ('' for the whole file). */
  path: string;
  message: string;
}

/** Thrown by the loader; carries every problem found, so the user fixes them in one pass. */
export class ScenarioError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ScenarioError';
    this.problems = problems;
  }
}

export function formatProblem(p: Problem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.col}` : p.file;
  return p.path ? `${where}  ${p.path}: ${p.message}` : `${where}  ${p.message}`;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

/** Levenshtein distance, small and plain: keys are short. */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The closest known key, when it is close enough to be a likely typo. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = key.toLowerCase();
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestD) { bestD = d; best = k; }
  }
  // A third of the key, rounded up: "retires" (7 letters) is 3 edits from "retry".
  const allowed = Math.max(2, Math.ceil(key.length / 3));
  return bestD <= allowed ? best : undefined;
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const guess = closest(key, known);
  if (guess) return `unknown key "${key}" (did you mean "${guess}"?)`;
  return known.length ? `unknown key "${key}" (expected one of: ${known.join(', ')})` : `unknown key "${key}"`;
}
