import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor } from '#shared/money';
import { runJob } from '../../server/jobs/index';
import { COMMANDS } from '../../server/ops/commands/index';
import { creditLimitMinor } from '../../server/wallet/credit';
import { settleRecharges, settleWithdrawals } from '../../server/wallet/jobs';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { expectLedgerConsistent } from '../support/trading';
import { addCard, balanceOf, ensureTradeCode, fund, settleDue, TRADE_CODE } from '../support/wallet';

function ops(s: TestServer, name: string, ...args: string[]): Promise<unknown> {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run(s.deps, args);
}

describe.each(DIALECTS)('wallet on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    // 12 withdrawals at once each carry the right transaction password; under the default limit
    // codes still being checked count as attempts (lockouts.test.ts), so it is raised here.
    if (enabled) s = await startTestServer(name, { FUND_PASSWORD_LIMIT: '20' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  async function count(
    table: 'recharges' | 'withdrawals' | 'loans' | 'ledger',
    userId: number,
  ): Promise<number> {
    const row = await s.deps.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The ledger invariant: a user's postings add up to their balance. */
  async function assertLedgerBalances(userId: number): Promise<void> {
    const { db } = s.deps.database;
    const sum = await db
      .selectFrom('ledger')
      .select((eb) => eb.fn.sum<number | string>('amount').as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const user = await db
      .selectFrom('users')
      .select('balance')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Number(sum.total ?? 0)).toBe(user.balance);
  }

  describe.skipIf(!enabled)('balance and recharge', () => {
    it('starts at zero and asks a visitor to log in', async () => {
      const { token } = await s.signUp();
      expect((await s.call('balance', { token })).body).toEqual({
        msg: 'ok',
        data: { balance: '0.00' },
      });
      const visitor = await s.call('balance');
      expect(visitor.status).toBe(401);
      expect(visitor.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
    });

    it('records a bank recharge in progress and credits it only when the sandbox settles', async () => {
      const { token, id } = await s.signUp();
      const res = await s.call('recharge', { token, body: { count: 5000, method: 'bank' } });
      expect(res.body).toMatchObject({
        msg: 'ok',
        data: { type: 'recharge', count: '5000.00', method: 'bank', status: 1, actual: '0.00' },
      });
      expect(await balanceOf(s, token)).toBe('0.00');

      // Not due yet: the job leaves it alone.
      await runJob(s.deps, settleRecharges);
      expect(await balanceOf(s, token)).toBe('0.00');

      s.clock.advance(s.config.sandboxSettleMs);
      await runJob(s.deps, settleRecharges);
      await runJob(s.deps, settleRecharges);
      expect(await balanceOf(s, token)).toBe('5000.00');
      const detail = await s.call('recordDetail', {
        token,
        query: { id: res.body.data.id, type: 'recharge' },
      });
      expect(detail.body.data).toMatchObject({ status: 2, actual: '5000.00' });
      expect(await count('ledger', id)).toBe(1);
      await assertLedgerBalances(id);
    });

    it.each([
      ['below the minimum of 5000', { count: 4999 }, 'errors.rechargeMin'],
      ['a fraction', { count: 5000.5 }, 'errors.invalidInput'],
      ['a string amount', { count: '5000' }, 'errors.invalidInput'],
      ['zero', { count: 0 }, 'errors.invalidInput'],
      ['another method', { count: 6000, method: 'card' }, 'errors.invalidInput'],
      ['an unknown field', { count: 6000, status: 2 }, 'errors.invalidInput'],
      ['no amount', {}, 'errors.invalidInput'],
    ])('rejects %s and writes nothing', async (_label, body, key) => {
      const { token, id } = await s.signUp();
      const res = await s.call('recharge', { token, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect(await count('recharges', id)).toBe(0);
    });

    it('replays a recharge sent twice with one Idempotency-Key, and refuses the key for another body', async () => {
      const { token, id } = await s.signUp();
      const headers = { 'idempotency-key': 'recharge-key-0001' };
      const first = await s.call('recharge', { token, headers, body: { count: 7000 } });
      const again = await s.call('recharge', { token, headers, body: { count: 7000 } });
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(await count('recharges', id)).toBe(1);
      const other = await s.call('recharge', { token, headers, body: { count: 8000 } });
      expect(other.status).toBe(422);
      expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('7000.00');
    });

    it('lists recharge records newest first with paging', async () => {
      const { token } = await s.signUp();
      for (const units of [5000, 6000, 7000]) await s.call('recharge', { token, body: { count: units } });
      const page1 = await s.call('rechargeRecords', {
        token,
        query: { page: 1, limit: 2 },
      });
      expect(page1.body.data.count).toBe(3);
      expect(page1.body.data.rows.map((r: { count: string }) => r.count)).toEqual(['7000.00', '6000.00']);
      const page2 = await s.call('rechargeRecords', {
        token,
        query: { page: 2, limit: 2 },
      });
      expect(page2.body.data.rows.map((r: { count: string }) => r.count)).toEqual(['5000.00']);
    });
  });

  describe.skipIf(!enabled)('withdraw', () => {
    it('reserves the amount at once and pays it out when the sandbox settles', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 6000);
      const card = await addCard(s, token, '50100012345678');
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 1500, stock_password: TRADE_CODE },
      });
      expect(res.body).toMatchObject({
        msg: 'ok',
        data: {
          type: 'withdraw',
          count: '1500.00',
          status: 'n',
          actual: '0.00',
          bank: { id: card, bank: 'HDFC Bank', bank_card: '**********5678' },
        },
      });
      expect(await balanceOf(s, token)).toBe('4500.00');
      await settleDue(s);
      const records = await s.call('withdrawRecords', { token });
      expect(records.body.data.count).toBe(1);
      expect(records.body.data.rows[0]).toMatchObject({
        id: res.body.data.id,
        status: 'y',
        actual: '1500.00',
      });
      expect(await balanceOf(s, token)).toBe('4500.00');
      await assertLedgerBalances(id);
    });

    it('refunds a withdrawal the sandbox declines (withdrawRefund, status b)', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token, '40000000000002');
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 2000, stock_password: TRADE_CODE },
      });
      expect(await balanceOf(s, token)).toBe('3000.00');
      await settleDue(s);
      const detail = await s.call('recordDetail', {
        token,
        query: { id: res.body.data.id, type: 'withdraw' },
      });
      expect(detail.body.data).toMatchObject({ status: 'b', actual: '0.00' });
      expect(await balanceOf(s, token)).toBe('5000.00');
      const bill = await s.call('bill', { token, query: { type: 'income' } });
      expect(bill.body.data.rows[0]).toMatchObject({
        reason: 'withdrawRefund',
        amount: '2000.00',
        balance: '5000.00',
      });
      // Settling again changes nothing: the refund happened once.
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('5000.00');
      await assertLedgerBalances(id);
    });

    it('rejects an amount below the configured minimum and says what the minimum is', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 99, stock_password: TRADE_CODE },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.withdrawMin', params: { min: 100 } });

      await s.deps.database.db
        .updateTable('config')
        .set({ value: '250' })
        .where('tag', '=', 'min_withdraw_count')
        .execute();
      try {
        const higher = await s.call('withdraw', {
          token,
          body: { bank_id: card, count: 249, stock_password: TRADE_CODE },
        });
        expect(higher.body).toEqual({ msg: 'no', data: 'errors.withdrawMin', params: { min: 250 } });
        expect(
          (
            await s.call('withdraw', {
              token,
              body: { bank_id: card, count: 250, stock_password: TRADE_CODE },
            })
          ).body.msg,
        ).toBe('ok');
        // The fixed floor of 10 holds even when the configured minimum is lower.
        await s.deps.database.db
          .updateTable('config')
          .set({ value: '5' })
          .where('tag', '=', 'min_withdraw_count')
          .execute();
        const floor = await s.call('withdraw', {
          token,
          body: { bank_id: card, count: 9, stock_password: TRADE_CODE },
        });
        expect(floor.body).toEqual({ msg: 'no', data: 'errors.withdrawMin', params: { min: 10 } });
      } finally {
        await s.deps.database.db
          .updateTable('config')
          .set({ value: '100' })
          .where('tag', '=', 'min_withdraw_count')
          .execute();
      }
      expect(await count('withdrawals', id)).toBe(1);
    });

    it('asks for a bank card when the user has none', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      await ensureTradeCode(s, token);
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: 1, count: 500, stock_password: TRADE_CODE },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.noBankCard' });
      expect(await count('withdrawals', id)).toBe(0);
    });

    it('refuses more than the balance and moves nothing', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 5001, stock_password: TRADE_CODE },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await count('withdrawals', id)).toBe(0);
      expect(await balanceOf(s, token)).toBe('5000.00');
    });

    it('refuses a card that is not usable', async () => {
      const { token } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      await s.deps.database.db.updateTable('bank_cards').set({ status: 0 }).where('id', '=', card).execute();
      const res = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 500, stock_password: TRADE_CODE },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.bankCardUnusable' });
    });

    it('moves money once for a withdrawal replayed with its Idempotency-Key', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      const headers = { 'idempotency-key': 'withdraw-key-0001' };
      const body = { bank_id: card, count: 1000, stock_password: TRADE_CODE };
      const answers = await Promise.all([1, 2, 3].map(() => s.call('withdraw', { token, headers, body })));
      for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
      expect(await balanceOf(s, token)).toBe('4000.00');
      expect(await count('withdrawals', id)).toBe(1);
    });

    it('never overspends under concurrent withdrawals', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          s.call('withdraw', { token, body: { bank_id: card, count: 1000, stock_password: TRADE_CODE } }),
        ),
      );
      expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(5);
      expect(answers.filter((a) => a.body.data === 'errors.insufficientFunds')).toHaveLength(7);
      expect(await balanceOf(s, token)).toBe('0.00');
      await assertLedgerBalances(id);
    });
  });

  describe.skipIf(!enabled)('bill', () => {
    it('lists every posting newest first with the balance after it, by type', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 10000);
      const card = await addCard(s, token);
      const declined = await addCard(s, token, '41110000000002');
      await s.call('withdraw', { token, body: { bank_id: card, count: 500, stock_password: TRADE_CODE } });
      const loan = await s.call('loanApply', { token, body: { count: 1000 } });
      await ops(s, 'loan:approve', String(loan.body.data.id));
      await s.call('loanRepay', { token, body: { id: loan.body.data.id } });
      await s.call('withdraw', {
        token,
        body: { bank_id: declined, count: 200, stock_password: TRADE_CODE },
      });
      await settleDue(s);

      const all = await s.call('bill', { token, query: { type: 'all', limit: 50 } });
      expect(all.body.data.count).toBe(6);
      expect(
        all.body.data.rows.map((r: { type: string; reason: string; amount: string; balance: string }) => [
          r.type,
          r.reason,
          r.amount,
          r.balance,
        ]),
      ).toEqual([
        ['income', 'withdrawRefund', '200.00', '9500.00'],
        ['expense', 'withdraw', '200.00', '9300.00'],
        ['expense', 'repay', '1000.00', '9500.00'],
        ['income', 'borrow', '1000.00', '10500.00'],
        ['expense', 'withdraw', '500.00', '9500.00'],
        ['income', 'recharge', '10000.00', '10000.00'],
      ]);
      const income = await s.call('bill', { token, query: { type: 'income' } });
      expect(income.body.data.count).toBe(3);
      expect(income.body.data.rows.every((r: { type: string }) => r.type === 'income')).toBe(true);
      const expense = await s.call('bill', {
        token,
        query: { type: 'expense', limit: 2 },
      });
      expect(expense.body.data.count).toBe(3);
      expect(expense.body.data.rows).toHaveLength(2);
      const page2 = await s.call('bill', {
        token,
        query: { type: 'expense', limit: 2, page: 2 },
      });
      expect(page2.body.data.rows.map((r: { reason: string }) => r.reason)).toEqual(['withdraw']);
      expect(await balanceOf(s, token)).toBe('9500.00');
      await assertLedgerBalances(id);
    });

    it('rejects an unknown type', async () => {
      const { token } = await s.signUp();
      const res = await s.call('bill', { token, query: { type: 'gifts' } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });

  describe.skipIf(!enabled)('loans', () => {
    it('reports the default credit score and the whole limit as remaining', async () => {
      const { token } = await s.signUp();
      const res = await s.call('loanData', { token });
      expect(res.body.data).toEqual({
        amountDue: '0.00',
        creditScore: 100,
        remainingAmount: fromMinor(creditLimitMinor(100)),
        creditLimit: fromMinor(creditLimitMinor(100)),
        creditPerPoint: '1000.00',
        // The terms the repayment applies, shown before applying: the principal, nothing more.
        terms: { interestRate: 0, tenureDays: null, lateChargeRate: 0 },
      });
    });

    it('applies, is approved and disbursed, and is repaid in full', async () => {
      const { token, id } = await s.signUp();
      const apply = await s.call('loanApply', { token, body: { count: 2000 } });
      expect(apply.body).toMatchObject({ msg: 'ok', data: { type: 'loan', count: '2000.00', state: 1 } });
      const limit = creditLimitMinor(100);
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '0.00',
        remainingAmount: fromMinor(limit - 200000),
      });
      expect(await balanceOf(s, token)).toBe('0.00');

      await ops(s, 'loan:approve', String(apply.body.data.id));
      expect(await balanceOf(s, token)).toBe('2000.00');
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '2000.00',
        remainingAmount: fromMinor(limit - 200000),
      });
      const info = await s.call('userInfo', { token });
      expect(info.body.data.loan).toBe('2000.00');

      const repay = await s.call('loanRepay', {
        token,
        headers: { 'idempotency-key': 'repay-key-00001' },
        body: { id: apply.body.data.id },
      });
      expect(repay.body).toMatchObject({ msg: 'ok', data: { id: apply.body.data.id, state: 5 } });
      const replay = await s.call('loanRepay', {
        token,
        headers: { 'idempotency-key': 'repay-key-00001' },
        body: { id: apply.body.data.id },
      });
      expect(replay.body).toEqual(repay.body);
      expect(await balanceOf(s, token)).toBe('0.00');
      const again = await s.call('loanRepay', { token, body: { id: apply.body.data.id } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ msg: 'no', data: 'errors.loanNotUnpaid' });
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '0.00',
        remainingAmount: fromMinor(limit),
      });
      const list = await s.call('loanList', { token });
      expect(list.body.data.rows).toEqual([expect.objectContaining({ id: apply.body.data.id, state: 5 })]);
      await assertLedgerBalances(id);
    });

    it('rejects a loan below 500 and one above the remaining credit', async () => {
      const { token, id } = await s.signUp();
      const low = await s.call('loanApply', { token, body: { count: 499 } });
      expect(low.body).toEqual({ msg: 'no', data: 'errors.loanMin' });
      const limitUnits = creditLimitMinor(100) / 100;
      await s.call('loanApply', { token, body: { count: limitUnits - 1000 } });
      const high = await s.call('loanApply', { token, body: { count: 1001 } });
      expect(high.body).toEqual({ msg: 'no', data: 'errors.loanOverLimit', params: { max: '1000.00' } });
      expect((await s.call('loanApply', { token, body: { count: 1000 } })).body.msg).toBe('ok');
      expect(await count('loans', id)).toBe(2);
    });

    it('never grants more credit than the limit to concurrent applications', async () => {
      const { token, id } = await s.signUp();
      const quarter = creditLimitMinor(100) / 100 / 4;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => s.call('loanApply', { token, body: { count: quarter } })),
      );
      expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(4);
      expect(answers.filter((a) => a.body.data === 'errors.loanOverLimit')).toHaveLength(6);
      expect(await count('loans', id)).toBe(4);
      expect((await s.call('loanData', { token })).body.data.remainingAmount).toBe('0.00');
    });

    it('frees the credit of a rejected application', async () => {
      const { token } = await s.signUp();
      const apply = await s.call('loanApply', { token, body: { count: 5000 } });
      await ops(s, 'loan:reject', String(apply.body.data.id));
      const data = await s.call('loanData', { token });
      expect(data.body.data.remainingAmount).toBe(fromMinor(creditLimitMinor(100)));
      const list = await s.call('loanList', { token });
      expect(list.body.data.rows[0].state).toBe(3);
      const repay = await s.call('loanRepay', { token, body: { id: apply.body.data.id } });
      expect(repay.body.data).toBe('errors.loanNotUnpaid');
    });

    it('refuses a repayment the balance cannot cover, leaving the loan unpaid', async () => {
      const { token, id } = await s.signUp();
      const apply = await s.call('loanApply', { token, body: { count: 1000 } });
      await ops(s, 'loan:approve', String(apply.body.data.id));
      const card = await addCard(s, token);
      await s.call('withdraw', { token, body: { bank_id: card, count: 500, stock_password: TRADE_CODE } });
      const res = await s.call('loanRepay', { token, body: { id: apply.body.data.id } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      const list = await s.call('loanList', { token });
      expect(list.body.data.rows[0].state).toBe(4);
      await assertLedgerBalances(id);
    });
  });

  describe.skipIf(!enabled)('ownership', () => {
    it("answers notFound for another user's records, loans and cards", async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      await fund(s, a.token, 5000);
      const cardA = await addCard(s, a.token);
      await addCard(s, b.token);
      const w = await s.call('withdraw', {
        token: a.token,
        body: { bank_id: cardA, count: 500, stock_password: TRADE_CODE },
      });
      const r = await s.call('recharge', { token: a.token, body: { count: 5000 } });
      const loan = await s.call('loanApply', { token: a.token, body: { count: 500 } });
      await ops(s, 'loan:approve', String(loan.body.data.id));

      const attempts = [
        s.call('recordDetail', {
          token: b.token,
          query: { id: w.body.data.id, type: 'withdraw' },
        }),
        s.call('recordDetail', {
          token: b.token,
          query: { id: r.body.data.id, type: 'recharge' },
        }),
        s.call('loanRepay', { token: b.token, body: { id: loan.body.data.id } }),
        s.call('withdraw', {
          token: b.token,
          body: { bank_id: cardA, count: 500, stock_password: TRADE_CODE },
        }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      }
      for (const name of ['rechargeRecords', 'withdrawRecords', 'loanList'] as const) {
        const res = await s.call(name, { token: b.token });
        expect(res.body.data.rows, name).toEqual([]);
      }
      // A's loan is untouched by B's attempt to repay it.
      const list = await s.call('loanList', { token: a.token });
      expect(list.body.data.rows[0].state).toBe(4);
    });
  });

  describe.skipIf(!enabled)('sandbox settlement and the operator', () => {
    it('settles once even when the operator acted first', async () => {
      const { token, id } = await s.signUp();
      const r = await s.call('recharge', { token, body: { count: 5000 } });
      await ops(s, 'recharge:confirm', String(r.body.data.id));
      await expect(ops(s, 'recharge:confirm', String(r.body.data.id))).rejects.toThrow(/not waiting/);
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('5000.00');
      expect(await count('ledger', id)).toBe(1);
    });

    it('fails a recharge without crediting, and pays or rejects withdrawals by hand', async () => {
      const { token, id } = await s.signUp();
      const r = await s.call('recharge', { token, body: { count: 5000 } });
      await ops(s, 'recharge:fail', String(r.body.data.id));
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('0.00');
      await fund(s, token, 5000);
      const card = await addCard(s, token);
      const w1 = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 1000, stock_password: TRADE_CODE },
      });
      const w2 = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 1000, stock_password: TRADE_CODE },
      });
      await ops(s, 'withdraw:pay', String(w1.body.data.id));
      await ops(s, 'withdraw:reject', String(w2.body.data.id));
      await expect(ops(s, 'withdraw:reject', String(w1.body.data.id))).rejects.toThrow(/not waiting/);
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('4000.00');
      const rows = (await s.call('withdrawRecords', { token })).body.data.rows;
      expect(rows.map((w: { status: string; actual: string }) => [w.status, w.actual])).toEqual([
        ['b', '0.00'],
        ['y', '1000.00'],
      ]);
      await assertLedgerBalances(id);
    });

    it('leaves everything to the operator when the sandbox is switched off', async () => {
      const manual = await startTestServer(name, { SANDBOX_SETTLE_MS: '-1' });
      try {
        const { token } = await manual.signUp();
        await manual.call('recharge', { token, body: { count: 5000 } });
        manual.clock.advance(24 * 3600_000);
        await runJob(manual.deps, settleRecharges);
        await runJob(manual.deps, settleWithdrawals);
        expect(await balanceOf(manual, token)).toBe('0.00');
      } finally {
        await manual.close();
      }
    });
  });
});
