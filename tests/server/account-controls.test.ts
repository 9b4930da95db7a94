import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '#shared/backoffice';
import { WITHDRAW_STATUS } from '#shared/status';
import { runJob } from '../../server/jobs/index';
import { consoleActor } from '../../server/lib/audit-log';
import { verifyAuditChain } from '../../server/lib/audit-verify';
import { COMMANDS } from '../../server/ops/commands/index';
import { settleWithdrawals } from '../../server/wallet/jobs';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { addedMember, enrolledMember, type Member, opsCall, signInAgain, stepUp } from '../support/staff';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  stockOrder,
  toSession,
} from '../support/trading';
import { enrolTotp } from '../support/two-factor';
import { addCard, ensureTradeCode, TRADE_CODE } from '../support/wallet';

/**
 * Staff controls over a customer's account (server/account/controls.ts): freeze and
 * unfreeze, factor reset — each two people's through approvals/requests.ts and approvals/people.ts — and ending the
 * sessions, one member's. Each refused attack is named: the maker approving their own freeze, an
 * admin approving it with a member they just created, a frozen customer's stolen session, a frozen
 * customer's order, withdrawal, recharge and new card. Ledger audit and audit chain after.
 */

const SYMBOL = 'RELIANCE.NS';
const LAKH = 100_000;

