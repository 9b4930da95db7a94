import type { Kysely } from 'kysely';
import {
  ACCOUNT_ACTIONS,
  type AccountAction,
  type AccountStanding,
  type ApprovalView,
} from '#shared/backoffice';
import { assertClaim, type DecisionOptions, overrideOf } from '../approvals/people';
import {
  approvalView,
  awaiting,
  bindingOf,
  checkApproval,
  closeApproval,
  requestApproval,
} from '../approvals/requests';
import { plainText } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { factorsOf, listPasskeys, removePasskey, removeRecoveryCodes, removeTotp } from '../factors/index';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { forgetEnded } from '../lib/session-notices';
import { notify } from '../notify/notify';
import { recordSecurityChange } from './security-events';
import { endSessionsIn } from './sessions';
import { factorContext, userOwner } from './two-factor';

/**
 * Staff controls over a customer's account, each with a reason, an audit entry and a notice the
 * customer reads in their language (inbox kind `security`, `params.event`, `params.staff`):
 * - freeze, unfreeze, factor reset and password reset are two people's (approvals/requests.ts, the mechanism loans and
 *   deposits use; approvals/people.ts decides who counts as someone else): one member asks, another approves,
 *   and only then does anything change. One control waits per customer at a time. A request is
 *   bound to the account as the maker saw it (frozen or not, the factors it has); if that changed
 *   the approval is void.
 *   - freeze: users.frozen_at is set and every session ends; the money calls refuse
 *     (account/freeze.ts) until an unfreeze, which clears it (the customer signs in again).
 *   - factor reset: the authenticator, every passkey and the recovery codes go, every session ends,
 *     and the change is recorded as a security change, so withdrawals are held for FACTOR_SETTLE_MS
 *     (24 h; wallet/withdraw.ts) and the customer's other devices show it at their next sign-in.
 *   - password reset: users.password_reset_at is set, so the password signs nobody in (the login
 *     answers errors.passwordResetByStaff: use forgot-password, which proves the old password and
 *     any second factor, sets a new one and clears the mark); every session ends, and it is a
 *     security change like the factor reset (withdrawals held, other devices told).
 * - ending the sessions is one member's action: it only ever signs the customer out.
 * The staff's reason stays in the audit log: the customer's notice says what happened, not why
 * (a fraud suspicion is not told to the suspect); support answers in the chat.
 */

const KIND = 'account';
const CLAIMS = ['account'] as const;
/** What the customer's change list names as the source of a change made by staff. */
const STAFF_SOURCE = {
  device: 'staff',
  userAgent: undefined,
  address: 'back office',
  name: 'Bourse support',
};

/** A reason for the audit log: plain text, 1–500 characters. */
function reasonOf(text: string): string {
  const reason = plainText(text ?? '')
    .trim()
    .slice(0, 500);
  if (!reason) throw invalid('ops.errors.reasonNeeded');
  return reason;
}

