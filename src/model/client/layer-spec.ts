/**
 * A retry layer as the simulator uses it, the shape of a library preset, and the built-in
 * defaults every field starts from (resolve-layer.ts lays a preset and the scenario's fields
 * over them). The defaults describe a layer that does not retry: a layer only multiplies
 * attempts when something says it should.
 */
import type { BudgetSpec, BreakerSpec } from '../../scenario/schema.js';
import type { HedgeSpec } from '../../scenario/schema-clients.js';

export type Jitter = 'none' | 'full' | 'equal' | 'decorrelated' | 'decorrelated-v2' | 'proportional' | 'scaled';
export type RetryOnItem = 'timeout' | 'reset' | '5xx' | '4xx' | number;

export interface BackoffSpec {
  kind: 'none' | 'constant' | 'linear' | 'exponential' | 'visibility';
  base: number;
  multiplier: number;
  max: number;
  jitter: Jitter;
  /** For proportional jitter: cap × (1 ± jitterFactor). */
  jitterFactor: number;
  /** For scaled jitter: cap × uniform(jitterMin, jitterMax). */
  jitterMin: number;
  jitterMax: number;
}

/**
 * What a layer does with a Retry-After (or gRPC pushback) on a failed try; durations in s.
 *  ignore   the backoff alone decides
 *  honour   max(backoff, Retry-After)
 *  cap      max(backoff, min(Retry-After, cap))
 *  give-up  max(backoff, Retry-After), no retry when Retry-After > max
 *  exact    Retry-After itself, at most cap; no retry when Retry-After > max
 *  bounded  max(backoff, min(Retry-After, backoff + bound))
 */
export interface RetryAfterSpec {
  mode: 'ignore' | 'honour' | 'cap' | 'give-up' | 'exact' | 'bounded';
  cap: number;
  max: number;
  bound: number;
}

export interface LayerSpec {
  name: string;
  maxAttempts: number;
  /** Per-try timeout (s); Infinity = none. */
  timeout: number;
  /** Overall deadline of a call to this layer (s); Infinity = none. */
  deadline: number;
  backoff: BackoffSpec;
  retryOn: RetryOnItem[];
  retryable: 'honour' | 'ignore';
  retryAfter: RetryAfterSpec;
  budget?: BudgetSpec;
  breaker?: BreakerSpec;
  deadLetter: boolean;
  /** Hedged requests (innermost layer only); undefined: none. */
  hedge?: HedgeSpec;
}

/** A layer as written in a preset: any field, durations in seconds. */
export type PresetLayer = Partial<Omit<LayerSpec, 'name' | 'backoff' | 'retryAfter'>> & {
  backoff?: Partial<BackoffSpec>;
  retryAfter?: Partial<RetryAfterSpec>;
};

/** The values of one release line of a library (preset-names.ts lists the lines). */
export interface PresetRelease {
  /** The versions this line covers, as people name them ("3.341.0 to 3.1025.x", with the dependency versions that matter). */
  versions: string;
  /** Where this line's values were read. */
  source: string;
  /** What changed at the start of this line, and what the line cannot express. */
  notes: string;
  /** What differs from the preset's common layer; budget and breaker, when given, replace it whole. */
  layer: PresetLayer;
}

export interface Preset {
  /** Library and the version whose defaults these are (for a versioned preset: the current release). */
  library: string;
  version: string;
  /** Where the values come from (documentation or source file at that version). */
  source: string;
  /** What the preset cannot express, or simplifies. */
  notes?: string;
  /** What every release line shares. */
  layer: PresetLayer;
  /** For presets whose behaviour changed by version: one entry per line of PRESET_RELEASES, oldest first. */
  releases?: PresetRelease[];
}

/** What a layer is when nothing is said: one try, no timeout, retries (if enabled) on timeouts, resets, 5xx and 429. */
export const LAYER_DEFAULTS: Omit<LayerSpec, 'name'> = {
  maxAttempts: 1,
  timeout: Infinity,
  deadline: Infinity,
  backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 10, jitter: 'full', jitterFactor: 0.2, jitterMin: 0.8, jitterMax: 1.2 },
  retryOn: ['timeout', 'reset', '5xx', 429],
  retryable: 'honour',
  retryAfter: { mode: 'ignore', cap: Infinity, max: Infinity, bound: Infinity },
  deadLetter: false,
};
