/**
 * The order of dotted versions ("4.2.0", "10.1"), compared number by number: as strings,
 * "10.0.0" would sort before "9.0.0". Part of the format's vocabulary because the scenario
 * checks versions against known ranges (a preset's release lines); the model's min-version
 * stage compares client versions with the same rule (src/model/version.ts).
 */

/**
 * What a client version looks like: whole numbers separated by dots ("4.2.0", "10.1").
 * Pre-release tags ("4.3.0-beta") are not accepted: their order has rules of its own
 * (semver §11) that nothing here needs. The model compares them number by number.
 */
export const VERSION_PATTERN = /^\d+(\.\d+)*$/;

/**
 * Negative when a < b, 0 when equal, positive when a > b. A missing part counts as 0, so
 * "4.3" equals "4.3.0": a release line written short is the same version.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number), pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
