import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../server/ops/commands/index';
import { auditLedger } from '../../server/wallet/audit';
import { DIALECTS, ops, startTestServer, type TestServer } from '../support/server';
import { controlMarket, idem } from '../support/trading';
import { addCard, fund, TRADE_CODE } from '../support/wallet';

/**
 * The ledger audit must find what it promises to find: each case damages a healthy database in
 * one way (as a bug or a hand edit would), expects the audit to name it, then repairs it.
 */
describe.each(DIALECTS)('ledger audit on $name', ({ name, enabled }) => {
  let s: TestServer;
  let a: { token: string; id: number };
  let b: { token: string; id: number };
  let orderId: number;
  let withdrawalId: number;
  const audit = async () => (await auditLedger(s.deps.database.db)).problems;
  const db = () => s.deps.database.db;

  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { SANDBOX_SETTLE_MS: '1000' });
    controlMarket(s).pin('RELIANCE.NS', 2500);
    a = await s.signUp();
    b = await s.signUp();
    await fund(s, a.token, 50_000);
    await fund(s, b.token, 5_000);
    const buy = await s.call('dealBuy', {
      token: a.token,
      body: { tag: 'RELIANCE.NS', count: 4, price: 2500, mold: 'stock' },
      headers: idem(),
    });
    expect(buy.body.msg).toBe('ok');
    orderId = buy.body.data.id;
    // A pending sell (5 % above the quote, inside the limit band) reserves shares.
    const sell = await s.call('dealSell', {
      token: a.token,
      body: { tag: 'RELIANCE.NS', count: 2, price: 2625, mold: 'stock' },
      headers: idem(),
    });
    expect(sell.body.data.status).toBe(0);
    const card = await addCard(s, a.token);
    const w = await s.call('withdraw', {
      token: a.token,
      body: { bank_id: card, count: 500, stock_password: TRADE_CODE },
      headers: idem(),
    });
    expect(w.body.msg).toBe('ok');
    withdrawalId = w.body.data.id;
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)('finds nothing wrong with a healthy database and reports its totals', async () => {
    const r = await auditLedger(db());
    expect(r.problems).toEqual([]);
    expect(r.byReason.recharge).toBe(5_500_000 + r.externalCredits);
    expect(r.byReason.buyStock).toBe(-1_000_000);
    expect(r.byReason.withdraw).toBe(-50_000);
    // Charges of the ₹10,000 buy: brokerage 300 + STT 1,000 + exchange 30 + SEBI 1 + stamp 150
    // + GST 18 % × 331 = 60 (paise).
    expect(r.byReason.transactionExpenses).toBe(-1541);
    expect(r.balances).toBe(5_500_000 - 1_000_000 - 1541 - 50_000 + r.externalCredits);
  });

  it.runIf(enabled)('finds a balance changed without a posting', async () => {
    await db().updateTable('users').set({ balance: sql`balance + 1` }).where('id', '=', a.id).execute();
    expect(await audit()).toEqual([expect.stringMatching(`user ${a.id}: balance .* ≠ sum of postings`)]);
    await db().updateTable('users').set({ balance: sql`balance - 1` }).where('id', '=', a.id).execute();
    expect(await audit()).toEqual([]);
  });

  it.runIf(enabled)(
    'finds interest added to a loan without a posting on its ledger, and one that does not add up',
    async () => {
      const apply = await s.call('loanApply', { token: b.token, body: { count: 1000 }, headers: idem() });
      const loanId = apply.body.data.id as number;
      await ops(s, 'loan:approve', String(loanId));
      expect(await audit()).toEqual([]);
      // Due raised by hand: neither its postings nor its recorded interest say so.
      await db()
        .updateTable('loans')
        .set({ due: sql`due + 500`, interest: sql`interest + 500` })
        .where('id', '=', loanId)
        .execute();
      expect(await audit()).toEqual([
        expect.stringMatching(`loan ${loanId}: due 100500, its postings sum to 100000, expected 100500`),
        expect.stringMatching(`loan ${loanId}: accrued 0 but records 500`),
      ]);
      // A posting that breaks the running amount due.
      await db()
        .insertInto('loan_postings')
        .values({
          loan_id: loanId,
          user_id: b.id,
          amount: 500,
          due_after: 100_499,
          reason: 'interest',
          created_at: s.clock.now(),
        })
        .execute();
      expect(await audit()).toEqual([
        expect.stringMatching(`loan ${loanId}: a posting leaves 100499 due after a running sum of 100500`),
      ]);
      await db()
        .updateTable('loan_postings')
        .set({ due_after: 100_500 })
        .where('loan_id', '=', loanId)
        .where('amount', '=', 500)
        .execute();
      expect(await audit()).toEqual([]);
    },
  );

  it.runIf(enabled)('finds a withdrawal marked failed whose money never came back', async () => {
    await db().updateTable('withdrawals').set({ status: 'b' }).where('id', '=', withdrawalId).execute();
    expect(await audit()).toEqual([expect.stringMatching(`withdrawal ${withdrawalId} .*refund: 0 postings`)]);
    await db().updateTable('withdrawals').set({ status: 'n' }).where('id', '=', withdrawalId).execute();
  });

  it.runIf(enabled)('finds an order that cost nothing and a posting for someone else', async () => {
    const order = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const { id: _id, ...copy } = order;
    const free = await db()
      .insertInto('orders')
      .values({ ...copy, no: `${order.no}X` })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await audit()).toEqual([
      expect.stringMatching(`order ${free.id} \\(user ${a.id}\\): 0 buy postings`),
    ]);
    await db().updateTable('orders').set({ user_id: b.id }).where('id', '=', orderId).execute();
    const problems = await audit();
    expect(problems).toContainEqual(
      expect.stringMatching(`order ${orderId} of user ${b.id}: posting for user ${a.id}`),
    );
    await db().updateTable('orders').set({ user_id: a.id }).where('id', '=', orderId).execute();
    await db().deleteFrom('orders').where('id', '=', free.id).execute();
    expect(await audit()).toEqual([]);
  });

  it.runIf(enabled)('finds a posting edited after the fact and one naming a missing row', async () => {
    const last = await db()
      .selectFrom('ledger')
      .select(['id', 'balance_after'])
      .where('user_id', '=', b.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('ledger')
      .set({ balance_after: sql`balance_after + 7` })
      .where('id', '=', last.id)
      .execute();
    expect(await audit()).toEqual([expect.stringMatching(`posting ${last.id} \\(user ${b.id}\\)`)]);
    await db()
      .updateTable('ledger')
      .set({ balance_after: last.balance_after })
      .where('id', '=', last.id)
      .execute();

    const ghost = await db()
      .insertInto('ledger')
      .values({
        user_id: b.id,
        amount: 100,
        balance_after: Number(last.balance_after) + 100,
        reason: 'sellStock',
        ref_type: 'order',
        ref_id: 987_654,
        created_at: s.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const problems = await audit();
    expect(problems).toContain('postings name order:987654, which does not exist');
    expect(problems).toContainEqual(expect.stringMatching(`user ${b.id}: balance .* ≠ sum`));
    await db().deleteFrom('ledger').where('id', '=', ghost.id).execute();
    expect(await audit()).toEqual([]);
  });

  it.runIf(enabled)('finds shares reserved that no pending sell holds', async () => {
    await db()
      .updateTable('positions')
      .set({ reserved_qty: sql`reserved_qty + 1` })
      .where('user_id', '=', a.id)
      .execute();
    expect(await audit()).toEqual([
      expect.stringMatching(`position ${a.id}:RELIANCE.NS: reserved 3 but pending sells hold 2`),
    ]);
    await db()
      .updateTable('positions')
      .set({ reserved_qty: sql`reserved_qty - 1` })
      .where('user_id', '=', a.id)
      .execute();
  });

  it.runIf(enabled)('npm run ops -- ledger:audit prints OK, and fails listing the problem', async () => {
    const command = COMMANDS.find((c) => c.name === 'ledger:audit')!;
    expect(command.mutates).toBe(false);
    expect(await command.run(s.deps, [])).toMatch(/ledger audit: OK$/);
    await db().updateTable('users').set({ balance: sql`balance + 5` }).where('id', '=', b.id).execute();
    await expect(command.run(s.deps, [])).rejects.toThrow(/1 problem\(s\)[\s\S]*✗ user \d+: balance/);
    await db().updateTable('users').set({ balance: sql`balance - 5` }).where('id', '=', b.id).execute();
    expect(await command.run(s.deps, ['--json'])).toMatch(/"problems": \[\]/);
  });
});
