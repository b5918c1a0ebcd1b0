/**
 * The names of the library presets a retry layer can start from, and the release lines of
 * the libraries whose retry behaviour changed from one version to the next: the format's
 * vocabulary, so the schema can check `preset: name` and `preset: name@version` without
 * reaching up into the model, where the preset values live (src/model/client/presets.ts).
 * A new preset (or a new release line) is added here first, in one place.
 *
 * A release line is a range of versions [from, until) with the same retry behaviour; the
 * boundaries are the first releases that behave differently. The last line is the current
 * release, which `preset: name` (no version) means. presets.ts gives one set of values per
 * line, in the same order.
 */
import { VERSION_PATTERN, compareVersions } from './version-order.js';

export const PRESET_NAMES = [
  'got',
  'axios-retry',
  'urllib3',
  'go-retryablehttp',
  'okhttp',
  'grpc',
  'grpc-java',
  'grpc-go',
  'grpc-js',
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

/**
 * Per preset, the versions at which a release line starts, oldest first: line i covers
 * [boundaries[i], boundaries[i+1]), the last one has no end. "0" means "every earlier
 * release". A preset without an entry models something that has no versions of its own
 * (a protocol's specification, a managed service's API): it takes no `@version`.
 * Where a single version is listed, that is the release the preset was checked at; later
 * releases are taken to behave the same until someone checks otherwise (docs/presets.md).
 */
export const PRESET_RELEASES: Partial<Record<PresetName, readonly string[]>> = {
  got: ['14.4.7'],
  'axios-retry': ['4.0.0', '4.2.0'],
  urllib3: ['1.26.0', '2.6.3'],
  'go-retryablehttp': ['0.7.7'],
  okhttp: ['5.1.0'],
  'grpc-java': ['0', '1.71.0', '1.80.0'],
  'grpc-go': ['0', '1.69.0'],
  'grpc-js': ['0', '1.14.0'],
  'aws-sdk-js-v3': ['3.341.0', '3.362.0', '3.1009.0', '3.1026.0', '3.1166.0'],
  envoy: ['1.39.0'],
  finagle: ['24.2.0'],
  resilience4j: ['2.3.0'],
  polly: ['8.5.2'],
  'rabbitmq-quorum': ['4.0.0'],
  celery: ['5.5.3'],
};

/**
 * Releases from which a client declares caret ranges (^4.0.0) on the packages its retry
 * behaviour lives in, so that installing it today resolves their newest releases and it
 * behaves as the current line, whatever its own version. `name@version` means that fresh
 * install, what a user upgrading today gets; `name@version+locked` means the packages its
 * lockfile resolved in its day, the release line of `version` (docs/presets.md, "Versions").
 * Measured on the real packages (@aws-sdk/client-sts 3.723.0, 3.1008.0, 3.1009.0, 3.1025.0
 * and 3.1026.0, installed on 2026-12-07: @smithy/core 3.41.1, middleware-retry 4.8.2).
 */
export const FRESH_INSTALL_FROM: Partial<Record<PresetName, string>> = {
  'aws-sdk-js-v3': '3.723.0',
};

/** The suffix of a version that asks for the packages its lockfile resolved in its day. */
export const LOCKED_SUFFIX = '+locked';

/**
 * Lines that end without a successor: the behaviour after them is known to differ in a way
 * no preset expresses (RabbitMQ 4.3 changed how nacks count), so a version past the end is
 * refused rather than silently given the older behaviour.
 */
const CLOSED_AT: Partial<Record<PresetName, string>> = {
  'rabbitmq-quorum': '4.3.0',
};

/** `name` or `name@version`, as written in a scenario. */
export interface PresetRef {
  name: PresetName;
  /** Index of the release line in PRESET_RELEASES[name]; the last one when no version was written. */
  line: number;
}

/** How a preset reference is written: a preset name, optionally followed by @ and a dotted version. */
export const PRESET_REF_PATTERN = new RegExp(`^(${PRESET_NAMES.join('|')})(@\\d+(\\.\\d+)*(\\+locked)?)?$`);

/** The release lines of a preset, described for people: "before 1.71.0", "from 1.71.0, before 1.80.0", "1.80.0 and later". */
export function describeReleaseLines(name: PresetName): string[] {
  const b = PRESET_RELEASES[name] ?? [];
  const end = CLOSED_AT[name];
  return b.map((from, i) => {
    const until = b[i + 1] ?? end;
    if (from === '0') return until ? `before ${until}` : 'every release';
    return until ? `from ${from}, before ${until}` : `${from} and later`;
  });
}

/**
 * Reads `name` or `name@version`. Returns the preset and its release line, or a message
 * saying what is wrong and what would be right (the scenario loader positions it).
 */
export function parsePresetRef(text: string): PresetRef | { error: string } {
  const at = text.indexOf('@');
  const name = (at < 0 ? text : text.slice(0, at)) as PresetName;
  if (!(PRESET_NAMES as readonly string[]).includes(name)) {
    return { error: `unknown preset "${name}" (expected one of: ${PRESET_NAMES.join(', ')})` };
  }
  const lines = PRESET_RELEASES[name];
  if (at < 0) return { name, line: lines ? lines.length - 1 : 0 };
  const written = text.slice(at + 1);
  const locked = written.endsWith(LOCKED_SUFFIX);
  const version = locked ? written.slice(0, -LOCKED_SUFFIX.length) : written;
  if (!lines) {
    const hint = name === 'grpc' ? ', or name an implementation: grpc-java, grpc-go or grpc-js, which have versions' : '';
    return { error: `the ${name} preset has no versions (it models a specification or a service, not a library release): write preset: ${name}${hint}` };
  }
  if (!VERSION_PATTERN.test(version)) {
    return { error: `expected a version of dotted whole numbers after "@", such as ${name}@${lines[lines.length - 1]}` };
  }
  const fresh = FRESH_INSTALL_FROM[name];
  if (locked && (fresh === undefined || compareVersions(version, fresh) < 0)) {
    return { error: fresh === undefined
      ? `${name} has no "${LOCKED_SUFFIX}": each of its releases fixes its own retry behaviour, so ${name}@${version} is what it always was`
      : `${name}@${version} pins the packages its retries depend on, so "${LOCKED_SUFFIX}" changes nothing: write ${name}@${version} (releases from ${fresh} declare caret ranges, where it matters)` };
  }
  const known = describeReleaseLines(name).join('; ');
  const end = CLOSED_AT[name];
  if (end !== undefined && compareVersions(version, end) >= 0) {
    return { error: `no known behaviour for ${name}@${version}: the preset covers ${known} (see docs/presets.md, "Versions")` };
  }
  // Installed fresh today, a release that declares caret ranges resolves the newest packages: the current line.
  if (!locked && fresh !== undefined && compareVersions(version, fresh) >= 0) return { name, line: lines.length - 1 };
  for (let i = lines.length - 1; i >= 0; i--) {
    if (compareVersions(version, lines[i]) >= 0) return { name, line: i };
  }
  return { error: `no known behaviour for ${name}@${version}: the preset covers ${known} (see docs/presets.md, "Versions")` };
}
