/**
 * Colour in what the CLI prints: PASS in green, FAIL in red, a heading in bold, a warning in
 * yellow, so a verdict reads at a glance on a terminal. Never where it would be noise: only
 * on a terminal (a pipe, a file or a CI log gets the plain bytes it always got), never with
 * NO_COLOR set (https://no-color.org), and always with FORCE_COLOR set (to anything but 0 or
 * false), in that order of precedence, as Node's own `hasColors` takes them.
 *
 * A coloured line is written as parts, so that the text in it (names from a scenario file) is
 * still shown through forTerminal, its control characters escaped, while the colour codes,
 * added after, are the CLI's own: a scenario cannot colour the terminal, or do worse.
 */
import { forTerminal } from './terminal-text.js';

export type Style = 'pass' | 'fail' | 'heading' | 'warn';

/** A line in parts: plain text, or text in a style. */
export type StyledLine = ReadonlyArray<string | { style: Style; text: string }>;

/** Select Graphic Rendition codes: on, and the code that ends only that attribute. */
const SGR: Record<Style, [number, number]> = {
  pass: [32, 39],
  fail: [31, 39],
  heading: [1, 22],
  warn: [33, 39],
};

/** The line as text, without colour. */
export function plainText(line: StyledLine): string {
  return line.map((p) => (typeof p === 'string' ? p : p.text)).join('');
}

/** The line for a terminal: every text shown through forTerminal, the styles' codes added when `colour`. */
export function renderLine(line: StyledLine, colour: boolean): string {
  if (!colour) return forTerminal(plainText(line));
  return line.map((p) => {
    if (typeof p === 'string') return forTerminal(p);
    const [on, off] = SGR[p.style];
    return `\u001b[${on}m${forTerminal(p.text)}\u001b[${off}m`;
  }).join('');
}

/** Whether to colour what goes to `stream`, by the environment's say first, the stream's kind second. */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !/^(0|false)$/i.test(force.trim());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** A styled part. */
export const styled = (style: Style, text: string) => ({ style, text });
