/**
 * Text from scenario files (keys, names, the question) reaches the terminal and summary.md.
 * A control character in it would be obeyed, not shown: ESC starts a sequence that can
 * recolour, move the cursor, retitle the window or (OSC 8) forge a link; BEL rings; a carriage
 * return overwrites the line; a bidirectional override reorders what is read. `showControls`
 * writes such characters as escapes (\u001b) instead. Newlines and tabs are layout, and stay.
 * One rule for every writer: the terminal (src/cli/terminal-text.ts) and summary.md.
 */

// C0 controls but \t and \n, DEL, C1 controls, and the Unicode bidirectional controls.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function showControls(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
