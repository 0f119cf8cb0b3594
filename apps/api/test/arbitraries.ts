// fast-check arbitraries derived from the contract's zod schemas (through their JSON Schema), for
// the fuzz tests: values shaped like what a route accepts, with hostile values mixed in at every
// level, so a run reaches the services as well as the validator.
import fc from 'fast-check';
import { z } from 'zod';
import { CURSOR_PATTERN, DAY_PATTERN, MONTH_PATTERN } from '@app/contract';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** Generated requests per route in the fuzz tests; FUZZ_RUNS raises it for a longer hunt. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The JSON Schema of a route's zod schema as a client sends it (input side); null if none. */
export function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!isZod(schema)) return null;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // A schema the document names (src/openapi-schemas.ts) comes as `{ $ref: '#/$defs/<name>' }`,
  // as do the named schemas inside it: each reference is replaced by what it names, so the tests
  // read the body's own fields (a bare `$ref` has none, and they made up bodies of any shape).
  const defs = (json.$defs ?? {}) as Record<string, unknown>;
  const inline = (node: unknown, depth = 0): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, depth));
    if (!node || typeof node !== 'object') return node;
    const { $ref, $defs: _defs, $schema: _dialect, ...rest } = node as Record<string, unknown>;
    const named =
      typeof $ref === 'string' && $ref.startsWith('#/$defs/') && depth < 16
        ? (inline(defs[$ref.slice('#/$defs/'.length)], depth + 1) as Record<string, unknown>)
        : {};
    const out: Record<string, unknown> = { ...named };
    for (const [key, value] of Object.entries(rest)) out[key] = inline(value, depth);
    return out;
  };
  return inline(json) as JsonSchema;
}

/**
 * A number JSON can write but not carry (it parses as Infinity): generated as this marker and
 * written as the bare literal by `toJsonText` and `queryArbitrary`.
 */
export const HUGE_NUMBER = '\u0000huge:1e400';
const HUGE_LITERAL = '1e400';

/** A body as JSON text, HUGE_NUMBER written as the literal 1e400. */
export const toJsonText = (value: unknown): string =>
  (JSON.stringify(value) ?? 'null').replaceAll(JSON.stringify(HUGE_NUMBER), HUGE_LITERAL);

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** Days around every edge the contract's parser draws (issue 14), valid and not. */
export const DAY_EDGES = [
  '0000-01-01',
  '1969-12-31',
  '1970-01-01',
  '9999-12-31',
  '10000-01-01',
  '2026-02-28',
  '2026-02-29',
  '2026-02-30',
  '2026-02-31',
  '2028-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
] as const;
export const MONTH_EDGES = [
  '0000-01',
  '1969-12',
  '1970-01',
  '9999-12',
  '10000-01',
  '2026-13',
  '2026-00',
  '2026-1',
] as const;
/** Cursors no server wrote: broken base64, wrong shapes, numbers and instants past every edge. */
export const CURSOR_EDGES = [
  'AAAA',
  'a',
  '!!!',
  'x'.repeat(300),
  b64('{"a":1}'),
  b64('[0]'),
  b64('[-1]'),
  b64('[1.5]'),
  b64('[9007199254740991]'),
  b64('[9007199254740992]'),
  b64('[1e400]'),
  b64('["1"]'),
  b64('[null]'),
  b64('["2026-13-45T99:99:99.000000Z",1]'),
  b64('["2026-02-31T00:00:00.000000Z",1]'),
  b64('["0000-01-01T00:00:00.000000Z",1]'),
  b64('["9999-12-31T23:59:59.999999Z",9007199254740991]'),
  b64('["+010000-01-01T00:00:00.000000Z",1]'),
] as const;
/** Numbers past every range a whole-number field has. */
export const NUMBER_EDGES: readonly unknown[] = [
  HUGE_NUMBER,
  2 ** 53,
  2 ** 53 - 1,
  -(2 ** 53),
  1e21,
  1e308,
  0,
  -1,
];

/** The edge values a string field of this JSON Schema should meet, by the contract's patterns. */
export function edgesFor(s: JsonSchema): readonly unknown[] {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.pattern === DAY_PATTERN.source) return DAY_EDGES;
  if (s.pattern === MONTH_PATTERN.source) return MONTH_EDGES;
  if (s.pattern === CURSOR_PATTERN.source) return CURSOR_EDGES;
  if (type === 'integer' || type === 'number') return NUMBER_EDGES;
  return [];
}

