/**
 * The names of the library presets a retry layer can start from. Kept apart from the
 * preset values (presets.ts) so that the scenario schema can list them without importing
 * the values, and so that a new preset is added here first, in one place.
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
