/**
 * Reads a file the user named (a scenario, a deployed config beside it, a results folder's
 * files), never more than a bound: at most `maxBytes`, counted as read rather than trusted
 * from its size (a /proc file says 0 and holds gigabytes); a read past the bound stops at one
 * byte over and is refused, instead of aborting the process on memory. A folder is refused,
 * and so is a device or a pipe (such as /dev/zero) before any byte is read, unless `streams`
 * allows one (a scenario may come from a pipe).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export type BoundedRead =
  | { ok: true; text: string }
  | {
    ok: false;
    why: 'missing' | 'not-a-file' | 'too-large' | 'unreadable';
    /** In words: "a folder", "a device or a pipe", "1234 bytes", or the error's code. */
    detail: string;
    /** The error's code, for a file that could not be opened or read (EACCES, EIO…). */
    code?: string;
    /** Too large: the size the file says, when it is a regular file. */
    size?: number;
  };

/** Reads chunks of this size: a small file costs little, a large one grows as it is read. */
const CHUNK = 64 * 1024;

export function readBounded(file: string, maxBytes: number, opts: { streams?: boolean } = {}): BoundedRead {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, why: code === 'ENOENT' ? 'missing' : 'unreadable', detail: code ?? String(e), ...(code ? { code } : {}) };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { ok: false, why: 'not-a-file', detail: 'a folder' };
    if (!st.isFile() && !opts.streams) return { ok: false, why: 'not-a-file', detail: 'a device or a pipe' };
    if (st.isFile() && st.size > maxBytes) return { ok: false, why: 'too-large', detail: `${st.size} bytes`, size: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      let k: number;
      try {
        k = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return { ok: false, why: 'unreadable', detail: code ?? String(e), ...(code ? { code } : {}) };
      }
      if (k === 0) break;
      chunks.push(k === buf.length ? buf : buf.subarray(0, k));
      total += k;
      if (total > maxBytes) return { ok: false, why: 'too-large', detail: `more than ${maxBytes} bytes`, ...(st.isFile() ? { size: st.size } : {}) };
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}
