/**
 * How values are written (src/measures/format.ts), where rounding could tell a different
 * story than the number: a share below 1 must not read 100%, one above 0 must not read 0%.
 */
import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/measures/format.js';

describe('a share, written', () => {
  it('to a tenth of a point in general, to a hundredth near 100%', () => {
    expect(formatValue('share', 0.123)).toBe('12.3%');
    expect(formatValue('share', 0.5)).toBe('50%');
    expect(formatValue('share', 0.9994)).toBe('99.94%');
    expect(formatValue('share', 1)).toBe('100%');
    expect(formatValue('share', 0)).toBe('0%');
  });

  it('never as 100% below 1, nor as 0% above 0: with the digits it takes to tell', () => {
    // dependency-outage's new users served at 0.999969 read "100%" beside a variant that served all.
    expect(formatValue('share', 0.999969)).toBe('99.997%');
    expect(formatValue('share', 0.9999996)).toBe('99.99996%');
    expect(formatValue('share', 0.00003)).toBe('0.003%');
    expect(formatValue('share', 0.0004)).toBe('0.04%');
  });
});
