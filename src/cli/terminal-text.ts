/**
 * Everything the CLI prints goes through `forTerminal`: text from scenario files with its
 * control characters shown as escapes, never obeyed (src/report/visible-text.ts says why).
 */
import { showControls } from '../report/visible-text.js';

export function forTerminal(text: string): string {
  return showControls(text);
}
