import type { Call } from '#shared/contract/define';
import { compileValidator, type Validator } from '../../server/lib/validation';

/**
 * Reading the contract's TypeBox schemas in tests: a valid sample request for any endpoint, and
 * the server's own validation policy (server/lib/validation.ts: strict bodies, coerced query
 * strings, no NUL), so a test knows whether the server must accept or refuse an input.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas are walked field by field
export type Schema = Record<string, any>;

const cache = new Map<Schema, Validator>();

/** Would the server accept `input` as this entry's body (POST) or query (GET)? (Customer's or back office's.) */
export function accepts(ep: Call, input: unknown): boolean {
  const schema = ep.req as Schema;
  let validate = cache.get(schema);
  if (!validate) {
    validate = compileValidator(schema, ep.method === 'GET' ? 'querystring' : 'body');
    cache.set(schema, validate);
  }
  // Validation fills defaults in place; judge a copy.
  return validate(structuredClone(input)) as boolean;
}

/** Candidates for a string field, tried in order until one satisfies its constraints. */
const STRINGS = [
  'AAPL',
  'Asha Rao',
  '9876543210',
  'HDFC0000123',
  '5012345678901234',
  'a',
  // A push subscription's keys (base64url of 65 and 16 bytes) and a time of day.
  `B${'A'.repeat(86)}`,
  'A'.repeat(22),
  '22:00',
];

/** A value satisfying `schema` (only required object fields), or undefined if none is found. */
export function sample(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf) {
      const v = sample(branch);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties[key]);
      return out;
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
      const re = schema.pattern ? new RegExp(schema.pattern) : null;
      return STRINGS.find((s) => s.length >= min && s.length <= max && (!re || re.test(s)));
    }
    case 'integer':
    case 'number': {
      let v = Math.max(1, schema.minimum ?? 1);
      if (schema.exclusiveMinimum !== undefined) v = Math.max(v, schema.exclusiveMinimum + 1);
      return v;
    }
    case 'boolean':
      return true;
    case 'array': {
      // minItems distinct items (uniqueItems): samples of the item schema counted up from it.
      const first = sample(schema.items ?? {});
      const n = schema.minItems ?? 0;
      if (n === 0) return [];
      return typeof first === 'number'
        ? Array.from({ length: n }, (_, i) => first + i)
        : Array(n).fill(first);
    }
    default:
      return undefined;
  }
}

/** A valid request for `ep` (body for POST, query strings for GET). */
export function validRequest(ep: Call & { upload?: boolean }): Record<string, unknown> {
  const body = (sample(ep.req as Schema) ?? {}) as Record<string, unknown>;
  const input =
    ep.method === 'GET' ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])) : body;
  if (!ep.upload && !accepts(ep, input)) throw new Error(`no valid sample for ${ep.method} ${ep.path}`);
  return input;
}

/** The object branches of a request schema (a union of bodies has several). */
export function objectBranches(schema: Schema): Schema[] {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap(objectBranches);
  return schema.type === 'object' ? [schema] : [];
}
