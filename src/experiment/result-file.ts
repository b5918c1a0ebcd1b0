/**
 * The files of a results folder are read whole (summary.json, the CSVs, runs.json), so each
 * is bounded: a regular file of at most RESULT_FILE_BYTES. A results folder whose file is a
 * link to /dev/zero, or a file past what a string can hold, is refused with one line naming
 * it, instead of aborting on memory. One rule for `report` and `merge`.
 */
import type { BoundedRead } from '../scenario/bounded-read.js';

/** 512 MiB: about the longest string V8 makes (2^29 - 24 characters); the flagship's runs.json is tens of MB. */
export const RESULT_FILE_BYTES = 512 * 1024 * 1024;

/** The refusal of a results file that cannot be read whole. */
export function resultFileProblem(path: string, r: Extract<BoundedRead, { ok: false }>): string {
  switch (r.why) {
    case 'missing': return `${path}: no such file`;
    case 'not-a-file': return `${path} is ${r.detail}, not a file: a results folder holds the files retrystorm wrote`;
    case 'too-large': return `${path} is ${r.detail}, above the ${RESULT_FILE_BYTES / 2 ** 20} MiB a results file may hold: it is not one retrystorm wrote`;
    case 'unreadable': return `${path}: cannot be read (${r.detail})`;
  }
}
