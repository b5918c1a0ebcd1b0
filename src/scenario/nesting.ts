/**
 * Refuses a file nested deeper than LIMITS.nesting before it is parsed. The YAML composer
 * and the validator recurse, so ten thousand nested brackets ended in "Maximum call stack
 * size exceeded" at an arbitrary place; and building the syntax tree of a megabyte of "[" took
 * seconds and a gigabyte. The lexer is a flat stream of tokens, so this check stops at the
 * first token past the limit, in time proportional to where that token is.
 *
 * The depth counted is an upper bound on the structure's: flow brackets, plus one level
 * per block node whose column is right of the enclosing one's (a new line's first token,
 * or what follows "- ", "? " or ": " on the same line). A scenario counts about 10.
 */
import { Lexer } from 'yaml';
import { LIMITS } from './limits.js';

export interface TooDeep {
  /** Offset in the source of the token past the limit. */
  offset: number;
  depth: number;
}

// Token types of yaml's lexer: control markers that take no room in the source.
const SCALAR = '\x1f';
const DOC_MODE = '\x02';
const FLOW_ERROR_END = '\x18';

export function tooDeep(source: string, limit: number = LIMITS.nesting): TooDeep | undefined {
  let offset = 0;
  let flow = 0;
  // Columns of the open block nodes, innermost last.
  const columns: number[] = [];
  let lineStart = 0;
  let atLineStart = true;
  let afterIndicator = false;
  for (const token of new Lexer().lex(source)) {
    if (token === SCALAR || token === DOC_MODE || token === FLOW_ERROR_END) continue;
    const at = offset;
    offset += token.length;
    const c = token[0];
    if (token === '\n' || token === '\r\n') {
      lineStart = offset;
      atLineStart = true;
      afterIndicator = false;
      continue;
    }
    if (c === ' ' || c === '\t') {
      // Indentation or spacing; a block scalar's body also starts with spaces but spans lines.
      const nl = token.lastIndexOf('\n');
      if (nl >= 0) { lineStart = at + nl + 1; atLineStart = true; afterIndicator = false; }
      continue;
    }
    if (c === '#') continue;
    if (token === '{' || token === '[') {
      flow++;
      if (flow + columns.length > limit) return { offset: at, depth: flow + columns.length };
      continue;
    }
    if (token === '}' || token === ']') {
      flow = Math.max(0, flow - 1);
      continue;
    }
    if (flow > 0) continue;
    if (atLineStart || afterIndicator) {
      const col = at - lineStart;
      while (columns.length > 0 && columns[columns.length - 1] >= col) columns.pop();
      columns.push(col);
      if (columns.length > limit) return { offset: at, depth: columns.length };
    }
    atLineStart = false;
    afterIndicator = token === '-' || token === '?' || token === ':';
    // A quoted scalar may span lines: columns count from the last line it touches.
    const nl = token.lastIndexOf('\n');
    if (nl >= 0) lineStart = at + nl + 1;
  }
  return undefined;
}
