import { describe, expect, it } from 'vitest';
import { parseByteSize } from '../../src/cli/byte-size.js';

describe('parseByteSize', () => {
  it.each([
    ['512MiB', 512 * 1024 ** 2],
    ['4GiB', 4 * 1024 ** 3],
    ['1.5 GiB', 1.5 * 1024 ** 3],
    ['64KiB', 65_536],
    ['2GB', 2e9],
    ['300MB', 3e8],
    ['100kB', 1e5],
    ['1TiB', 1024 ** 4],
    ['4096B', 4096],
  ])('reads %s', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['512', 'GiB', '4 gib', '4GiBs', '-1GiB', '', 'four GiB'])('refuses %j, saying what a size looks like', (text) => {
    expect(parseByteSize(text)).toBe(`expected a size with a unit such as 512MiB or 4GiB (got "${text}")`);
  });

  it('refuses a size of zero', () => {
    expect(parseByteSize('0MiB')).toBe('expected a size above 0 (got "0MiB")');
  });
});
