/**
 * Bridges the scenario's way of writing a distribution to the engine's sampler spec. The
 * file format needs a distinct kind for lognormal-by-parameters (a discriminated union
 * cannot have two "lognormal" options); the engine does not care how it was written.
 */
import type { Distribution } from './schema.js';
import type { DistributionSpec } from '../engine/distributions.js';

export function toDistributionSpec(d: Distribution): DistributionSpec {
  if (d.kind === 'lognormal-params') return { kind: 'lognormal', mu: d.mu, sigma: d.sigma };
  return d as DistributionSpec;
}
