/**
 * Sizes of memory as people write them on a command line: 512MiB, 4GiB, 2GB. Binary units
 * (KiB, MiB, GiB, TiB) are powers of 1024, decimal ones (kB, MB, GB, TB) powers of 1000, and
 * a bare number is refused, as the scenario format refuses a duration without a unit.
 */
const UNITS: Record<string, number> = {
  B: 1,
  KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4,
  kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12,
};

/** Bytes, or a message saying what is wrong and what would be right. */
export function parseByteSize(text: string): number | string {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$/.exec(text);
  const unit = m ? UNITS[m[2]] : undefined;
  if (!m || unit === undefined) return `expected a size with a unit such as 512MiB or 4GiB (got "${text}")`;
  const bytes = Math.round(Number(m[1]) * unit);
  if (!(bytes > 0) || !Number.isFinite(bytes)) return `expected a size above 0 (got "${text}")`;
  return bytes;
}
