/**
 * Reads a scenario's text from a file or from standard input ("-"), refusing what is too
 * large before any of it is parsed: a regular file by its size, anything else (a pipe,
 * /dev/zero, a terminal) by reading at most one byte past the limit. Parsing a 50 MB file
 * took a minute and gigabytes; refusing it takes a stat.
 */
import { LIMITS, formatCount } from './limits.js';
import { ScenarioError, type Problem } from './problems.js';
import { readBounded } from './bounded-read.js';

/** The file name that means standard input, as most command-line tools read it. */
export const STDIN = '-';
/** How standard input is named in messages (file:line:col). */
export const STDIN_NAME = '<stdin>';

export function sourceName(file: string): string {
  return file === STDIN ? STDIN_NAME : file;
}

function fileProblem(file: string, message: string, line = 0, col = 0): ScenarioError {
  const p: Problem = { file: sourceName(file), line, col, path: '', message };
  return new ScenarioError([p]);
}

/** The refusal of a text already in memory (a library caller's), by its size in bytes. */
export function tooLargeText(file: string, bytes: number): ScenarioError {
  return tooLarge(file, bytes);
}

function tooLarge(file: string, bytes: number | undefined): ScenarioError {
  const size = bytes === undefined ? `more than ${formatCount(LIMITS.fileBytes)} bytes` : `${formatCount(bytes)} bytes`;
  return fileProblem(
    file,
    `is ${size}, above the limit of ${formatCount(LIMITS.fileBytes)} bytes (1 MiB) for a scenario file; scenarios are a few kB: check that this is the file you meant, and keep long texts (descriptions, logs) out of it`,
  );
}

/** Reads a scenario file (not "-"), at most LIMITS.fileBytes of it. Throws a ScenarioError naming the file. */
export function readScenarioText(file: string): string {
  // A device or a pipe has no size to check first: it is read to one byte past the limit at most.
  const r = readBounded(file, LIMITS.fileBytes, { streams: true });
  if (r.ok) return checkText(file, r.text);
  if (r.why === 'too-large') throw tooLarge(file, r.size);
  throw fileProblem(file, r.why === 'missing' ? 'no such file' : r.why === 'not-a-file' ? 'is a directory, not a scenario file' : unreadable(r.code ?? r.detail));
}

/** Reads standard input to its end, at most LIMITS.fileBytes of it. */
export async function readScenarioStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      n += b.length;
      if (n > LIMITS.fileBytes) throw tooLarge(STDIN, undefined);
      chunks.push(b);
    }
  } catch (e) {
    if (e instanceof ScenarioError) {
      // Stop reading: what is left of the input is not wanted.
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw e;
    }
    throw fileProblem(STDIN, unreadable((e as NodeJS.ErrnoException).code ?? String(e)));
  }
  return checkText(STDIN, Buffer.concat(chunks).toString('utf8'));
}

/** A NUL byte means a binary file: say so at the byte, rather than let YAML list what it sees there. */
function checkText(file: string, text: string): string {
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const before = text.slice(0, nul);
    const line = before.split('\n').length;
    const col = nul - before.lastIndexOf('\n');
    throw fileProblem(file, 'is not a text file (it contains a NUL byte here): a scenario is a YAML text file', line, col);
  }
  return text;
}

function unreadable(code: string): string {
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a scenario file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  return `cannot be read (${code})`;
}
