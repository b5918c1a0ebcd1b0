/**
 * Durations and rates as people write them in scenario files ("250ms", "1h30m", "2000/s",
 * "100/min"), turned into plain seconds and per-second numbers. Parsing lives here, apart
 * from the schema, so that the grammar and its error messages are defined once.
 *
 * Units are lowercase, in durations and rates alike: "M" could mean months as well as
 * minutes, so a capital is refused with the lowercase spelling to use, never guessed.
 * The JSON Schema's patterns (json-schema.ts) follow the same rule.
 */

const DURATION_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };
const RATE_UNITS: Record<string, number> = {
  s: 1, sec: 1, second: 1,
  m: 1 / 60, min: 1 / 60, minute: 1 / 60,
  h: 1 / 3600, hour: 1 / 3600,
  d: 1 / 86400, day: 1 / 86400,
};

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

export type ParseResult = { ok: true; value: number } | { ok: false; message: string };

const DURATION_HINT = 'write a number with a unit, e.g. "250ms", "30s", "12m", "1h30m"';

/** Units spelled out, as people write them, and the unit a duration writes instead. */
const SPELLED_UNITS: Record<string, string> = {
  msec: 'ms', msecs: 'ms', millisecond: 'ms', milliseconds: 'ms',
  sec: 's', secs: 's', second: 's', seconds: 's',
  min: 'm', mins: 'm', minute: 'm', minutes: 'm',
  hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  day: 'd', days: 'd',
};

/** What "20min", "10 seconds" or "1h 30m" meant, written as a duration; undefined when it is not that kind of slip. */
function durationMeant(s: string): string | undefined {
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gi)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('') !== s) return undefined;
  const written = parts.map((m) => m[1] + (SPELLED_UNITS[m[2].toLowerCase()] ?? m[2].toLowerCase())).join('');
  return written !== s && parseDuration(written).ok ? written : undefined;
}

/** Parses "250ms", "12m", "1h30m", "1.5s" into seconds. A bare number is refused: units are not guessed. */
export function parseDuration(text: unknown): ParseResult {
  if (typeof text === 'number') {
    return { ok: false, message: `a duration needs a unit: ${DURATION_HINT} (got the bare number ${text})` };
  }
  if (typeof text !== 'string') return { ok: false, message: `expected a duration: ${DURATION_HINT}` };
  const s = text.trim();
  if (s.startsWith('-')) return { ok: false, message: `a duration cannot be negative (got "${text}"): write 0s or more, e.g. "250ms", "30s"` };
  if (s === '') return { ok: false, message: `expected a duration: ${DURATION_HINT}` };
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < s.length) {
    const at = DURATION_PART.lastIndex;
    const m = DURATION_PART.exec(s);
    if (!m) {
      const bare = /^\d+(\.\d+)?$/.test(s);
      if (s !== s.toLowerCase() && parseDuration(s.toLowerCase()).ok) {
        return { ok: false, message: `units are written in lowercase: write "${s.toLowerCase()}" (got "${text}")` };
      }
      const meant = durationMeant(s);
      if (meant !== undefined) return { ok: false, message: `"${text}" is not a duration: the units are ms, s, m, h and d, written without spaces; write "${meant}"` };
      return {
        ok: false,
        message: bare
          ? `a duration needs a unit: ${DURATION_HINT} (got "${text}")`
          : `"${text}" is not a duration (unreadable from "${s.slice(at)}"): ${DURATION_HINT} (the units are ms, s, m, h and d)`,
      };
    }
    total += Number(m[1]) * DURATION_UNITS[m[2]];
  }
  if (!Number.isFinite(total)) return { ok: false, message: `"${text}" is too large to be a duration` };
  return { ok: true, value: total };
}

const RATE_HINT = 'write a count per unit of time, e.g. "800/s", "100/min", "5000/h"';

/** Parses "2000/s", "100/min", "0.5/s" into events per second. */
export function parseRate(text: unknown): ParseResult {
  if (typeof text === 'number') {
    return { ok: false, message: `a rate needs a unit: ${RATE_HINT} (got the bare number ${text})` };
  }
  if (typeof text !== 'string') return { ok: false, message: `expected a rate: ${RATE_HINT}` };
  const m = /^\s*(-?\d+(?:\.\d+)?(?:e\d+)?)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  if (!m) {
    const bare = /^\s*-?\d+(\.\d+)?\s*$/.test(text);
    return {
      ok: false,
      message: bare ? `a rate needs a unit: ${RATE_HINT} (got "${text}")` : `"${text}" is not a rate: ${RATE_HINT}`,
    };
  }
  const unit = Object.hasOwn(RATE_UNITS, m[2]) ? RATE_UNITS[m[2]] : undefined;
  if (unit === undefined) {
    const lower = m[2].toLowerCase();
    if (Object.hasOwn(RATE_UNITS, lower)) return { ok: false, message: `units are written in lowercase: write "${text.trim().replace(m[2], lower)}" (got "${text}")` };
    return { ok: false, message: `unknown time unit "${m[2]}" in rate "${text}": use /s, /min, /h or /d` };
  }
  const value = Number(m[1]);
  if (value < 0) return { ok: false, message: `a rate cannot be negative (got "${text}"): write 0 or more, e.g. "800/s"` };
  if (!Number.isFinite(value)) return { ok: false, message: `"${text}" is too large to be a rate` };
  return { ok: true, value: value * unit };
}

/**
 * A bare number of seconds written with its unit, for a message that suggests one: `"300s" (= 5m)`.
 * The suggestion must mean what the number meant where it was read as seconds: "300m" would be
 * five hours. The compact form is added when it reads differently.
 */
export function secondsWithUnit(seconds: number): string {
  const written = `"${seconds}s"`;
  if (!Number.isFinite(seconds) || seconds < 0) return written;
  const compact = formatDuration(seconds);
  return compact === `${seconds}s` ? written : `${written} (= ${compact})`;
}

/** Formats seconds back into the compact form people write ("1h30m", "250ms"), for messages and reports. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds === 0) return '0s';
  if (seconds < 1) return `${+(seconds * 1000).toFixed(3)}ms`;
  let rest = Math.round(seconds * 1000) / 1000;
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]] as const) {
    const k = Math.floor(rest / size);
    if (k > 0) { parts.push(`${k}${unit}`); rest -= k * size; }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${+rest.toFixed(3)}s`);
  return parts.join('');
}
