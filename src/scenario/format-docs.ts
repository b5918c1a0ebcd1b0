/**
 * Generates docs/scenario-format.md from the JSON Schema, so the reference of every key —
 * its type, default, limits and meaning — cannot drift from what the loader accepts.
 * `npm run docs` rewrites it; a test fails when the committed copy is stale.
 */
import { scenarioJsonSchema } from './json-schema.js';

type JS = {
  type?: string | string[];
  description?: string;
  default?: unknown;
  properties?: Record<string, JS>;
  required?: string[];
  additionalProperties?: JS | boolean;
  items?: JS;
  oneOf?: JS[];
  anyOf?: JS[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  pattern?: string;
  title?: string;
  $ref?: string;
  /** Written like the object documented at this path (its section is not repeated). */
  'x-see'?: string;
};

interface Section {
  path: string;
  schema: JS;
}

export function scenarioFormatMarkdown(): string {
  const root = scenarioJsonSchema({ docMarkers: true }) as JS;
  const out: string[] = [
    '# Scenario file format',
    '',
    '<!-- Generated from src/scenario/schema.ts by `npm run docs`. Do not edit by hand. -->',
    '',
    root.description ?? '',
    '',
    'Durations are written with a unit ("250ms", "30s", "12m", "1h30m", "1d"); rates as a count per unit of',
    'time ("800/s", "100/min", "5000/h"). Unknown keys are errors. Start a file with',
    '`# yaml-language-server: $schema=../docs/scenario.schema.json` for completion in editors',
    '(`retrystorm schema` prints the same JSON Schema).',
    '',
  ];
  const queue: Section[] = [{ path: '(top level)', schema: root }];
  while (queue.length) {
    const { path, schema } = queue.shift()!;
    out.push(...objectSection(path, schema, queue));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

function objectSection(path: string, s: JS, queue: Section[]): string[] {
  const lines = [`## \`${path}\``, ''];
  if (s.description && path !== '(top level)') lines.push(s.description, '');
  if (s.oneOf) {
    const tag = discriminator(s.oneOf);
    lines.push(`One of the following, chosen by \`${tag}\`:`, '');
    for (const option of s.oneOf) {
      const value = String(option.properties?.[tag]?.const ?? '?');
      lines.push(`### \`${tag}: ${value}\``, '');
      if (option.description) lines.push(option.description, '');
      lines.push(...table(`${path}`, option, queue, tag));
    }
    return lines;
  }
  lines.push(...table(path, s, queue, undefined));
  return lines;
}

/**
 * The key that tells a union's options apart: `kind`, or the one key every option fixes to a
 * constant (a rate limit's `algorithm`).
 */
function discriminator(options: JS[]): string {
  const fixed = (key: string) => options.every((o) => o.properties?.[key]?.const !== undefined);
  if (fixed('kind')) return 'kind';
  return Object.keys(options[0]?.properties ?? {}).find(fixed) ?? 'kind';
}

/** A key's meaning: its own description, else its union members' (the duration of "none" or a duration). */
function meaning(p: JS): string {
  if (p.description) return p.description;
  const inner = [...new Set((p.anyOf ?? []).map((o) => o.description).filter((d): d is string => Boolean(d)))];
  return inner.join(' ');
}

/** A table of an object's keys; `tag` is the union's discriminator, which the heading already gives. */
function table(path: string, s: JS, queue: Section[], tag: string | undefined): string[] {
  const props = s.properties ?? {};
  const rows = ['| key | type | default | meaning |', '|---|---|---|---|'];
  const prefix = path === '(top level)' ? '' : `${path}.`;
  for (const [key, p] of Object.entries(props)) {
    if (key === tag) continue;
    if (key === '$schema') continue;
    const required = s.required?.includes(key) ? ' **(required)**' : '';
    rows.push(`| \`${key}\`${required} | ${typeName(p)} | ${p.default === undefined ? '' : `\`${JSON.stringify(p.default)}\``} | ${escape(meaning(p))}${limits(p)} |`);
    const nested = nestedObject(p);
    if (nested) queue.push({ path: `${prefix}${key}${nested.suffix}`, schema: nested.schema });
  }
  return [...rows, ''];
}

/** The object (or union of objects) a key leads to, if any, and how its path is written. */
function nestedObject(p: JS): { schema: JS; suffix: string } | undefined {
  if (p['x-see']) return undefined;
  if (p.oneOf) return { schema: p, suffix: '' };
  if (p.properties) return { schema: p, suffix: '' };
  if (p.type === 'array' && p.items && (p.items.properties || p.items.oneOf)) return { schema: p.items, suffix: '[]' };
  if (typeof p.additionalProperties === 'object' && (p.additionalProperties.properties || p.additionalProperties.oneOf)) {
    return { schema: { ...p.additionalProperties, description: p.description }, suffix: '.<name>' };
  }
  return undefined;
}

function typeName(p: JS): string {
  if (p.$ref === '#/$defs/overlay') return 'overlay: any part of the world, partial';
  if (p['x-see']) return `as \`${p['x-see']}\``;
  if (p.oneOf) {
    const tag = discriminator(p.oneOf);
    return p.oneOf.every((o) => o.properties?.[tag]?.const !== undefined) ? `object by \`${tag}\`` : 'one of several';
  }
  if (p.anyOf) return p.anyOf.map(typeName).join(' or ');
  if (p.const !== undefined) return `\`${JSON.stringify(p.const)}\``;
  if (p.enum) return p.enum.map((e) => `\`${JSON.stringify(e)}\``).join(', ');
  if (p.type === 'array') return `list of ${p.items ? typeName(p.items) : 'values'}`;
  if (p.type === 'string' && p.pattern?.includes('ms|s|m|h|d')) return 'duration';
  if (p.type === 'string' && p.pattern?.includes('(s|sec|second')) return 'rate';
  if (p.type === 'object') return typeof p.additionalProperties === 'object' ? 'map of name to object' : 'object';
  return Array.isArray(p.type) ? p.type.join(' or ') : (p.type ?? 'any');
}

function limits(p: JS): string {
  const parts: string[] = [];
  if (p.minimum !== undefined) parts.push(`min ${p.minimum}`);
  if (p.maximum !== undefined && p.maximum < 2 ** 31) parts.push(`max ${p.maximum}`);
  if (p.minItems !== undefined) parts.push(`at least ${p.minItems} item(s)`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function escape(s: string): string {
  // The type column already says "duration" or "rate": drop the schema's reminder of the syntax.
  const plain = s.replace(/ A duration with a unit: .*$/, '').replace(/ A count per unit of time: .*$/, '');
  return plain.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
