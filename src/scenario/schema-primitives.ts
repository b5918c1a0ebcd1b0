/**
 * The building blocks every part of the scenario schema uses: durations and rates with
 * units, names, bounded whole numbers. One definition each, so every duration in the file
 * is read, explained and reported the same way.
 */
import { z } from 'zod';
import { parseDuration, parseRate } from './units.js';
import { formatCount } from './limits.js';
import { VERSION_PATTERN } from './version-order.js';

/** A duration with a unit; `positive` where 0s would make the thing it sizes divide by zero or never act. */
export const durationSchema = (what: string, { positive = false }: { positive?: boolean } = {}) =>
  z
    .union([z.string(), z.number()], { error: () => 'expected a duration such as "250ms", "12m" or "1h30m"' })
    .transform((text, ctx) => {
      const r = parseDuration(text);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      if (positive && !(r.value > 0)) {
        ctx.addIssue({ code: 'custom', message: `must be longer than 0s (got ${String(text)})` });
        return z.NEVER;
      }
      return r.value;
    })
    .meta({ description: `${what} A duration with a unit: "250ms", "30s", "12m", "1h30m", "1d".`, 'x-unit': 'duration' });

/** A count per unit of time; `positive` where a rate of 0 would divide by zero or never act. */
export const rateSchema = (what: string, { positive = false }: { positive?: boolean } = {}) =>
  z
    .union([z.string(), z.number()], { error: () => 'expected a rate such as "800/s" or "100/min"' })
    .transform((text, ctx) => {
      const r = parseRate(text);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      if (positive && !(r.value > 0)) {
        ctx.addIssue({ code: 'custom', message: `must be more than 0/s (got ${String(text)})` });
        return z.NEVER;
      }
      return r.value;
    })
    .meta({ description: `${what} A count per unit of time: "800/s", "100/min", "5000/h".`, 'x-unit': 'rate' });

// Patterns without the /i flag: JSON Schema has no flags, and editors must accept what the CLI accepts.
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const ROUTE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_/-]*$/;

/** A name of a population, variant, layer or dependency: it becomes a file and column name. */
export const name = z
  .string({ error: 'expected a name: letters, digits, "-" and "_"' })
  .regex(NAME_PATTERN, 'use letters, digits, "-" and "_", starting with a letter or digit (it becomes a file and column name)')
  // Shown by editors (yaml-language-server) instead of the regular expression.
  .meta({ patternErrorMessage: 'A name uses letters, digits, "-" and "_", starting with a letter or digit.' });

/** A route's name ("login", "api/v2"). */
export const routeName = z
  .string({ error: 'expected a route name: letters, digits, "-", "_" and "/"' })
  .regex(ROUTE_PATTERN, 'use letters, digits, "-", "_" and "/", starting with a letter or digit')
  .meta({ patternErrorMessage: 'A route uses letters, digits, "-", "_" and "/", starting with a letter or digit.' });

export const positiveInt = (max: number, what: string) =>
  z
    .number({ error: `expected a whole number (${what})` })
    .int(`expected a whole number (${what})`)
    .min(1, `must be at least 1 (${what})`)
    .max(max, `at most ${formatCount(max)} ${what} (this is a simulator limit, to keep a run within memory and time)`);

/** "none" or a duration; "none" comes out as Infinity (no limit). */
export const durationOrNone = (what: string) =>
  z
    .union([z.literal('none'), durationSchema(what)])
    .transform((v) => (v === 'none' ? Infinity : v));

/** A client version, dotted whole numbers ("4.2.0"), compared number by number (src/model/version.ts). */
export const versionSchema = (what: string) =>
  z
    .string({ error: 'expected a version in quotes, such as "4.2.0"' })
    .regex(VERSION_PATTERN, 'expected a version of dotted whole numbers, such as "4.2.0"')
    .meta({ description: what, patternErrorMessage: 'A version is dotted whole numbers in quotes, such as "4.2.0".' });
