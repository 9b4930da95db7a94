import { randomInt } from 'node:crypto';
import { ApiError } from '../lib/errors';
import { type FactorContext, type FactorOwner, type Guard, ownerKey } from './context';
import { keyedHash } from './secrets';

/** Ten codes per set; each 10 characters of Crockford's base32 (50 random bits), shown as xxxxx-xxxxx. */
export const RECOVERY_CODES = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 10;

/** A code as typed, the way Crockford's alphabet reads it: case, spaces and dashes ignored, o→0, i/l→1. */
export function normaliseRecovery(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const hashOf = (ctx: FactorContext, code: string) =>
  keyedHash(`recovery:${normaliseRecovery(code)}`, ctx.settings.key);

/** A new set of codes for `owner` (the old set stops working); the codes are answered once, never kept. */
export async function newRecoveryCodes(ctx: FactorContext, owner: FactorOwner): Promise<string[]> {
  const key = ownerKey(owner);
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODES) codes.add(newCode());
  await ctx.db.deleteFrom('factor_recovery').where('owner', '=', key).execute();
  await ctx.db
    .insertInto('factor_recovery')
    .values(
      [...codes].map((c) => ({ owner: key, code_hash: hashOf(ctx, c), created_at: ctx.now, used_at: null })),
    )
    .execute();
  return [...codes];
}

/**
 * Uses one recovery code as one attempt of `guard`: marking it used is one guarded update, so a
 * code opens once, however many requests carry it at the same moment.
 */
export async function redeemRecoveryCode(
  ctx: FactorContext,
  owner: FactorOwner,
  code: string,
  guard: Guard,
): Promise<void> {
  const clean = normaliseRecovery(code);
  if (clean.length !== LENGTH || [...clean].some((c) => !ALPHABET.includes(c)))
    throw new ApiError('errors.recoveryFormat', 400);
  const ok = await guard(async () => {
    const res = await ctx.db
      .updateTable('factor_recovery')
      .set({ used_at: ctx.now })
      .where('owner', '=', ownerKey(owner))
      .where('code_hash', '=', hashOf(ctx, clean))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  });
  if (!ok) throw new ApiError('errors.recoveryWrong', 400);
}

export async function recoveryCodesLeft(ctx: FactorContext, owner: FactorOwner): Promise<number> {
  const row = await ctx.db
    .selectFrom('factor_recovery')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner', '=', ownerKey(owner))
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function removeRecoveryCodes(ctx: FactorContext, owner: FactorOwner): Promise<void> {
  await ctx.db.deleteFrom('factor_recovery').where('owner', '=', ownerKey(owner)).execute();
}

/** When the owner's current set of recovery codes was made, or null when there is none. */
export async function recoverySetMadeAt(ctx: FactorContext, owner: FactorOwner): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('factor_recovery')
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('owner', '=', ownerKey(owner))
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}
