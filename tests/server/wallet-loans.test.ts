import { describe, expect, it } from 'vitest';
import { fromMinor } from '#shared/money';
import { JOBS, runJob } from '../../server/jobs/index';
import { auditLedger } from '../../server/wallet/audit';
import { creditLimitMinor } from '../../server/wallet/credit';
import { DIALECTS, ops } from '../support/server';
import { auditedServer, credit } from '../support/trading';
import { addCard, balanceOf, expectBalanceIsLedger, rowCount, TRADE_CODE } from '../support/wallet';

const DAY = 86_400_000;
const accrueJob = JOBS.find((j) => j.name === 'loans:accrue')!;

describe.each(DIALECTS)('loans on $name', ({ name, enabled }) => {
  // Interest accrues over months of the server's clock: sessions must outlive them.
  const s = auditedServer(name, enabled, { TOKEN_TTL_MS: String(3650 * DAY) });

  describe.skipIf(!enabled)('loans', () => {
    it('reports the default credit score and the whole limit as remaining', async () => {
      const { token } = await s.signUp();
      const res = await s.call('loanData', { token });
      expect(res.body.data).toEqual({
        amountDue: '0.00',
        accrued: '0.00',
        creditScore: 100,
        remainingAmount: fromMinor(creditLimitMinor(100)),
        creditLimit: fromMinor(creditLimitMinor(100)),
        creditPerPoint: '1000.00',
        // The configured terms, shown before applying: 14 % a year, due in 90 days, 0.05 % a day late.
        terms: { interestRate: 14, tenureDays: 90, lateChargeRate: 0.05 },
      });
    });

    it('accrues interest daily into the amount due, late charges after the tenure, and repay collects all of it', async () => {
      const { token, id } = await s.signUp();
      const apply = await s.call('loanApply', { token, body: { count: 2000 } });
      const loanId = apply.body.data.id as number;
      expect(apply.body.data).toMatchObject({ interest_rate: 14, due_at: null, accrued: '0.00' });
      const before = s.clock.now();
      await ops(s, 'loan:approve', String(loanId));
      const after = s.clock.now();
      // Less than a day: nothing has accrued, however often the job runs.
      s.clock.advance(DAY - 60_000);
      await runJob(s.deps, accrueJob);
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '2000.00',
        accrued: '0.00',
      });

      // 30 days at 14 % a year on 2,000.00: 2,000.00 × 0.14 × 30 / 365 = 23.0137 → 23.01 (HALF_UP, once).
      s.clock.advance(29 * DAY + 120_000);
      await runJob(s.deps, accrueJob);
      await runJob(s.deps, accrueJob);
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '2023.01',
        accrued: '23.01',
      });
      const [record] = (await s.call('loanList', { token })).body.data.rows;
      expect(record).toMatchObject({ id: loanId, state: 4, due: '2023.01', accrued: '23.01' });
      expect(record.due_at).toBeGreaterThanOrEqual(before + 90 * DAY);
      expect(record.due_at).toBeLessThanOrEqual(after + 90 * DAY);
      expect((await s.call('userInfo', { token })).body.data.loan).toBe('2023.01');

      // Day 100, ten days past the due date (a missed run catches up exactly): interest 100 days
      // 76.7123 → 76.71, late charges 2,000.00 × 0.05 % × 10 = 10.00.
      s.clock.advance(70 * DAY);
      await runJob(s.deps, accrueJob);
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '2086.71',
        accrued: '86.71',
      });
      const book = await s.deps.database.db
        .selectFrom('loan_postings')
        .select(['reason', 'amount', 'due_after'])
        .where('loan_id', '=', loanId)
        .orderBy('id')
        .execute();
      expect(book.map((p) => [p.reason, Number(p.amount), Number(p.due_after)])).toEqual([
        ['borrow', 200_000, 200_000],
        ['interest', 2301, 202_301],
        ['interest', 5370, 207_671],
        ['lateCharge', 1000, 208_671],
      ]);
      expect((await auditLedger(s.deps.database.db)).problems).toEqual([]);

      // The balance holds the 2,000.00 lent: the 86.71 accrued must come from elsewhere.
      const short = await s.call('loanRepay', { token, body: { id: loanId } });
      expect(short.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect((await s.call('loanData', { token })).body.data.amountDue).toBe('2086.71');
      await credit(s, id, 10_000);
      const repay = await s.call('loanRepay', { token, body: { id: loanId } });
      expect(repay.body.data).toMatchObject({ state: 5, due: '0.00', accrued: '86.71' });
      // 2,000.00 + 100.00 credited − 2,086.71 repaid.
      expect(await balanceOf(s, token)).toBe('13.29');
      const bill = (await s.call('bill', { token })).body.data.rows;
      expect(bill.slice(0, 2).map((b: { reason: string; amount: string }) => [b.reason, b.amount])).toEqual([
        ['interest', '86.71'],
        ['repay', '2000.00'],
      ]);
      expect((await s.call('loanData', { token })).body.data).toMatchObject({
        amountDue: '0.00',
        accrued: '0.00',
      });
      // Paid: nothing accrues any more.
      s.clock.advance(30 * DAY);
      await runJob(s.deps, accrueJob);
      expect((await s.call('loanList', { token })).body.data.rows[0]).toMatchObject({
        state: 5,
        due: '0.00',
      });
      await expectBalanceIsLedger(s, id);
    });

    it("refuses a repayment of a loan that is not the caller's, and bad input, without a 500", async () => {
      const owner = await s.signUp();
      const other = await s.signUp();
      const apply = await s.call('loanApply', { token: owner.token, body: { count: 600 } });
      await ops(s, 'loan:approve', String(apply.body.data.id));
      const theft = await s.call('loanRepay', { token: other.token, body: { id: apply.body.data.id } });
      expect(theft.status).toBe(404);
      for (const body of [{ id: 'x' }, { id: -1 }, {}, { id: 1, extra: 1 }, { id: 1.5 }]) {
        const res = await s.call('loanRepay', { token: owner.token, body });
        expect(res.status).toBe(400);
      }
      for (const body of [{ count: '1000' }, { count: null }, { count: -600 }, { count: 600.5 }]) {
        const res = await s.call('loanApply', { token: owner.token, body });
        expect(res.status).toBe(400);
      }
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
