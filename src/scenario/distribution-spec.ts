/**
 * Bridges the scenario's way of writing a distribution to the engine's sampler spec. The
 * file format needs a distinct kind for lognormal-by-parameters (a discriminated union
 * cannot have two "lognormal" options); an empirical distribution read from a file is the
 * inverse-CDF table the loader read from it (its `data`); the engine does not care how it
 * was written.
 */
import type { Distribution } from './schema.js';
import type { DistributionSpec } from '../engine/distributions.js';

export function toDistributionSpec(d: Distribution): DistributionSpec {
  if (d.kind === 'lognormal-params') return { kind: 'lognormal', mu: d.mu, sigma: d.sigma };
  if (d.kind === 'empirical' && d.file !== undefined) {
    // The schema refuses a file distribution without its data; an unread one draws nothing.
    if (!d.data) throw new Error('an empirical distribution from a file without its data: such scenarios are read by the loader (loadScenario)');
    return { kind: 'inverse-cdf', probs: d.data.probs, values: d.data.values };
  }
  return d as DistributionSpec;
}
