import { Secret, TOTP } from 'otpauth';
import { ApiError } from '../lib/errors';
import type { EnrolmentBinding } from './challenges';
import { type FactorContext, type FactorOwner, type Guard, ownerKey } from './context';
import { ownerHasFactor } from './owned';
import { seal, unseal } from './secrets';

/*
 * An authenticator app (RFC 6238): SHA-1, 6 digits, 30-second steps — what every app accepts from
 * a QR code — and codes of the step before or after accepted too (a phone's clock a little off).
 */
const PERIOD = 30;
const DIGITS = 6;
const WINDOW = 1;
const CODE = /^\d{6}$/;

/** A code as typed: spaces and dashes dropped ("123 456"). */
export const normaliseCode = (code: string) => code.replace(/[\s-]/g, '');

function totpOf(secret: string, label = '', issuer = ''): TOTP {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), digits: DIGITS, period: PERIOD });
}

/** The code an app shows at `at` for a base32 secret (tests, benchmarks, and the e2e's "app"). */
export function totpCode(secret: string, at: number): string {
  return totpOf(secret).generate({ timestamp: at });
}

export interface TotpSetup {
  /** Base32, to type into the app by hand. */
  secret: string;
  /** `otpauth://totp/…`, the QR code's text. */
  uri: string;
}

/**
 * Starts (or starts again) enrolling an app: a new 160-bit secret kept sealed and unconfirmed until
 * `confirmTotp`. Refused while a confirmed one exists (remove it first). With a `binding` (issue
 * 39) the owner has one pending secret, bound to the session that made it: another session's
 * younger than `pendingMs` is not replaced (`errors.totpPending`), and only that session confirms.
 */
export async function beginTotp(
  ctx: FactorContext,
  owner: FactorOwner,
  label: { issuer: string; account: string },
  binding?: EnrolmentBinding & { pendingMs: number },
): Promise<TotpSetup> {
  const key = ownerKey(owner);
  const current = await ctx.db
    .selectFrom('factor_totp')
    .select(['confirmed_at', 'session', 'created_at'])
    .where('owner', '=', key)
    .executeTakeFirst();
  if (current?.confirmed_at != null) throw new ApiError('errors.totpAlreadyOn', 409);
  const othersPending = (c: NonNullable<typeof current>) =>
    binding !== undefined &&
    c.session !== binding.session &&
    ctx.now - Number(c.created_at) < binding.pendingMs;
  if (current && othersPending(current)) throw new ApiError('errors.totpPending', 409);
  const secret = new Secret({ size: 20 }).base32;
  const sealed = seal(secret, ctx.settings.key);
  const bound = { session: binding?.session ?? null, gated: binding?.gated ? 1 : 0 };
  const res = await ctx.db
    .insertInto('factor_totp')
    .values({
      owner: key,
      secret: sealed,
      created_at: ctx.now,
      confirmed_at: null,
      last_step: null,
      ...bound,
    })
    .onConflict((oc) =>
      oc
        .column('owner')
        .doUpdateSet({ secret: sealed, created_at: ctx.now, last_step: null, ...bound })
        .where('factor_totp.confirmed_at', 'is', null)
        // Replaced only as read above: a pending secret another session made meanwhile stays.
        .$call((q) =>
          binding === undefined
            ? q
            : q.where((eb) =>
                eb.or([
                  eb('factor_totp.session', '=', binding.session),
                  eb('factor_totp.created_at', '<=', ctx.now - binding.pendingMs),
                ]),
              ),
        ),
    )
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 1) === 0) throw new ApiError('errors.totpPending', 409);
  return { secret, uri: totpOf(secret, label.account, label.issuer).toString() };
}

/**
 * Checks `code` as one attempt of `guard`: the step it belongs to (within one step of now) must be
 * newer than any step accepted before, and moving `last_step` to it is one guarded update — so a
 * code is good once, even when the same code arrives twice at the same moment. `confirming`: the
 * first code of an unconfirmed secret, which confirms it.
 */
async function checkCode(
  ctx: FactorContext,
  owner: FactorOwner,
  code: string,
  guard: Guard,
  confirming: boolean,
  session?: string,
): Promise<void> {
  const token = normaliseCode(code);
  if (!CODE.test(token)) throw new ApiError('errors.codeFormat', 400);
  const key = ownerKey(owner);
  const row = await ctx.db
    .selectFrom('factor_totp')
    .select(['secret', 'confirmed_at', 'session', 'gated'])
    .where('owner', '=', key)
    .executeTakeFirst();
  if (!row || (row.confirmed_at === null) !== confirming) throw new ApiError('errors.totpNotSetUp', 400);
  // Another session's pending secret is none of this one's business.
  if (confirming && session !== undefined && row.session !== session)
    throw new ApiError('errors.totpNotSetUp', 400);
  if (confirming && session !== undefined && Number(row.gated) !== 1 && (await ownerHasFactor(ctx.db, owner)))
    throw new ApiError('errors.enrolEnded', 409);
  let outcome = new ApiError('errors.codeWrong', 400);
  const ok = await guard(async () => {
    const delta = totpOf(unseal(row.secret, ctx.settings.key)).validate({
      token,
      timestamp: ctx.now,
      window: WINDOW,
    });
    if (delta === null) return false;
    const step = Math.floor(ctx.now / 1000 / PERIOD) + delta;
    const res = await ctx.db
      .updateTable('factor_totp')
      .set(confirming ? { last_step: step, confirmed_at: ctx.now } : { last_step: step })
      .where('owner', '=', key)
      .where('confirmed_at', confirming ? 'is' : 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) return true;
    outcome = new ApiError('errors.codeUsed', 400);
    return false;
  });
  if (!ok) throw outcome;
}

/**
 * The first code from the app: the secret is confirmed and the factor is on. Given `session`, the
 * pending secret must be that session's, and one begun ungated is refused once the owner has
 * another factor (`errors.enrolEnded`).
 */
export function confirmTotp(
  ctx: FactorContext,
  owner: FactorOwner,
  code: string,
  guard: Guard,
  session?: string,
) {
  return checkCode(ctx, owner, code, guard, true, session);
}

/** A code of a confirmed app (second step, or proof for a sensitive change); refusals throw. */
export function verifyTotp(ctx: FactorContext, owner: FactorOwner, code: string, guard: Guard) {
  return checkCode(ctx, owner, code, guard, false);
}

export async function totpEnabled(ctx: FactorContext, owner: FactorOwner): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('factor_totp')
    .select('confirmed_at')
    .where('owner', '=', ownerKey(owner))
    .executeTakeFirst();
  return row?.confirmed_at != null;
}

/** Turns the app off (confirmed or half-enrolled); answers whether one was on. */
export async function removeTotp(ctx: FactorContext, owner: FactorOwner): Promise<boolean> {
  const res = await ctx.db.deleteFrom('factor_totp').where('owner', '=', ownerKey(owner)).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** When the owner's app was turned on (its first code), or null when none is on. */
export async function totpConfirmedAt(ctx: FactorContext, owner: FactorOwner): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('factor_totp')
    .select('confirmed_at')
    .where('owner', '=', ownerKey(owner))
    .executeTakeFirst();
  return row?.confirmed_at == null ? null : Number(row.confirmed_at);
}
