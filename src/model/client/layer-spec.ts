/**
 * A retry layer as the simulator uses it, and the built-in defaults every field starts
 * from (resolve-layer.ts lays a preset and the scenario's fields over them). The defaults
 * describe a layer that does not retry: a layer only multiplies attempts when something
 * says it should.
 */
import type { BudgetSpec, BreakerSpec } from '../../scenario/schema.js';

export type Jitter = 'none' | 'full' | 'equal' | 'decorrelated' | 'decorrelated-v2' | 'proportional';
export type RetryOnItem = 'timeout' | 'reset' | '5xx' | '4xx' | number;

export interface BackoffSpec {
  kind: 'none' | 'constant' | 'linear' | 'exponential' | 'visibility';
  base: number;
  multiplier: number;
  max: number;
  jitter: Jitter;
  jitterFactor: number;
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
  retryAfter: { mode: 'ignore' | 'honour' | 'cap' | 'give-up'; cap: number; max: number };
  budget?: BudgetSpec;
  breaker?: BreakerSpec;
  deadLetter: boolean;
}

/** What a layer is when nothing is said: one try, no timeout, retries (if enabled) on timeouts, resets, 5xx and 429. */
export const LAYER_DEFAULTS: Omit<LayerSpec, 'name'> = {
  maxAttempts: 1,
  timeout: Infinity,
  deadline: Infinity,
  backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 10, jitter: 'full', jitterFactor: 0.2 },
  retryOn: ['timeout', 'reset', '5xx', 429],
  retryable: 'honour',
  retryAfter: { mode: 'ignore', cap: Infinity, max: Infinity },
  deadLetter: false,
};

/** A layer as written in a preset: any field, durations in seconds. */
export type PresetLayer = Partial<Omit<LayerSpec, 'name' | 'backoff' | 'retryAfter'>> & {
  backoff?: Partial<BackoffSpec>;
  retryAfter?: Partial<LayerSpec['retryAfter']>;
};

export interface Preset {
  /** Library and the version whose defaults these are. */
  library: string;
  version: string;
  /** Where the values come from (documentation or source file at that version). */
  source: string;
  /** What the preset cannot express, or simplifies. */
  notes?: string;
  layer: PresetLayer;
}
