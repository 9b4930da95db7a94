import { describe, expect, it } from 'vitest';
import { fromMinor } from '#shared/money';
import { creditLimitMinor } from '../../server/wallet/credit';
import { DIALECTS, ops } from '../support/server';
import { auditedServer } from '../support/trading';
import { addCard, balanceOf, expectBalanceIsLedger, rowCount, TRADE_CODE } from '../support/wallet';

describe.each(DIALECTS)('loans on $name', ({ name, enabled }) => {
  const s = auditedServer(name, enabled);

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
      await expectBalanceIsLedger(s, id);
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
      expect(await rowCount(s, 'loans', id)).toBe(2);
    });

    it('never grants more credit than the limit to concurrent applications', async () => {
      const { token, id } = await s.signUp();
      const quarter = creditLimitMinor(100) / 100 / 4;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => s.call('loanApply', { token, body: { count: quarter } })),
      );
      expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(4);
      expect(answers.filter((a) => a.body.data === 'errors.loanOverLimit')).toHaveLength(6);
      expect(await rowCount(s, 'loans', id)).toBe(4);
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
      await expectBalanceIsLedger(s, id);
    });
  });
});