async function accountOf(trx: Kysely<DB>, deps: Deps, userId: number) {
  let q = trx.selectFrom('users').select(['id', 'frozen_at']).where('id', '=', userId);
  if (deps.database.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function factorsNow(trx: Kysely<DB>, deps: Deps, userId: number) {
  const f = await factorsOf(factorContext(deps, trx), userOwner(userId));
  return { totp: f.totp, passkeys: f.passkeys.length };
}

/** What a request is bound to: the account as the maker saw it. */
async function bindingNow(trx: Kysely<DB>, deps: Deps, userId: number, action: AccountAction) {
  const account = await accountOf(trx, deps, userId);
  const f = await factorsNow(trx, deps, userId);
  return { account, factors: f, binding: bindingOf([userId, action, account.frozen_at, f.totp, f.passkeys]) };
}

/** The customer reads what happened in their inbox, in their language (watch.inbox.security.*). */
function tell(trx: Kysely<DB>, deps: Deps, userId: number, event: string) {
  return notify(trx, {
    userId,
    kind: 'security',
    symbol: '',
    params: { event, staff: 1 },
    at: deps.clock.now(),
  });
}

/** The customer page's view: frozen or not, live sessions, factors, the control waiting. */
export async function standingOf(deps: Deps, userId: number): Promise<AccountStanding> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [user, sessions, factors, request] = await Promise.all([
    db.selectFrom('users').select('frozen_at').where('id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst(),
    factorsNow(db, deps, userId),
    db
      .selectFrom('approvals')
      .selectAll()
      .where('kind', '=', KIND)
      .where('target_id', '=', String(userId))
      .where('status', '=', 'awaiting')
      .executeTakeFirst(),
  ]);
  let intact = false;
  if (request) {
    const detail = JSON.parse(request.detail ?? '{}') as { action?: AccountAction };
    const f = factors;
    intact =
      request.binding === bindingOf([userId, detail.action, user?.frozen_at ?? null, f.totp, f.passkeys]);
  }
  return {
    frozenAt: user?.frozen_at == null ? null : Number(user.frozen_at),
    sessions: Number(sessions?.n ?? 0),
    factors,
    request: request ? approvalView(request, intact) : null,
  };
}

/** A member asks for a control; nothing changes until another member approves it. */
export async function requestControl(
  deps: Deps,
  actor: Actor,
  userId: number,
  action: AccountAction,
  text: string,
): Promise<ApprovalView> {
  if (!(ACCOUNT_ACTIONS as readonly string[]).includes(action)) throw invalid('ops.errors.accountAction');
  const reason = reasonOf(text);
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const { account, factors, binding } = await bindingNow(trx, deps, userId, action);
    if (action === 'freeze' && account.frozen_at !== null) throw conflict('ops.errors.alreadyFrozen');
    if (action === 'unfreeze' && account.frozen_at === null) throw conflict('ops.errors.notFrozen');
    if (action === 'factorReset' && !factors.totp && factors.passkeys === 0)
      throw conflict('ops.errors.noFactor');
    if (await awaiting(trx, deps, KIND, String(userId))) throw conflict('ops.errors.controlAwaiting');
    const request = await requestApproval(trx, deps, actor, {
      kind: KIND,
      targetId: String(userId),
      userId,
      amount: null,
      binding,
      detail: { action, reason },
    });
    return {
      result: approvalView(request, true),
      entry: {
        action: `account:${action}:request`,
        targetType: 'user',
        targetId: userId,
        customerId: userId,
        before: { frozenAt: account.frozen_at, factors },
        after: { approval: request.id, awaiting: true },
        reason,
      },
    };
  });
  return result;
}

/** What an approved control does, inside the approval's transaction; answers the sessions ended. */
async function apply(trx: Kysely<DB>, deps: Deps, userId: number, action: AccountAction): Promise<number> {
  const now = deps.clock.now();
  if (action === 'freeze') {
    await trx.updateTable('users').set({ frozen_at: now }).where('id', '=', userId).execute();
    await tell(trx, deps, userId, 'accountFrozen');
    return endSessionsIn(trx, deps, userId);
  }
  if (action === 'unfreeze') {
    await trx.updateTable('users').set({ frozen_at: null }).where('id', '=', userId).execute();
    await tell(trx, deps, userId, 'accountUnfrozen');
    return 0;
  }
  if (action === 'passwordReset') {
    // Staff never see or set a password: the stored one stops signing in (sign-in.ts) until the
    // customer sets a new one with forgot-password, which clears the mark.
    await trx.updateTable('users').set({ password_reset_at: now }).where('id', '=', userId).execute();
    await tell(trx, deps, userId, 'staffPasswordReset');
    await recordSecurityChange(trx, userId, 'staffPasswordReset', now, STAFF_SOURCE);
    return endSessionsIn(trx, deps, userId);
  }
  const ctx = factorContext(deps, trx);
  const owner = userOwner(userId);
  await removeTotp(ctx, owner);
  for (const p of await listPasskeys(ctx, owner)) await removePasskey(ctx, owner, p.id);
  await removeRecoveryCodes(ctx, owner);
  await tell(trx, deps, userId, 'factorReset');
  // A security change like the customer's own: withdrawals wait FACTOR_SETTLE_MS for a person.
  await recordSecurityChange(trx, userId, 'factorReset', now, STAFF_SOURCE);
  return endSessionsIn(trx, deps, userId);
}

