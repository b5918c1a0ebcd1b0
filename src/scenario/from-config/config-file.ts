/**
 * A deployed config file (an Envoy route configuration, a gRPC service config, an Istio
 * VirtualService), read with the yaml package so every value keeps its position: a field
 * the simulator cannot express is reported at file:line:col, like a scenario's own
 * problems. JSON is read by the same parser (JSON is YAML). A field that does not change the
 * load the layer sends (which host a retry picks, a stats switch) is not refused: it is a
 * warning at its position, said by the loader and not stopping it.
 */
import { LineCounter, parseAllDocuments, isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import type { Problem } from '../problems.js';
import { aliasProblems, documentErrors, errorsToReport, topLevelEntries, PARSE_OPTIONS } from '../yaml-errors.js';

export interface ConfigFile {
  file: string;
  /** The root node (of the first document), or undefined for an empty file. */
  root: Node | undefined;
  /** The root of each YAML document of the file (`---` separates them, as kubectl files hold several resources). */
  documents: Array<Node | undefined>;
  /** The problems of this file, positioned in it. */
  problems: Problem[];
  /** What was read past or assumed, positioned in this file: said, but the config is read. */
  warnings: Problem[];
  /**
   * The proxy's retry limiter the layer's budget stands for, when one proxy shares it with
   * every request through it (an Envoy cluster and priority): two populations reading the
   * same one share it in the proxy, not in the simulation, and the loader says so.
   */
  sharedLimiter?: string;
  /** Adds a problem at a node (its key when given), with the path inside the file. */
  report(at: Node | undefined, path: string, message: string): void;
  /** Adds a warning at a node, with the path inside the file. */
  warn(at: Node | undefined, path: string, message: string): void;
}

export function readConfig(text: string, file: string): ConfigFile {
  const lc = new LineCounter();
  // Duplicate keys are found by documentErrors, in linear time (yaml's own check is quadratic).
  const docs = parseAllDocuments(text, { lineCounter: lc, ...PARSE_OPTIONS });
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const at = (n: Node | undefined) => (n?.range ? lc.linePos(n.range[0]) : { line: 1, col: 1 });
  const report = (n: Node | undefined, path: string, message: string) => problems.push({ file, ...at(n), path, message });
  const warn = (n: Node | undefined, path: string, message: string) => warnings.push({ file, ...at(n), path, message });
  // As for a scenario (load.ts): the first syntax error and the ones that are not its follow-ons.
  const entryOf = topLevelEntries(text.split('\n'));
  const placed = docs.flatMap((doc) => documentErrors(doc, lc)).map((e) => {
    const pos = e.linePos ?? lc.linePos(e.pos);
    return { line: pos.line, col: pos.col, entry: entryOf[pos.line] ?? 0, offset: e.pos, duplicate: e.duplicate, message: `YAML: ${e.message.split('\n')[0]}` };
  });
  const { kept, left } = errorsToReport(placed);
  const last = kept.filter((e) => !e.duplicate).pop();
  for (const e of kept) {
    const more = e === last && left > 0 ? ` (and ${left} more YAML error(s) after it, most likely caused by the one(s) above)` : '';
    problems.push({ file, line: e.line, col: e.col, path: '', message: e.message + more });
  }
  // As in a scenario: an alias that stands for nothing read as an empty value, silently.
  if (kept.length === 0) for (const a of docs.flatMap((doc) => aliasProblems(doc, lc))) problems.push({ file, line: a.line, col: a.col, path: '', message: a.message });
  const documents = docs.map((doc) => (doc.contents ?? undefined) as Node | undefined);
  return { file, root: documents[0], documents, problems, warnings, report, warn };
}

/** The value node of `key` in a mapping, and the key node (for positions). */
export function entry(map: Node | undefined, key: string): { key: Node; value: Node | undefined } | undefined {
  if (!isMap(map)) return undefined;
  const pair = (map as YAMLMap).items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair ? { key: pair.key as Node, value: (pair.value ?? undefined) as Node | undefined } : undefined;
}

/** Every key of a mapping with its key node. */
export function keysOf(map: Node | undefined): Array<{ name: string; key: Node; value: Node | undefined }> {
  if (!isMap(map)) return [];
  return (map as YAMLMap).items.flatMap((p) => (isScalar(p.key) ? [{ name: String(p.key.value), key: p.key as Node, value: (p.value ?? undefined) as Node | undefined }] : []));
}

export function scalar(n: Node | undefined): unknown {
  return isScalar(n) ? n.value : undefined;
}

export function items(n: Node | undefined): Node[] {
  return isSeq(n) ? (n.items as Node[]) : [];
}

/**
 * A protobuf Duration as configs write it: "0.1s", ".01s", "25ms" (Envoy's YAML also takes
 * "1m", "1h"), or a mapping { seconds, nanos }. Returns seconds, or undefined when it is not one.
 */
export function protoDuration(n: Node | undefined): number | undefined {
  if (isMap(n)) {
    const s = Number(scalar(entry(n, 'seconds')?.value) ?? 0), ns = Number(scalar(entry(n, 'nanos')?.value) ?? 0);
    return Number.isFinite(s) && Number.isFinite(ns) ? s + ns / 1e9 : undefined;
  }
  const v = scalar(n);
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d*\.?\d+)\s*(ns|us|ms|s|m|h)\s*$/.exec(v);
  if (!m) return undefined;
  const unit = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }[m[2] as 'ns'];
  return Number(m[1]) * unit;
}

/** Seconds as the scenario format writes a duration: "25ms", "2s", "1.5s". */
export function durationText(s: number): string {
  if (s > 0 && s < 1) return `${Number((s * 1000).toFixed(3))}ms`;
  return `${Number(s.toFixed(6))}s`;
}