/** Values no schema of ours accepts where it wants something else, and a few it must store safely. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0.5,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 64,
  1e21,
  1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '🙂',
  '١٢٣',
  '1e400',
  HUGE_NUMBER,
  'NaN',
  'Infinity',
  '-0',
  '0x1F',
  ' 42 ',
  "' OR '1'='1' --",
  '%_\\',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://evil.example")',
  'x'.repeat(1000),
  [],
  {},
  [null],
  { __proto__: { type: 'admin' } },
  { constructor: { prototype: { type: 'admin' } } },
];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const INT32 = 2 ** 31 - 1;

function integerArbitrary(s: JsonSchema): fc.Arbitrary<number> {
  const lo = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -INT32);
  const hi = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : (s.maximum ?? INT32);
  const small = fc.integer({ min: Math.max(lo, -INT32), max: Math.min(hi, INT32) });
  // The edges too: 0, 1 and the schema's own bounds (2^53 - 1 for amounts and ids).
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
  );
}

/** A shaped value, now and then one of the contract's edges for its kind of field (issue 14). */
function withEdges(s: JsonSchema, shaped: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const edges = edgesFor(s);
  if (edges.length === 0) return shaped;
  return fc.oneof(
    { weight: 2, arbitrary: shaped },
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
  );
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 60, Math.max(minLength, 60));
  const fits = (v: string) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity);
  if (s.format === 'email') return fc.emailAddress().filter(fits);
  if (s.pattern) {
    const matching = fc.stringMatching(new RegExp(s.pattern)).filter(fits);
    return fc.oneof({ weight: 3, arbitrary: matching }, fc.string({ minLength, maxLength }));
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
    // Right at the limit, where off-by-one and column-width bugs live.
    { weight: 1, arbitrary: fc.constant('w'.repeat(s.maxLength ?? 200)) },
  );
}

export interface ArbitraryOptions {
  /** Weight of a hostile value against 4 for a shaped one, at every node (0: shaped only). */
  hostility?: number;
  /** Add unknown keys to objects now and then (default true). */
  extraKeys?: boolean;
}

/**
 * Values shaped by `schema`: valid often, wrong in one place or another otherwise. The point is
 * not to produce only valid bodies but to walk every branch a request can take.
 */
export function arbitraryFor(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const { hostility = 1 } = options;
  const shaped = shapedFor(schema, options, depth);
  if (hostility === 0) return shaped;
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: hostility, arbitrary: hostileValue });
}

function shapedFor(s: JsonSchema, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const child = (c: JsonSchema) => arbitraryFor(c, options, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => shapedFor(a, options, depth)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return withEdges(s, stringArbitrary(s));
    case 'integer':
      return withEdges(s, integerArbitrary(s));
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(s.minimum !== undefined ? { min: s.minimum } : {}),
        ...(s.maximum !== undefined ? { max: s.maximum } : {}),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items ? child(s.items) : hostileValue, {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case 'object': {
      const properties = s.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, child(value)]),
      );
      const record = fc.record(model, { requiredKeys: s.required ?? [] });
      if (options.extraKeys === false) return record;
      const extra = fc.dictionary(
        fc.constantFrom('token_balance', 'type', 'company_id', 'id', 'is_admin', '__proto__'),
        hostileValue,
        { maxKeys: 1 },
      );
      return fc
        .tuple(record, fc.option(extra, { freq: 5 }))
        .map(([body, more]) => ({ ...body, ...(more ?? {}) }));
    }
    default:
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** Percent-encodes like encodeURIComponent, a lone surrogate becoming U+FFFD as a browser sends it. */
const encode = (text: string): string =>
  encodeURIComponent(
    text.replace(/[\uD800-\uDFFF]/g, (c, i: number) => {
      const pair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
      return pair.test(text.slice(i, i + 2)) || pair.test(text.slice(i - 1, i + 1)) ? c : '\uFFFD';
    }),
  );

/** Query-string pairs for a query schema: each value as text, arrays as repeated keys. */
export function queryArbitrary(schema: JsonSchema | null): fc.Arbitrary<string> {
  const properties = schema?.properties ?? {};
  const keys = Object.keys(properties);
  const text = (v: unknown): string =>
    v === HUGE_NUMBER
      ? HUGE_LITERAL
      : typeof v === 'string'
        ? v
        : v === null || v === undefined
          ? ''
          : JSON.stringify(v);
  const pairs = keys.map((key) =>
    arbitraryFor(properties[key]!, { extraKeys: false }).map((value) =>
      (Array.isArray(value) ? value : [value]).map((v) => `${encode(key)}=${encode(text(v))}`),
    ),
  );
  // Broken escapes, bracket keys and prototype names, as a hand-made URL might carry them.
  const raw = fc.constantFrom('%E0%A4%A', 'a[b]=1', '__proto__=1', 'constructor[prototype]=1', '%');
  return fc
    .tuple(
      fc.subarray(pairs.map((_, i) => i)),
      fc.tuple(...pairs.map((p) => p), fc.constant(null)),
      fc.option(raw, { freq: 6 }),
    )
    .map(([chosen, values, junk]) => {
      const parts = chosen.flatMap((i) => values[i] as string[]);
      if (junk) parts.push(junk);
      return parts.join('&');
    });
}
