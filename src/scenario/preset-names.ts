/**
 * The names of the library presets a retry layer can start from: the format's vocabulary,
 * so the schema can list them without reaching up into the model, where the preset values
 * live (src/model/client/presets.ts). A new preset is added here first, in one place.
 */
export const PRESET_NAMES = [
  'got',
  'axios-retry',
  'urllib3',
  'go-retryablehttp',
  'okhttp',
  'grpc',
  'aws-sdk-js-v3',
  'envoy',
  'finagle',
  'resilience4j',
  'polly',
  'sqs',
  'rabbitmq-quorum',
  'celery',
] as const;

export type PresetName = (typeof PRESET_NAMES)[number];
