import { describe, expect, it } from 'vitest';
import { runJob } from '../../server/jobs/index';
import { settleRecharges, settleWithdrawals } from '../../server/wallet/jobs';
import { DIALECTS, ops, startTestServer } from '../support/server';
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

describe.each(DIALECTS)('sandbox settlement and the operator on $name', ({ name, enabled }) => {
  const s = auditedServer(name, enabled);

  describe.skipIf(!enabled)('sandbox settlement and the operator', () => {
    it('settles once even when the operator acted first', async () => {
      const { token, id } = await s.signUp();
      const r = await s.call('recharge', { token, body: { count: 5000 } });
      await ops(s, 'recharge:confirm', String(r.body.data.id));
      await expect(ops(s, 'recharge:confirm', String(r.body.data.id))).rejects.toThrow(/not waiting/);
      await settleDue(s);
      expect(await balanceOf(s, token)).toBe('5000.00');
      expect(await rowCount(s, 'ledger', id)).toBe(1);
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
      await expectBalanceIsLedger(s, id);
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
