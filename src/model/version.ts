/**
 * Client versions as a server compares them (story 000: "record the client version in
 * every request and define a minimum supported version"). Versions are dotted whole
 * numbers ("4.2.0", "10.1"), compared number by number. What a version may look like is the
 * format's rule (VERSION_PATTERN in src/scenario/version-order.ts), and so is their order
 * (src/scenario/version-order.ts), which a preset's release lines need too: the model takes
 * both from there.
 */
export { compareVersions } from '../scenario/version-order.js';
