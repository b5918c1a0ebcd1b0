/**
 * OpenTelemetry traces exported as OTLP JSON: one ExportTraceServiceRequest ({ resourceSpans:
 * [{ resource: { attributes }, scopeSpans: [{ spans: [...] }] }] }), or the OpenTelemetry
 * Collector's file exporter's JSON Lines, one such request per line. The requests a service
 * received are its server spans (kind 2, SPAN_KIND_SERVER): each one's start is a request
 * time, replayed exactly like a CSV of request times. `service` picks the service
 * (resource attribute service.name) when the file holds several, `span` a route's span name.
 * Spans are not stored in time order, so their times are sorted here. The shape is the OTLP
 * protobuf's JSON mapping, written out below rather than taken from a package: four fields
 * are read.
 */
import { formatCount } from '../limits.js';
import { NumberList, TRACE_MOST_VALUES } from './trace-steps.js';
import type { TraceFailure, TraceOptions, TraceParsed } from './trace-options.js';

/** SPAN_KIND_SERVER in opentelemetry/proto/trace/v1/trace.proto (the JSON mapping writes enums as integers). */
const SERVER = 2;

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A resource's service.name, from its attributes [{ key, value: { stringValue } }]. */
function serviceName(resource: unknown): string | undefined {
  const attrs = isObject(resource) && Array.isArray(resource.attributes) ? resource.attributes : [];
  for (const a of attrs) if (isObject(a) && a.key === 'service.name' && isObject(a.value) && typeof a.value.stringValue === 'string') return a.value.stringValue;
  return undefined;
}

/**
 * Nanoseconds since 1970 as OTLP JSON writes them (a decimal string, or a number), in seconds
 * after the whole second `ref`: subtracted before the conversion, so the nanoseconds survive
 * (a double holds seconds since 1970 to about 0.2 us only).
 */
function nanosAfter(x: unknown, ref: number): number | undefined {
  if (typeof x === 'number' && Number.isFinite(x) && x >= 0) return x / 1e9 - ref;
  if (typeof x !== 'string' || !/^\d+$/.test(x)) return undefined;
  const whole = x.length > 9 ? Number(x.slice(0, -9)) : 0;
  return whole - ref + Number(x.slice(-9)) / 1e9;
}

/** The whole seconds of a start time, to measure the others from. */
function wholeSeconds(x: unknown): number | undefined {
  if (typeof x === 'number' && Number.isFinite(x)) return Math.floor(x / 1e9);
  return typeof x === 'string' && /^\d+$/.test(x) ? (x.length > 9 ? Number(x.slice(0, -9)) : 0) : undefined;
}

export function readOtlpTrace(text: string, o: TraceOptions): TraceParsed | TraceFailure {
  // One request for the whole file, or one per line (JSON Lines).
  const docs: Array<{ doc: unknown; line: number }> = [];
  try {
    docs.push({ doc: JSON.parse(text), line: 0 });
  } catch {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() === '') continue;
      try {
        docs.push({ doc: JSON.parse(lines[i]), line: i + 1 });
      } catch (e) {
        return { line: i + 1, path: '', message: `not JSON (nor JSON Lines, one export request per line): ${(e as Error).message.split('\n')[0]}` };
      }
    }
  }
  const times = new NumberList();
  let ref: number | undefined;
  const services = new Set<string>();
  const kinds = new Set<string>();
  const names = new Set<string>();
  for (const { doc, line } of docs) {
    if (!isObject(doc) || !Array.isArray(doc.resourceSpans)) {
      return { line, path: '', message: 'not OTLP trace JSON: expected { "resourceSpans": [...] } (an ExportTraceServiceRequest, as the Collector\'s file exporter writes)' };
    }
    for (let r = 0; r < doc.resourceSpans.length; r++) {
      const rs: unknown = doc.resourceSpans[r];
      if (!isObject(rs)) continue;
      const service = serviceName(rs.resource) ?? '(no service.name)';
      services.add(service);
      if (o.service !== undefined && service !== o.service) continue;
      const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [];
      for (let s = 0; s < scopes.length; s++) {
        const spans = isObject(scopes[s]) && Array.isArray(scopes[s].spans) ? (scopes[s].spans as unknown[]) : [];
        for (let k = 0; k < spans.length; k++) {
          const span = spans[k];
          if (!isObject(span)) continue;
          kinds.add(String(span.kind ?? 'unset'));
          if (span.kind !== SERVER) continue;
          if (typeof span.name === 'string') names.add(span.name);
          if (o.span !== undefined && span.name !== o.span) continue;
          ref ??= wholeSeconds(span.startTimeUnixNano);
          const t = ref === undefined ? undefined : nanosAfter(span.startTimeUnixNano, ref);
          if (t === undefined) {
            return { line, path: `resourceSpans[${r}].scopeSpans[${s}].spans[${k}].startTimeUnixNano`, message: `expected nanoseconds since 1970 (a string of digits), got ${JSON.stringify(span.startTimeUnixNano)}` };
          }
          if (times.length >= TRACE_MOST_VALUES) return { line, path: '', message: `more than ${formatCount(TRACE_MOST_VALUES)} requests: export a shorter range, or counts per step (a Prometheus rate or a CSV)` };
          times.push(t);
        }
      }
    }
  }
  if (o.service === undefined && services.size > 1) {
    return { line: 0, path: 'resourceSpans', message: `spans of ${services.size} services (${[...services].slice(0, 8).join(', ')}): choose one with service` };
  }
  if (o.service !== undefined && !services.has(o.service)) {
    return { line: 0, path: 'resourceSpans', message: `no spans of service "${o.service}" (service.name); the file has ${[...services].slice(0, 8).join(', ') || 'none'}` };
  }
  if (times.length < 2) {
    const why = o.span !== undefined && !names.has(o.span) ? `no server span is named "${o.span}"${names.size ? ` (the names are ${[...names].slice(0, 8).map((n) => `"${n}"`).join(', ')})` : ''}`
      : !kinds.has(String(SERVER)) ? `no server spans (kind 2): the requests a service received are its server spans${kinds.size ? `; the spans here are of kind ${[...kinds].join(', ')}` : ''}`
      : `${times.length === 0 ? 'no' : 'one'} request`;
    return { line: 0, path: 'resourceSpans', message: `${why}: a trace of request times needs at least two` };
  }
  const sorted = times.view().slice().sort();
  const origin = sorted[0];
  for (let i = 0; i < sorted.length; i++) sorted[i] -= origin;
  const last = sorted[sorted.length - 1];
  return { shape: 'times', numbers: sorted, step: 0, length: last + last / (sorted.length - 1) };
}
