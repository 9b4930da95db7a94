import Ajv, { type ErrorObject } from 'ajv';

/**
 * How the server validates input, written once: server/app.ts hands it to Fastify and the tests
 * ask it whether an input must be refused (tests/support/schemas.ts).
 *
 * Bodies are checked strictly: no type coercion (a number is not a phone) and unknown fields are
 * rejected, so nothing can be mass-assigned. Query strings arrive as text, so they coerce, and a
 * parameter the call does not take is ignored: removed before the handler, or any cache keyed on
 * the input, sees it (src/shared/contract/README.md; every contract query is one flat object).
 * Two checks follow the schema, on every value of a body or query:
 * - no string may hold a NUL character: PostgreSQL cannot store one (it fails the whole statement)
 *   and SQLite would keep a value that ends early for every C reader;
 * - every number is finite: Ajv coerces the query text `1e400` to Infinity and then skips the
 *   type's finiteness check and `maximum` (both are only applied to finite numbers), so a page of
 *   Infinity would reach the database.
 */

export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

const strict = new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: true });
const lenient = new Ajv({
  allErrors: false,
  coerceTypes: 'array',
  removeAdditional: false,
  useDefaults: true,
});
const query = new Ajv({ allErrors: false, coerceTypes: 'array', removeAdditional: 'all', useDefaults: true });

/** Does a parsed body or query hold a string with U+0000 (keys included) or a non-finite number? */
function hasUnsafeValue(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasUnsafeValue);
  for (const key in value) {
    if (key.includes('\u0000') || hasUnsafeValue((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

const UNSAFE_ERROR: ErrorObject = {
  keyword: 'unsafe',
  instancePath: '',
  schemaPath: '#',
  params: {},
  message: 'must not contain a NUL character or a number that is not finite',
};

export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A validator as Fastify calls it: false with `errors` set when the input is refused. */
export function compileValidator(schema: object, httpPart: HttpPart | string | undefined): Validator {
  const validate = (httpPart === 'body' ? strict : httpPart === 'querystring' ? query : lenient).compile(
    schema,
  );
  const checked: Validator = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    if ((httpPart === 'body' || httpPart === 'querystring') && hasUnsafeValue(data)) {
      checked.errors = [UNSAFE_ERROR];
      return false;
    }
    checked.errors = null;
    return true;
  };
  return checked;
}
