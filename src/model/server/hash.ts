/**
 * The one integer hash of the server model: it spreads neighbouring ids (clients, IPs,
 * actions) uniformly, for deterministic choices such as which IPs an edge rule blocks, where
 * in a Retry-After window a client lands, and retry detection's fingerprints.
 */

/** A 32-bit integer hash (Murmur3's finaliser). */
export function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
