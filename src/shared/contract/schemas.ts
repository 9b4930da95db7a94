import type { TProperties } from '@sinclair/typebox';
// The builders one by one, not TypeBox's `Type` object: the back office's bundle loads this module
// and keeps only the builders used (src/shared/backoffice.ts).
import * as Type from '@sinclair/typebox';

/** Schema pieces shared by the domain contracts and the back office's (src/shared/backoffice.ts). */

/** A request object that takes only the fields it names (bodies are strict: nothing mass-assigned). */
export const Strict = <T extends TProperties>(props: T) =>
  Type.Object(props, { additionalProperties: false });

/** Text of 1 to `max` characters. */
export const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

/** One word of a fixed list, typed as the list's union. */
export const OneOf = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));

/** A time as epoch ms, within what a JavaScript Date holds. */
export const Epoch = Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 });

/** Paging of SPEC's lists: page from 1; limit defaults to PAGE_SIZE (10). */
export const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
};

/** A row's id as the server hands it out: a positive 32-bit integer (a PostgreSQL `integer`). */
export const RowId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** An instrument symbol as the provider writes it (RELIANCE.NS, AAPL, EURUSD=X). */
export const Ticker = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9.=^_-]+$' });

/** A whole amount of currency typed by the user (SPEC: digits only). */
export const WholeAmount = Type.Integer({ minimum: 1, maximum: 1_000_000_000 });

/** A quantity of shares/units. */
export const Quantity = Type.Integer({ minimum: 1, maximum: 10_000_000 });

/** The price the user saw when deciding (the server fills at its own price). */
export const SeenPrice = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

export const NoQuery = Type.Object({});

/**
 * The 6-digit transaction password a request carries (`stock_password`). Loose here on purpose:
 * a code of the wrong shape is answered `hint.tradePasswordInvalid` by the server, not a schema error.
 */
export const TradeCode = Type.String({ maxLength: 16 });

/** The app's id for this device (random, kept in the browser), so a sign-in from a new one is told. */
export const DeviceId = Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/** An authenticator app's 6-digit code, as typed (spaces allowed). */
export const Code = Type.String({ minLength: 1, maxLength: 12 });
/** A recovery code, as typed (xxxxx-xxxxx). */
export const Recovery = Type.String({ minLength: 1, maxLength: 24 });
