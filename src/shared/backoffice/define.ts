/**
 * What every area of the back office's API (this folder, joined in src/shared/backoffice.ts)
 * declares its calls with: `OpsEndpoint`, the `ops` builder and the request pieces several areas
 * share.
 */

import type { Static, TSchema } from '@sinclair/typebox';
// The builders one by one (`* as`), not TypeBox's `Type` object, which holds every builder: the
// back office's bundle keeps only those used (+2 kB gzip instead of +12 kB; src/backoffice/README.md).
import * as Type from '@sinclair/typebox';
import type { Call } from '../contract/define';
import { RowId, Strict } from '../contract/schemas';
import type { Capability, Stage } from './roles';

/** One call of the back office's API: the contract's `Call` (src/shared/contract/define.ts) and who may make it. */
export interface OpsEndpoint<Req extends TSchema = TSchema, Res = unknown> extends Call<Req, Res> {
  /** `public`: no session (sign-in steps); `session`: any stage the call names in `stages`. */
  cap: Capability | 'public' | 'session';
  /** Session stages that may call it (default: only `full`). */
  stages?: readonly Stage[];
  /** Needs a second factor given within OPS_STEP_UP_MS. */
  stepUp?: boolean;
  /** Answers bytes (a photo, a CSV), not the JSON envelope. */
  raw?: boolean;
}

/** `ops<Answer>()({ ... })`: the answer type is given, the request type is the schema's. */
export const ops =
  <Res>() =>
  <Req extends TSchema>(def: Omit<OpsEndpoint<Req, Res>, 'res'>): OpsEndpoint<Req, Res> =>
    def;

export const Empty = Strict({});
export const ById = Strict({ id: RowId });
export const ByUser = Strict({ userId: RowId });
/** An admin's reason for deciding an item someone else claimed (server/approvals/people.ts). */
export const Override = Type.Optional(Type.String({ maxLength: 500 }));
export const Decide = Strict({ id: RowId, override: Override });
/** A decimal as typed (a rate, a ratio): the handler reads it with its own rule and error key. */
export const Decimal = Type.String({ minLength: 1, maxLength: 16 });
export const Code = Type.String({ minLength: 6, maxLength: 12 });
/**
 * A WebAuthn answer as JSON: the passkey library reads it. At most 16 fields, the cap the customer
 * contract puts on its passkey JSON (contract/security.ts), so a body of many keys is refused
 * before anything walks it.
 */
export const WebAuthnJson = Type.Object({}, { additionalProperties: true, maxProperties: 16 });
export const Proof = Type.Union([Strict({ code: Code }), Strict({ passkey: WebAuthnJson })]);

/** A second factor's proof: an authenticator code or a passkey's answer (WebAuthn JSON). */
export type FactorProof = Static<typeof Proof>;
