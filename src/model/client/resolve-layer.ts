/**
 * A retry layer resolved from, in order, the built-in defaults (layer-spec.ts), the layer's
 * preset (a real library's documented defaults, presets.ts, at the release line the scenario
 * named or the current one) and what the scenario wrote. It sits apart from both so that
 * neither the layer's shape nor the presets need the other's values.
 *
 * This is the one place where layer defaults are applied, late, instead of in the schema:
 * a default there would hide whether the scenario or the preset said something.
 */
import type { LayerInput } from '../../scenario/schema.js';
import { parsePresetRef } from '../../scenario/preset-names.js';
import { LAYER_DEFAULTS, type LayerSpec, type PresetLayer } from './layer-spec.js';
import { PRESETS } from './presets.js';

/**
 * The layer a preset reference (`name` or `name@version`) stands for: the preset's common
 * fields with its release line's differences laid over them. The scenario schema has already
 * checked the reference; a bad one here is a programming error.
 */
export function presetLayer(ref: string): PresetLayer {
  const r = parsePresetRef(ref);
  if ('error' in r) throw new Error(r.error);
  const preset = PRESETS[r.name];
  const release = preset.releases?.[r.line];
  if (!release) return preset.layer;
  const over = release.layer;
  return {
    ...preset.layer,
    ...over,
    backoff: { ...preset.layer.backoff, ...over.backoff },
    retryAfter: { ...preset.layer.retryAfter, ...over.retryAfter },
  };
}

type Partialish = PresetLayer | LayerInput;

export function resolveLayer(name: string, input: LayerInput): LayerSpec {
  const preset: PresetLayer = input.preset ? presetLayer(input.preset) : {};
  const pick = <K extends keyof Partialish>(k: K) => (input[k as keyof LayerInput] ?? preset[k as keyof PresetLayer]) as never;
  return {
    name,
    maxAttempts: pick('maxAttempts') ?? LAYER_DEFAULTS.maxAttempts,
    timeout: pick('timeout') ?? LAYER_DEFAULTS.timeout,
    deadline: pick('deadline') ?? LAYER_DEFAULTS.deadline,
    backoff: { ...LAYER_DEFAULTS.backoff, ...defined(preset.backoff), ...defined(input.backoff) },
    retryOn: pick('retryOn') ?? LAYER_DEFAULTS.retryOn,
    retryable: pick('retryable') ?? LAYER_DEFAULTS.retryable,
    retryAfter: { ...LAYER_DEFAULTS.retryAfter, ...defined(preset.retryAfter), ...defined(input.retryAfter) },
    budget: pick('budget'),
    breaker: pick('breaker'),
    deadLetter: pick('deadLetter') ?? LAYER_DEFAULTS.deadLetter,
    // No library preset hedges by default: only the scenario turns it on.
    hedge: input.hedge,
  };
}

/** Drops undefined fields so that spreading does not erase a default with "not said". */
function defined<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
