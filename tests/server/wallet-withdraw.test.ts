import { describe, expect, it } from 'vitest';
import { DIALECTS, ops } from '../support/server';
import { auditedServer } from '../support/trading';
import {
  addCard,
  balanceOf,
  ensureTradeCode,
  expectBalanceIsLedger,
  fund,
  rowCount,
  settleDue,
  TRADE_CODE,
} from '../support/wallet';

describe.each(DIALECTS)('withdrawals and wallet ownership on $name', ({ name, enabled }) => {
  // 12 withdrawals at once each carry the right transaction password; under the default limit
  // codes still being checked count as attempts (lockouts.test.ts), so it is raised here.
  const s = auditedServer(name, enabled, { FUND_PASSWORD_LIMIT: '20' });

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
      await expectBalanceIsLedger(s, id);
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
      await expectBalanceIsLedger(s, id);
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
      expect(await rowCount(s, 'withdrawals', id)).toBe(1);
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
      expect(await rowCount(s, 'withdrawals', id)).toBe(0);
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
      expect(await rowCount(s, 'withdrawals', id)).toBe(0);
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
      expect(await rowCount(s, 'withdrawals', id)).toBe(1);
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
      await expectBalanceIsLedger(s, id);
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
});