/** Another member approves the waiting control: it takes effect now, or is void if the account changed. */
export async function approveControl(
  deps: Deps,
  actor: Actor,
  userId: number,
  options: DecisionOptions = {},
): Promise<{ action: AccountAction; sessionsEnded: number }> {
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const waiting = await awaiting(trx, deps, KIND, String(userId));
    if (!waiting) throw conflict('ops.errors.notWaiting');
    const { action, reason } = JSON.parse(waiting.detail ?? '{}') as {
      action: AccountAction;
      reason: string;
    };
    const override = overrideOf(await assertClaim(trx, CLAIMS, String(userId), actor, options.override));
    const { account, factors, binding } = await bindingNow(trx, deps, userId, action);
    const outcome = await checkApproval(trx, deps, actor, waiting, binding);
    const sessionsEnded = outcome === 'approved' ? await apply(trx, deps, userId, action) : 0;
    return {
      result: { action, sessionsEnded, void: outcome === 'void' },
      entry: {
        action: outcome === 'approved' ? `account:${action}` : `account:${action}:void`,
        targetType: 'user',
        targetId: userId,
        customerId: userId,
        before: { frozenAt: account.frozen_at, factors, approval: waiting.id, maker: waiting.maker },
        after:
          outcome === 'approved'
            ? { approval: waiting.id, sessionsEnded, ...override }
            : { approval: waiting.id, void: 'changed since it was asked' },
        reason,
      },
    };
  });
  if (result.void) throw conflict('ops.errors.controlVoid');
  if (result.sessionsEnded > 0) forgetEnded(deps, { userId });
  return { action: result.action, sessionsEnded: result.sessionsEnded };
}

/** The waiting control withdrawn by its maker or turned down by anyone else, with the reason. */
export async function rejectControl(
  deps: Deps,
  actor: Actor,
  userId: number,
  text: string,
  options: DecisionOptions = {},
): Promise<void> {
  const reason = reasonOf(text);
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const waiting = await awaiting(trx, deps, KIND, String(userId));
    if (!waiting) throw conflict('ops.errors.notWaiting');
    const override = overrideOf(await assertClaim(trx, CLAIMS, String(userId), actor, options.override));
    await closeApproval(trx, deps, actor, KIND, String(userId), reason);
    const { action } = JSON.parse(waiting.detail ?? '{}') as { action: AccountAction };
    return {
      result: undefined,
      entry: {
        action: `account:${action}:reject`,
        targetType: 'user',
        targetId: userId,
        customerId: userId,
        before: { approval: waiting.id, maker: waiting.maker },
        after: { status: 'rejected', ...override },
        reason,
      },
    };
  });
}

/** Ends every session of the customer now (one member's action): they sign in again. */
export async function endCustomerSessions(
  deps: Deps,
  actor: Actor,
  userId: number,
  text: string,
): Promise<{ sessionsEnded: number }> {
  const reason = reasonOf(text);
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    await accountOf(trx, deps, userId);
    const sessionsEnded = await endSessionsIn(trx, deps, userId);
    await tell(trx, deps, userId, 'sessionsEnded');
    return {
      result: sessionsEnded,
      entry: {
        action: 'account:endSessions',
        targetType: 'user',
        targetId: userId,
        customerId: userId,
        after: { sessionsEnded },
        reason,
      },
    };
  });
  forgetEnded(deps, { userId });
  return { sessionsEnded: result };
}
