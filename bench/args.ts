/**
 * The benchmarks' flags, read the same way by each (`--name value`): they are small scripts
 * run by hand, so a wrong value is an error with the flag's name, not a silent default.
 */

/** The value after `--name`, or undefined when the flag is absent. */
export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A whole number >= 1 given as `--name N`, or `fallback` when the flag is absent. */
export function wholeNumber(args: string[], name: string, fallback: number): number {
  const v = flag(args, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number >= 1 (got ${v})`);
  return n;
}