describe.each(DIALECTS)('account controls on $name', ({ name, enabled }) => {
  let s: TestServer;
  const team = {} as Record<Role, Member>;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
    controlMarket(s).pin(SYMBOL, 2500);
    for (const role of ROLES) team[role] = await enrolledMember(s, role);
  });
  afterAll(async () => {
    if (s) {
      await expectLedgerConsistent(s);
      expect((await verifyAuditChain(s.deps.database)).problems).toEqual([]);
    }
    await s?.close();
  });

  async function customer() {
    const u = await s.signUp();
    await credit(s, u.id, 10 * LAKH * 100);
    const card = await addCard(s, u.token);
    await ensureTradeCode(s, u.token);
    return { ...u, card };
  }
  const ask = async (m: Member, userId: number, action: string, reason = 'Suspected account takeover') => {
    await stepUp(s, m);
    return opsCall(s, 'accountRequest', m.token, { userId, action, reason });
  };
  const approve = async (m: Member, userId: number) => {
    await stepUp(s, m);
    return opsCall(s, 'accountApprove', m.token, { userId });
  };
  const notices = (userId: number) =>
    s.deps.database.db
      .selectFrom('notifications')
      .select(['kind', 'params'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'security')
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => JSON.parse(r.params) as { event: string; staff?: number }));
  const frozenAt = async (userId: number) =>
    (
      await s.deps.database.db
        .selectFrom('users')
        .select('frozen_at')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).frozen_at;
  const moneyRows = async (userId: number) => {
    const db = s.deps.database.db;
    const count = async (table: 'orders' | 'withdrawals' | 'recharges' | 'bank_cards' | 'ledger') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      balance: await balanceOf(s, userId),
      orders: await count('orders'),
      withdrawals: await count('withdrawals'),
      recharges: await count('recharges'),
      cards: await count('bank_cards'),
      ledger: await count('ledger'),
    };
  };
  /** The clock moves a day (past the new-card hold): staff sessions end, so each signs in again. */
  async function pastCardHold() {
    s.clock.advance(s.config.newCardHoldMs + 1);
    for (const role of ROLES) team[role].token = await signInAgain(s, team[role]);
  }
  const withdrawBody = (card: number) => ({ bank_id: card, count: 1000, stock_password: TRADE_CODE });

  it.runIf(enabled)(
    'attack: the maker approves their own freeze — refused (403 ownAction), nothing changes, the refusal is audited',
    async () => {
      const c = await customer();
      const asked = await ask(team.support, c.id, 'freeze');
      expect(asked.body.msg, JSON.stringify(asked.body)).toBe('ok');
      expect(asked.body.data).toMatchObject({
        kind: 'account',
        status: 'awaiting',
        detail: { action: 'freeze' },
      });
      // Support may ask but holds no approve capability; an admin who asked cannot approve either.
      const own = await approve(team.support, c.id);
      expect([own.status, own.body.data]).toEqual([403, 'ops.errors.forbidden']);
      const admin = await enrolledMember(s, 'admin');
      const byAdmin = await ask(admin, (await customer()).id, 'freeze');
      const target = Number(byAdmin.body.data.targetId);
      const self = await approve(admin, target);
      expect([self.status, self.body.data]).toEqual([403, 'ops.errors.ownAction']);
      expect(await frozenAt(target)).toBeNull();
      expect((await s.call('balance', { token: c.token })).status).toBe(200);
      const denied = await s.deps.database.db
        .selectFrom('audit_log')
        .select('actor')
        .where('action', '=', 'denied:accountApprove')
        .where('reason', '=', 'ops.errors.ownAction')
        .execute();
      expect(denied.map((d) => d.actor)).toEqual([`staff:${admin.id}`]);
      // A second request while one waits is refused; the waiting one is rejected with a reason.
      expect((await ask(team.payments, c.id, 'freeze')).body.data).toBe('ops.errors.controlAwaiting');
      await stepUp(s, team.approver);
      const rejected = await opsCall(s, 'accountReject', team.approver.token, {
        userId: c.id,
        reason: 'Customer called: it was them',
      });
      expect(rejected.body.msg).toBe('ok');
      expect(await frozenAt(c.id)).toBeNull();
      const r2 = await opsCall(s, 'accountReject', team.approver.token, { userId: target, reason: 'no' });
      expect(r2.body.msg).toBe('ok');
    },
  );

  it.runIf(enabled)(
    'attack: an admin freezes, then approves with an approver they just created — refused (makerRelated)',
    async () => {
      const c = await customer();
      const admin = await enrolledMember(s, 'admin');
      expect((await ask(admin, c.id, 'freeze')).body.msg).toBe('ok');
      const made = await addedMember(s, admin, 'approver', 'frozen.approver');
      const refused = await approve(made, c.id);
      expect([refused.status, refused.body.data]).toEqual([403, 'ops.errors.makerRelated']);
      expect(await frozenAt(c.id)).toBeNull();
      // An approver nobody in the chain made approves it.
      const approved = await approve(team.approver, c.id);
      expect(approved.body.data).toEqual({ action: 'freeze', sessionsEnded: 1 });
      expect(await frozenAt(c.id)).not.toBeNull();
    },
  );

  it.runIf(enabled)(
    'freeze approved by a second member: sessions end (a stolen session is refused), money calls are refused with errors.accountFrozen and nothing changes; reading stays; unfreeze by two restores',
    async () => {
      const c = await customer();
      toSession(s, SYMBOL);
      // The thief's copy of the customer's session, taken before the freeze.
      const stolen = c.token;
      expect((await stockOrder(s, 'dealBuy', stolen, SYMBOL, { count: 1, price: 2500 })).body.msg).toBe('ok');
      expect((await ask(team.payments, c.id, 'freeze')).body.msg).toBe('ok');
      // Asked but not approved: nothing changed yet.
      expect(await frozenAt(c.id)).toBeNull();
      const approved = await approve(team.approver, c.id);
      expect(approved.body.data).toEqual({ action: 'freeze', sessionsEnded: 1 });
      expect(await frozenAt(c.id)).not.toBeNull();

      // Attack: the stolen session is over.
      const afterStolen = await s.call('balance', { token: stolen });
      expect(afterStolen.status).toBe(401);
      expect((await stockOrder(s, 'dealBuy', stolen, SYMBOL, { count: 1, price: 2500 })).status).toBe(401);

      // The customer signs in again: reading works, every money call is refused, nothing moves.
      const login = await s.call('login', { body: { user: c.phone, password: 'secret123' } });
      const token = login.body.data?.token as string;
      expect(token, JSON.stringify(login.body)).toBeTruthy();
      expect((await s.call('balance', { token })).body.msg).toBe('ok');
      // User info says so, and the app says it before the customer tries (shell/FrozenBanner.tsx).
      expect((await s.call('userInfo', { token })).body.data.frozen).toBe(true);
      const before = await moneyRows(c.id);
      const refusals = [
        await stockOrder(s, 'dealBuy', token, SYMBOL, { count: 1, price: 2500 }),
        await stockOrder(s, 'dealSell', token, SYMBOL, { count: 1, price: 2500 }),
        await s.call('withdraw', { token, body: withdrawBody(c.card), headers: idem() }),
        await s.call('recharge', { token, body: { count: 10_000 }, headers: idem() }),
        await s.call('loanApply', { token, body: { count: 10_000 }, headers: idem() }),
        await s.call('bankAdd', {
          token,
          body: {
            bank: 'HDFC Bank',
            branch_bank: 'X',
            bank_card: '50120000000000091',
            bank_user: 'Thief',
            ifsc: 'HDFC0000123',
            stock_password: TRADE_CODE,
          },
        }),
      ];
      for (const r of refusals) expect([r.status, r.body.data]).toEqual([403, 'errors.accountFrozen']);
      expect(await moneyRows(c.id)).toEqual(before);
      expect((await notices(c.id)).map((n) => n.event)).toContain('accountFrozen');

      // Unfreeze: two people again; the maker cannot approve it.
      expect((await ask(team.payments, c.id, 'unfreeze', 'Identity confirmed by video call')).body.msg).toBe(
        'ok',
      );
      expect((await approve(team.payments, c.id)).body.data).toBe('ops.errors.forbidden');
      expect((await approve(team.admin, c.id)).body.data).toEqual({ action: 'unfreeze', sessionsEnded: 0 });
      expect(await frozenAt(c.id)).toBeNull();
      expect((await s.call('userInfo', { token })).body.data.frozen).toBe(false);
      const placed = await stockOrder(s, 'dealBuy', token, SYMBOL, { count: 1, price: 2500 });
      expect(placed.body.msg, JSON.stringify(placed.body)).toBe('ok');
      expect((await notices(c.id)).map((n) => n.event)).toContain('accountUnfrozen');
      // Audit entries of both, with the reasons.
      const entries = await s.deps.database.db
        .selectFrom('audit_log')
        .select(['action', 'reason'])
        .where('customer_id', '=', c.id)
        .where('action', 'like', 'account:%')
        .orderBy('seq')
        .execute();
      expect(entries.map((e) => e.action)).toEqual([
        'account:freeze:request',
        'account:freeze',
        'account:unfreeze:request',
        'account:unfreeze',
      ]);
      expect(entries[1]!.reason).toBe('Suspected account takeover');
    },
  );

  it.runIf(enabled)(
    'attack: a frozen customer’s withdrawal in progress paid out anyway — neither the rail nor staff pay it (409 customerFrozen) until the unfreeze',
    async () => {
      const c = await customer();
      await pastCardHold();
      const w = await s.call('withdraw', { token: c.token, body: withdrawBody(c.card), headers: idem() });
      expect(w.body.msg, JSON.stringify(w.body)).toBe('ok');
      const id = w.body.data.id as number;
      await ask(team.payments, c.id, 'freeze');
      await approve(team.approver, c.id);
      s.clock.advance(s.config.sandboxSettleMs + 1);
      await runJob(s.deps, settleWithdrawals);
      const status = async () =>
        (
          await s.deps.database.db
            .selectFrom('withdrawals')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status;
      expect(await status()).toBe(WITHDRAW_STATUS.inProgress);
      // Staff cannot pay it or release it to the rail either (the console goes through the same).
      await stepUp(s, team.payments);
      const paid = await opsCall(s, 'payoutPay', team.payments.token, { id });
      expect([paid.status, paid.body.data]).toEqual([409, 'ops.errors.customerFrozen']);
      const released = await opsCall(s, 'payoutRelease', team.payments.token, { id });
      expect([released.status, released.body.data]).toEqual([409, 'ops.errors.customerFrozen']);
      expect(await status()).toBe(WITHDRAW_STATUS.inProgress);
      await ask(team.payments, c.id, 'unfreeze', 'cleared');
      await approve(team.approver, c.id);
      await runJob(s.deps, settleWithdrawals);
      expect(await status()).not.toBe(WITHDRAW_STATUS.inProgress);
    },
  );

  it.runIf(enabled)(
    'attack: the console asks for a freeze and a member the console made lately approves it — refused (makerRelated); the console has no approve command',
    async () => {
      const c = await customer();
      expect(COMMANDS.some((cmd) => cmd.name.startsWith('account:') && /approve/.test(cmd.name))).toBe(false);
      const freeze = COMMANDS.find((cmd) => cmd.name === 'account:freeze')!;
      expect(
        await freeze.run(s.deps, [String(c.id), 'Bank', 'reported', 'fraud'], consoleActor('alice')),
      ).toMatch(/^Asked \(request \d+\)/);
      // Every member here was added by the console within OPS_RELATED_DAYS.
      const refused = await approve(team.approver, c.id);
      expect([refused.status, refused.body.data]).toEqual([403, 'ops.errors.makerRelated']);
      expect(await frozenAt(c.id)).toBeNull();
      await expect(freeze.run(s.deps, [String(c.id), ''], consoleActor('bob'))).rejects.toThrow(/reason/);
      const end = COMMANDS.find((cmd) => cmd.name === 'account:end-sessions')!;
      expect(await end.run(s.deps, [String(c.id), 'Lost', 'phone'], consoleActor('alice'))).toBe(
        `1 session of customer ${c.id} ended.`,
      );
      await opsCall(s, 'accountReject', team.approver.token, { userId: c.id, reason: 'test over' });
    },
  );

  it.runIf(enabled)(
    'ending the sessions: one member, a reason, audited, the customer told; a blank reason is refused',
    async () => {
      const c = await customer();
      await stepUp(s, team.support);
      const blank = await opsCall(s, 'sessionsEnd', team.support.token, { userId: c.id, reason: '   ' });
      expect([blank.status, blank.body.data]).toEqual([400, 'ops.errors.reasonNeeded']);
      expect((await s.call('balance', { token: c.token })).status).toBe(200);
      const ended = await opsCall(s, 'sessionsEnd', team.support.token, {
        userId: c.id,
        reason: 'Customer lost their phone',
      });
      expect(ended.body.data).toEqual({ sessionsEnded: 1 });
      expect((await s.call('balance', { token: c.token })).status).toBe(401);
      expect((await notices(c.id)).at(-1)).toEqual({ event: 'sessionsEnded', staff: 1 });
      const entry = await s.deps.database.db
        .selectFrom('audit_log')
        .select(['actor', 'reason'])
        .where('action', '=', 'account:endSessions')
        .where('customer_id', '=', c.id)
        .executeTakeFirstOrThrow();
      expect(entry).toEqual({ actor: `staff:${team.support.id}`, reason: 'Customer lost their phone' });
    },
  );

  it.runIf(enabled)(
    'factor reset: two people; the factors go, sessions end, the customer is told and withdrawals are held for 24 h',
    async () => {
      const c = await customer();
      await pastCardHold();
      await enrolTotp(s, c.token);
      const none = await ask(team.support, (await customer()).id, 'factorReset');
      expect(none.body.data).toBe('ops.errors.noFactor');
      expect(
        (await ask(team.support, c.id, 'factorReset', 'Customer lost their phone; ID checked')).body.msg,
      ).toBe('ok');
      expect((await approve(team.approver, c.id)).body.data).toMatchObject({ action: 'factorReset' });
      const view = await opsCall(s, 'customer', team.approver.token, { id: c.id });
      expect(view.body.data.standing).toMatchObject({
        factors: { totp: false, passkeys: 0 },
        sessions: 0,
        request: null,
      });
      expect((await notices(c.id)).at(-1)).toEqual({ event: 'factorReset', staff: 1 });
      // Password alone signs in now; a withdrawal within the day waits for a person.
      const login = await s.call('login', { body: { user: c.phone, password: 'secret123' } });
      const token = login.body.data?.token as string;
      expect(token, JSON.stringify(login.body)).toBeTruthy();
      const w = await s.call('withdraw', { token, body: withdrawBody(c.card), headers: idem() });
      expect(w.body.msg, JSON.stringify(w.body)).toBe('ok');
      const row = await s.deps.database.db
        .selectFrom('withdrawals')
        .select('hold')
        .where('id', '=', w.body.data.id)
        .executeTakeFirstOrThrow();
      expect(row.hold).toBe('wallet.hold.securityChange');
    },
  );

  const resetDue = async (userId: number) =>
    (
      await s.deps.database.db
        .selectFrom('users')
        .select('password_reset_at')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).password_reset_at;
  const login = (phone: string, password: string) => s.call('login', { body: { user: phone, password } });

  it.runIf(enabled)(
    'password reset: two people, racing approvals act once; the old password is refused with passwordResetByStaff, a stolen session ends, the customer is told, forgot-password restores access and withdrawals are held for 24 h',
    async () => {
      const c = await customer();
      await pastCardHold();
      // The thief's copy of the customer's session, taken before the reset.
      const stolen = c.token;
      const asked = await ask(
        team.support,
        c.id,
        'passwordReset',
        'Customer says their password was phished',
      );
      expect(asked.body.data).toMatchObject({ status: 'awaiting', detail: { action: 'passwordReset' } });
      // Asked but not approved: nothing changed yet.
      expect(await resetDue(c.id)).toBeNull();
      expect((await s.call('balance', { token: stolen })).status).toBe(200);

      // Two checkers approve at once: it acts once, the other finds nothing waiting.
      await stepUp(s, team.approver);
      await stepUp(s, team.admin);
      const raced = await Promise.all([
        opsCall(s, 'accountApprove', team.approver.token, { userId: c.id }),
        opsCall(s, 'accountApprove', team.admin.token, { userId: c.id }),
      ]);
      const done = raced.filter((r) => r.body.msg === 'ok');
      expect(done.map((r) => r.body.data)).toEqual([{ action: 'passwordReset', sessionsEnded: 1 }]);
      expect(raced.filter((r) => r.body.msg !== 'ok').map((r) => [r.status, r.body.data])).toEqual([
        [409, 'ops.errors.notWaiting'],
      ]);
      expect(await resetDue(c.id)).not.toBeNull();

      // Attack: the stolen session is over.
      expect((await s.call('balance', { token: stolen })).status).toBe(401);
      // The old password signs nobody in, and says what to do; a wrong one says no more than before.
      const old = await login(c.phone, 'secret123');
      expect([old.status, old.body.data]).toEqual([400, 'errors.passwordResetByStaff']);
      expect((await login(c.phone, 'guess1234')).body.data).toBe('errors.invalidCredentials');
      // Told in the inbox, and shown on the other devices as a security change made by support.
      expect((await notices(c.id)).at(-1)).toEqual({ event: 'staffPasswordReset', staff: 1 });
      const changes = await s.deps.database.db
        .selectFrom('security_changes')
        .select('event')
        .where('user_id', '=', c.id)
        .execute();
      expect(changes.map((ch) => ch.event)).toContain('staffPasswordReset');
      const view = await opsCall(s, 'customer', team.approver.token, { id: c.id });
      expect(view.body.data.standing).toMatchObject({ sessions: 0, request: null });
      const entries = await s.deps.database.db
        .selectFrom('audit_log')
        .select(['action', 'reason'])
        .where('customer_id', '=', c.id)
        .where('action', 'like', 'account:%')
        .orderBy('seq')
        .execute();
      expect(entries).toEqual([
        { action: 'account:passwordReset:request', reason: 'Customer says their password was phished' },
        { action: 'account:passwordReset', reason: 'Customer says their password was phished' },
      ]);

      // Forgot password sets a new one: the old one is gone for good, the new one signs in.
      const forgot = await s.call('forget', {
        body: { user: c.phone, password: 'secret123', new_password: 'fresh4567' },
      });
      expect(forgot.body, JSON.stringify(forgot.body)).toEqual({ msg: 'ok', data: null });
      expect(await resetDue(c.id)).toBeNull();
      expect((await login(c.phone, 'secret123')).body.data).toBe('errors.invalidCredentials');
      const fresh = await login(c.phone, 'fresh4567');
      const token = fresh.body.data?.token as string;
      expect(token, JSON.stringify(fresh.body)).toBeTruthy();
      const w = await s.call('withdraw', { token, body: withdrawBody(c.card), headers: idem() });
      expect(w.body.msg, JSON.stringify(w.body)).toBe('ok');
      const row = await s.deps.database.db
        .selectFrom('withdrawals')
        .select('hold')
        .where('id', '=', w.body.data.id)
        .executeTakeFirstOrThrow();
      expect(row.hold).toBe('wallet.hold.securityChange');
    },
  );

  it.runIf(enabled)(
    'attack: the maker approves their own password reset — refused (403 ownAction), the password still signs in',
    async () => {
      const c = await customer();
      const admin = await enrolledMember(s, 'admin');
      expect((await ask(admin, c.id, 'passwordReset')).body.msg).toBe('ok');
      const self = await approve(admin, c.id);
      expect([self.status, self.body.data]).toEqual([403, 'ops.errors.ownAction']);
      expect(await resetDue(c.id)).toBeNull();
      expect((await s.call('balance', { token: c.token })).status).toBe(200);
      expect((await login(c.phone, 'secret123')).body.msg).toBe('ok');
      await opsCall(s, 'accountReject', admin.token, { userId: c.id, reason: 'test over' });
    },
  );

  it.runIf(enabled)(
    'attack: without the capability — a payments member (no approve) cannot approve a password reset (403 forbidden), a customer’s token cannot ask for one; nothing changes',
    async () => {
      const c = await customer();
      const thief = await customer();
      const byCustomer = await opsCall(s, 'accountRequest', thief.token, {
        userId: c.id,
        action: 'passwordReset',
        reason: 'lock them out',
      });
      expect(byCustomer.status).toBe(401);
      expect((await ask(team.support, c.id, 'passwordReset')).body.msg).toBe('ok');
      const byPayments = await approve(team.payments, c.id);
      expect([byPayments.status, byPayments.body.data]).toEqual([403, 'ops.errors.forbidden']);
      expect(await resetDue(c.id)).toBeNull();
      expect((await login(c.phone, 'secret123')).body.msg).toBe('ok');
      await stepUp(s, team.approver);
      await opsCall(s, 'accountReject', team.approver.token, { userId: c.id, reason: 'test over' });
    },
  );
});
