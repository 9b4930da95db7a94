import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#shared/backoffice';
import { RECHARGE_STATUS } from '#shared/status';
import { verifyAuditChain } from '../../server/lib/audit-verify';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { enrolledMember, type Member, opsCall, stepUp } from '../support/staff';
import { balanceOf, expectLedgerConsistent } from '../support/trading';

/**
 * The back office's deposit queue on both databases: a recharge waiting for its transfer is a
 * queue item with its amount, customer, bank reference and age; a confirmation credits it once
 * however confirmations race; a rejection credits nothing and tells the customer why; above
 * DEPOSIT_APPROVAL_ABOVE the confirming member cannot approve their own; support may not decide.
 * Every decision is in the audit log; the ledger audit and the audit chain check run after.
 */

const THRESHOLD_UNITS = 100_000;

describe.each(DIALECTS)('deposit queue on $name', ({ name, enabled }) => {
  let s: TestServer;
  const team = {} as Record<Role | 'payments2', Member>;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, {
      LOGIN_LIMIT_ADDRESS: '1000',
      DEPOSIT_APPROVAL_ABOVE: String(THRESHOLD_UNITS),
      SANDBOX_SETTLE_MS: '-1',
    });
    for (const role of ['support', 'payments', 'approver', 'admin'] as const)
      team[role] = await enrolledMember(s, role);
    team.payments2 = await enrolledMember(s, 'payments');
  });
  afterAll(async () => {
    if (s) {
      await expectLedgerConsistent(s);
      expect((await verifyAuditChain(s.deps.database)).problems).toEqual([]);
    }
    await s?.close();
  });

  async function recharge(count: number, reference?: string) {
    const u = await s.signUp();
    const r = await s.call('recharge', {
      token: u.token,
      body: { count, method: 'bank', ...(reference ? { reference } : {}) },
    });
    expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    return { ...u, rechargeId: r.body.data.id as number };
  }
  async function decide(m: Member, call: 'depositConfirm' | 'depositApprove', id: number) {
    await stepUp(s, m);
    return opsCall(s, call, m.token, { id });
  }
  const statusOf = async (id: number) =>
    (
      await s.deps.database.db
        .selectFrom('recharges')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  const creditsOf = async (id: number) =>
    (
      await s.deps.database.db
        .selectFrom('ledger')
        .select('id')
        .where('ref_type', '=', 'recharge')
        .where('ref_id', '=', id)
        .execute()
    ).length;
  const auditActions = async (id: number) =>
    (
      await s.deps.database.db
        .selectFrom('audit_log')
        .select(['action', 'actor'])
        .where('target_type', '=', 'recharge')
        .where('target_id', '=', String(id))
        .orderBy('seq')
        .execute()
    ).map((a) => a.action);

  it.runIf(enabled)(
    'a waiting recharge is a queue item with its amount, customer, reference and age',
    async () => {
      const c = await recharge(7500, 'hdfc0123456789');
      s.clock.advance(90_000);
      const q = await opsCall(s, 'queues', team.support.token);
      const item = q.body.data.items.find(
        (i: { type: string; id: string }) => i.type === 'deposit' && i.id === String(c.rechargeId),
      );
      expect(item).toMatchObject({
        amount: '7500.00',
        customerId: c.id,
        customerPhone: c.phone,
        detail: 'UTR HDFC0123456789',
      });
      expect(q.body.data.now - item.since).toBeGreaterThanOrEqual(90_000);
      expect(q.body.data.types.find((t: { type: string }) => t.type === 'deposit').count).toBeGreaterThan(0);
      const list = await opsCall(s, 'deposits', team.support.token);
      expect(list.body.data.threshold).toBe('100000.00');
      expect(list.body.data.rows.find((r: { id: number }) => r.id === c.rechargeId)).toMatchObject({
        userId: c.id,
        amount: '7500.00',
        reference: 'HDFC0123456789',
        needsApproval: false,
        approval: null,
      });
      // A reference that is no UTR is the customer's 400, never stored.
      const bad = await s.call('recharge', {
        token: c.token,
        body: { count: 5000, method: 'bank', reference: '<script>' },
      });
      expect(bad.status).toBe(400);
    },
  );

  it.runIf(enabled)('a confirmation credits once; confirming again is refused', async () => {
    const c = await recharge(6000);
    const r = await decide(team.payments, 'depositConfirm', c.rechargeId);
    expect(r.body, JSON.stringify(r.body)).toEqual({ msg: 'ok', data: { credited: true, approval: null } });
    expect(await balanceOf(s, c.id)).toBe(600_000);
    const again = await opsCall(s, 'depositConfirm', team.payments.token, { id: c.rechargeId });
    expect([again.status, again.body.data]).toEqual([409, 'ops.errors.notWaiting']);
    expect(await balanceOf(s, c.id)).toBe(600_000);
    expect(await creditsOf(c.rechargeId)).toBe(1);
    expect(await auditActions(c.rechargeId)).toEqual(['recharge:confirm']);
    const inbox = await s.call('notificationList', { token: c.token, query: { page: 1, limit: 10 } });
    expect(inbox.body.data.rows[0]).toMatchObject({ kind: 'payout', params: { event: 'recharged' } });
  });

  it.runIf(enabled)('two racing confirmations credit once', async () => {
    const c = await recharge(8000);
    await stepUp(s, team.payments);
    await stepUp(s, team.admin);
    const results = await Promise.all([
      opsCall(s, 'depositConfirm', team.payments.token, { id: c.rechargeId }),
      opsCall(s, 'depositConfirm', team.admin.token, { id: c.rechargeId }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(s, c.id)).toBe(800_000);
    expect(await creditsOf(c.rechargeId)).toBe(1);
    expect(await statusOf(c.rechargeId)).toBe(RECHARGE_STATUS.completed);
  });

  it.runIf(enabled)('a rejection credits nothing and tells the customer why', async () => {
    const c = await recharge(5000, 'SBIN99887766554');
    const empty = await opsCall(s, 'depositReject', team.payments.token, { id: c.rechargeId, text: '   ' });
    expect(empty.status).toBe(400);
    const r = await opsCall(s, 'depositReject', team.payments.token, {
      id: c.rechargeId,
      text: 'No transfer with this reference reached our account',
    });
    expect(r.body).toEqual({ msg: 'ok', data: null });
    expect(await statusOf(c.rechargeId)).toBe(RECHARGE_STATUS.failed);
    expect(await balanceOf(s, c.id)).toBe(0);
    expect(await creditsOf(c.rechargeId)).toBe(0);
    // Rejected is final: a late confirmation credits nothing.
    const late = await decide(team.payments, 'depositConfirm', c.rechargeId);
    expect(late.status).toBe(409);
    expect(await balanceOf(s, c.id)).toBe(0);
    const inbox = await s.call('notificationList', { token: c.token, query: { page: 1, limit: 10 } });
    expect(inbox.body.data.rows[0]).toMatchObject({
      kind: 'payout',
      params: {
        event: 'rechargeRejected',
        amount: 500_000,
        reason: 'No transfer with this reference reached our account',
      },
    });
    expect(await auditActions(c.rechargeId)).toEqual(['recharge:reject']);
  });

  it.runIf(enabled)('above the threshold the confirming member cannot approve their own', async () => {
    const c = await recharge(150_000);
    const asked = await decide(team.admin, 'depositConfirm', c.rechargeId);
    expect(asked.body.data).toMatchObject({ credited: false, approval: { makerName: expect.any(String) } });
    expect(await balanceOf(s, c.id)).toBe(0);
    // Asked once: a second confirm is refused while the request waits.
    const twice = await decide(team.payments2, 'depositConfirm', c.rechargeId);
    expect([twice.status, twice.body.data]).toEqual([409, 'ops.errors.awaitingApproval']);
    const own = await decide(team.admin, 'depositApprove', c.rechargeId);
    expect(own.status).toBe(403);
    expect(await balanceOf(s, c.id)).toBe(0);
    const q = await opsCall(s, 'queues', team.approver.token);
    expect(
      q.body.data.items.find(
        (i: { type: string; id: string }) => i.type === 'deposit' && i.id === String(c.rechargeId),
      ).title,
    ).toBe('Deposit awaiting a second approval');
    // Two checkers racing: one credits.
    await stepUp(s, team.approver);
    const checkers = await Promise.all([
      opsCall(s, 'depositApprove', team.approver.token, { id: c.rechargeId }),
      opsCall(s, 'depositApprove', team.approver.token, { id: c.rechargeId }),
    ]);
    expect(checkers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(s, c.id)).toBe(15_000_000);
    expect(await creditsOf(c.rechargeId)).toBe(1);
    expect(await auditActions(c.rechargeId)).toEqual(['recharge:request', 'recharge:approve']);
  });

  it.runIf(enabled)('support may look but not decide; malformed input is a 400', async () => {
    const c = await recharge(5000);
    await stepUp(s, team.support);
    for (const call of ['depositConfirm', 'depositApprove', 'depositReject'] as const) {
      const r = await opsCall(s, call, team.support.token, { id: c.rechargeId, text: 'no' });
      expect([r.status, r.body.data], call).toEqual([403, 'ops.errors.forbidden']);
    }
    expect(await statusOf(c.rechargeId)).toBe(RECHARGE_STATUS.inProgress);
    await stepUp(s, team.payments);
    for (const input of [
      {},
      { id: 'x' },
      { id: -1 },
      { id: 1.5 },
      { id: c.rechargeId, extra: 1 },
      { id: 2 ** 60 },
    ]) {
      const r = await opsCall(s, 'depositConfirm', team.payments.token, input);
      expect(r.status, JSON.stringify(input)).toBe(400);
    }
    for (const input of [
      { id: c.rechargeId },
      { id: c.rechargeId, text: 5 },
      { id: c.rechargeId, text: 'x'.repeat(501) },
    ]) {
      const r = await opsCall(s, 'depositReject', team.payments.token, input);
      expect(r.status, JSON.stringify(input)).toBe(400);
    }
    const missing = await opsCall(s, 'depositConfirm', team.payments.token, { id: 999_999 });
    expect(missing.status).toBe(404);
    expect(await statusOf(c.rechargeId)).toBe(RECHARGE_STATUS.inProgress);
  });
});
