/**
 * Reads a file the user named (a deployed config beside a scenario, a results folder's
 * files), never more than a bound: only a regular file (a device such as /dev/zero, a pipe
 * or a folder is refused before any byte is read), and at most `maxBytes` of it, counted as
 * read rather than trusted from its size (a /proc file says 0 and holds gigabytes). A read
 * past the bound stops at one byte over and is refused, instead of aborting the process on
 * memory.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export type BoundedRead =
  | { ok: true; text: string }
  | { ok: false; why: 'missing' | 'not-a-file' | 'too-large' | 'unreadable'; detail: string };

/** Reads chunks of this size: a small file costs little, a large one grows as it is read. */
const CHUNK = 64 * 1024;

export function readBounded(file: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, why: code === 'ENOENT' ? 'missing' : 'unreadable', detail: code ?? String(e) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, why: 'not-a-file', detail: st.isDirectory() ? 'a folder' : 'a device or a pipe' };
    if (st.size > maxBytes) return { ok: false, why: 'too-large', detail: `${st.size} bytes` };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      let k: number;
      try {
        k = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        return { ok: false, why: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
      }
      if (k === 0) break;
      chunks.push(k === buf.length ? buf : buf.subarray(0, k));
      total += k;
      if (total > maxBytes) return { ok: false, why: 'too-large', detail: `more than ${maxBytes} bytes` };
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}
