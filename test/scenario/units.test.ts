import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseRate, type ParseResult } from '../../src/scenario/units.js';

function value(r: ParseResult): number {
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.value;
}

function message(r: ParseResult): string {
  if (r.ok) throw new Error(`expected an error, got ${r.value}`);
  return r.message;
}

describe('parseDuration', () => {
  it.each([
    ['250ms', 0.25],
    ['30s', 30],
    ['1.5s', 1.5],
    ['12m', 720],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1d', 86400],
    ['1h0m0.5s', 3600.5],
    ['0s', 0],
    ['  45s  ', 45],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(value(parseDuration(text))).toBeCloseTo(seconds, 12);
  });

  it('refuses a bare number, as a number or as text, and says a unit is needed', () => {
    expect(message(parseDuration(30))).toMatch(/needs a unit/);
    expect(message(parseDuration(30))).toContain('30');
    expect(message(parseDuration('30'))).toMatch(/needs a unit.*"30"/);
    expect(message(parseDuration('1.5'))).toMatch(/needs a unit/);
  });

  it('refuses a negative duration and says so', () => {
    expect(message(parseDuration('-5s'))).toMatch(/cannot be negative.*"-5s"/);
    expect(message(parseDuration(' -1h'))).toMatch(/cannot be negative/);
  });

  it.each([['12M', '12m'], ['1H30M', '1h30m'], ['250MS', '250ms']])('refuses the capital units of %j and gives the lowercase spelling', (text, lower) => {
    expect(message(parseDuration(text))).toBe(`units are written in lowercase: write "${lower}" (got "${text}")`);
  });

  it.each(['abc', '5x', 'h', '1e3s', '.5s', '5s!'])('refuses garbage %j and shows the accepted form', (text) => {
    const m = message(parseDuration(text));
    expect(m).toContain(`"${text}" is not a duration`);
    expect(m).toMatch(/e\.g\. "250ms"/);
    expect(m).toContain('(the units are ms, s, m, h and d)');
  });

  it.each([['5 s', '5s'], ['1h 30m', '1h30m'], ['5sec', '5s'], ['20min', '20m'], ['2hours', '2h'], ['10 seconds', '10s'], ['1 day', '1d']])(
    'says what %j meant, as a duration (it said "unreadable from" a part of it)',
    (text, meant) => {
      expect(message(parseDuration(text))).toBe(`"${text}" is not a duration: the units are ms, s, m, h and d, written without spaces; write "${meant}"`);
    },
  );

  it('names the part it could not read', () => {
    expect(message(parseDuration('1h30x'))).toContain('unreadable from "30x"');
  });

  it.each([[''], ['   '], [null], [undefined], [true], [{}], [[]]])('refuses a non-duration value %j', (v) => {
    expect(message(parseDuration(v))).toMatch(/expected a duration/);
  });

  it('refuses a duration too large to be a number', () => {
    expect(message(parseDuration('9'.repeat(400) + 's'))).toMatch(/too large/);
  });
});

describe('parseRate', () => {
  it.each([
    ['2000/s', 2000],
    ['800/sec', 800],
    ['0.5/s', 0.5],
    ['60/m', 1],
    ['5000/h', 5000 / 3600],
    ['86400/day', 1],
    ['1e3/s', 1000],
    [' 10 / s ', 10],
    ['0/s', 0],
  ])('reads %j as %d per second', (text, perSecond) => {
    expect(value(parseRate(text))).toBeCloseTo(perSecond, 12);
  });

  it('reads "100/min" as 100/60 per second', () => {
    expect(value(parseRate('100/min'))).toBeCloseTo(1.6666666666666667, 12);
  });

  it('refuses a bare number, as a number or as text, and says a unit is needed', () => {
    expect(message(parseRate(800))).toMatch(/needs a unit.*"800\/s"/);
    expect(message(parseRate(800))).toContain('800');
    expect(message(parseRate('800'))).toMatch(/needs a unit.*\(got "800"\)/);
  });

  it('refuses a negative rate', () => {
    expect(message(parseRate('-5/s'))).toMatch(/cannot be negative.*"-5\/s"/);
  });

  it.each([['400/S', '400/s'], ['100/Min', '100/min'], [' 10 / H ', '10 / h']])('refuses the capital units of %j and gives the lowercase spelling, as for durations', (text, lower) => {
    expect(message(parseRate(text))).toBe(`units are written in lowercase: write "${lower}" (got "${text}")`);
  });

  it('refuses an inherited name such as "constructor" as a unit', () => {
    expect(message(parseRate('5/constructor'))).toMatch(/unknown time unit "constructor"/);
  });

  it('refuses an unknown time unit and lists the known ones', () => {
    expect(message(parseRate('5/fortnight'))).toMatch(/unknown time unit "fortnight".*\/s, \/min, \/h or \/d/);
  });

  it.each(['fast', '5 per s', '/s', '5/', '5//s', 's/5'])('refuses garbage %j', (text) => {
    expect(message(parseRate(text))).toContain(`"${text}" is not a rate`);
  });

  it.each([[null], [true], [{}]])('refuses a non-rate value %j', (v) => {
    expect(message(parseRate(v))).toMatch(/expected a rate/);
  });

  it('refuses a rate too large to be a number', () => {
    expect(message(parseRate('1e999/s'))).toMatch(/too large/);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [0.25, '250ms'],
    [0.0015, '1.5ms'],
    [1.5, '1.5s'],
    [59, '59s'],
    [720, '12m'],
    [5400, '1h30m'],
    [90061, '1d1h1m1s'],
    [30 * 86400, '30d'],
    [Infinity, 'Infinity'],
  ])('formats %d seconds as %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('rounds to the millisecond without leaving "60s"', () => {
    expect(formatDuration(59.9999)).toBe('1m');
  });

  it.each([0.25, 1.5, 30, 720, 5400, 86400 + 61.5])('round-trips %d through parseDuration', (seconds) => {
    expect(value(parseDuration(formatDuration(seconds)))).toBeCloseTo(seconds, 9);
  });
});
