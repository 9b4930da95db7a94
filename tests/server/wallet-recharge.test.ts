import { describe, expect, it } from 'vitest';
import { runJob } from '../../server/jobs/index';
import { settleRecharges } from '../../server/wallet/jobs';
import { DIALECTS, ops } from '../support/server';
import { auditedServer } from '../support/trading';
import {
  addCard,
  balanceOf,
  expectBalanceIsLedger,
  fund,
  rowCount,
  settleDue,
  TRADE_CODE,
} from '../support/wallet';

describe.each(DIALECTS)('balance, recharge and bills on $name', ({ name, enabled }) => {
  const s = auditedServer(name, enabled);

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
      expect(await rowCount(s, 'ledger', id)).toBe(1);
      await expectBalanceIsLedger(s, id);
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
      expect(await rowCount(s, 'recharges', id)).toBe(0);
    });

    it('replays a recharge sent twice with one Idempotency-Key, and refuses the key for another body', async () => {
      const { token, id } = await s.signUp();
      const headers = { 'idempotency-key': 'recharge-key-0001' };
      const first = await s.call('recharge', { token, headers, body: { count: 7000 } });
      const again = await s.call('recharge', { token, headers, body: { count: 7000 } });
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(await rowCount(s, 'recharges', id)).toBe(1);
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
      await expectBalanceIsLedger(s, id);
    });

    it('rejects an unknown type', async () => {
      const { token } = await s.signUp();
      const res = await s.call('bill', { token, query: { type: 'gifts' } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });
});
