/**
 * A range query's values are lifted out of the text before JSON.parse (prometheus-values.ts,
 * so a day of per-second data is not 86,400 objects at once): only the plain shape is lifted,
 * and a lifted file reads to the same numbers and the same refusals as the whole parse, which
 * any other document still gets.
 */
import { describe, expect, it } from 'vitest';
import { liftValues } from '../../src/scenario/trace/prometheus-values.js';
import { readPrometheusTrace } from '../../src/scenario/trace/prometheus-trace.js';
import type { TraceOptions } from '../../src/scenario/trace/trace-options.js';

const doc = (values: string, metric = '{"job":"api"}', more = '') =>
  `{"status":"success","data":{"resultType":"matrix","result":[{"metric":${metric},"values":${values}}${more}]}}`;
const pairs = (n: number, value: (i: number) => string) =>
  `[${Array.from({ length: n }, (_, i) => `[${1765065600 + i * 15}${i % 3 === 0 ? '.0' : ''},"${value(i)}"]`).join(',\n  ')}]`;
/** The same document with an escape in a label: not lifted, read by the whole parse. */
const escaped = (text: string) => text.replace('"job":"api"', '"job":"a\\/pi"');
const options = (more: Partial<TraceOptions> = {}): TraceOptions => ({ file: 'day.json', format: 'prometheus', values: 'rate', gaps: 'refuse', ...more }) as TraceOptions;

describe('lifting a range query\'s values out of the text', () => {
  it('lifts the plain shape: the skeleton holds [] where the values were, and the pairs come out in order as JSON.parse makes them', () => {
    const text = doc(pairs(5, (i) => (i * 1.25).toFixed(3)));
    const lifted = liftValues(text);
    expect(lifted).toBeDefined();
    expect(JSON.parse(lifted!.skeleton)).toEqual({ ...JSON.parse(text), data: { resultType: 'matrix', result: [{ metric: { job: 'api' }, values: [] }] } });
    expect([...lifted!.pairs()]).toEqual(JSON.parse(text).data.result[0].values);
    expect([...liftValues(doc('[ ]'))!.pairs()]).toEqual([]);
  });

  it('leaves anything else to the whole parse', () => {
    const plain = pairs(3, () => '1');
    expect(liftValues(escaped(doc(plain)))).toBeUndefined(); // an escape somewhere
    expect(liftValues(doc(plain, '{"job":"api"}', `,{"metric":{},"values":${plain}}`))).toBeUndefined(); // two series
    expect(liftValues(doc('[[1765065600,"1"],[1765065615,2]]'))).toBeUndefined(); // a value not a string
    expect(liftValues(doc('[[1765065600,"1"],]'))).toBeUndefined(); // not JSON
    expect(liftValues(doc('[[01,"1"]]'))).toBeUndefined(); // not a JSON number
    expect(liftValues(doc('"none"'))).toBeUndefined(); // values not a list
  });

  it('reads a lifted file to the same numbers as the whole parse, bit for bit', () => {
    const text = doc(pairs(2000, (i) => (20 + 10 * Math.sin(i / 50) + (i % 7) / 3).toFixed(6)));
    expect(liftValues(text)).toBeDefined();
    const lifted = readPrometheusTrace(text, options());
    const whole = readPrometheusTrace(escaped(text), options());
    if (!('numbers' in lifted) || !('numbers' in whole)) throw new Error('expected both read');
    expect(lifted.numbers.length).toBe(2000);
    expect(Buffer.from(lifted.numbers.buffer, lifted.numbers.byteOffset, lifted.numbers.byteLength)).toEqual(Buffer.from(whole.numbers.buffer, whole.numbers.byteOffset, whole.numbers.byteLength));
    expect({ ...lifted, numbers: undefined }).toEqual({ ...whole, numbers: undefined });
  });

  it('refuses a lifted file\'s values in the same words, at the same entry', () => {
    const cases: Array<[string, Partial<TraceOptions>]> = [
      [doc(pairs(6, (i) => (i === 4 ? '-2' : '3'))), {}], // negative
      [doc(pairs(6, (i) => (i === 2 ? 'NaN' : '3'))), {}], // not finite
      [doc(pairs(6, (i) => (i === 3 ? ' ' : '3'))), {}], // blank
      [doc('[[1765065600,"1"],[1765065630,"1"],[1765065615,"1"]]'), {}], // out of order
      [doc('[[1765065600,"1"],[1765065615,"1"],[1765065645,"1"]]'), {}], // a gap
      [doc('[]'), {}], // no values
      [doc('{"status":"success","data":{"resultType":"matrix","result":[]}}'), {}],
      [doc(pairs(3, () => '1'), '{"job":"api"}'), { select: { job: 'web' } }], // no series selected
    ];
    for (const [text, more] of cases) {
      const lifted = readPrometheusTrace(text, options(more));
      const whole = readPrometheusTrace(escaped(text), options(more));
      expect('message' in lifted, text).toBe(true);
      // The escaped label reads as job="a/pi": the only difference a refusal may show.
      expect(lifted, text).toEqual('message' in whole ? { ...whole, message: whole.message.replace('a/pi', 'api') } : whole);
    }
  });

  it('places a syntax error in the whole text, not in the skeleton', () => {
    // The four pairs are on lines 1 to 4 and lifted out; the stray comma is on line 5 of the file (line 2 of the skeleton).
    const text = `${doc(pairs(4, () => '1')).slice(0, -1)}\n,}`;
    expect(readPrometheusTrace(text, options())).toMatchObject({ line: 5, path: '' });
  });
});
