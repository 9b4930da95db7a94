import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillRow } from '#shared/contract/wallet';
import { fromMinor } from '#shared/money';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  expectLedgerConsistent,
  fundedUser,
  ledgerOf,
  stockOrder,
  toSession,
} from '../support/trading';

/**
 * The bill list (`bill`, server/wallet/records.ts) names the instrument of a trade's postings —
 * its cost and its charges — from the order they belong to; a posting of no order (a recharge)
 * names none. The ledger audit after the suite.
 */
const SYMBOL = 'RELIANCE.NS';

describe.each(DIALECTS)('bills on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    controlMarket(s).pin(SYMBOL, 2500);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  it.skipIf(!enabled)(
    'names the instrument of a buy and of its charges, and none for a recharge',
    async () => {
      const u = await fundedUser(s, 10_000_000);
      toSession(s, SYMBOL);
      const bought = await stockOrder(s, 'dealBuy', u.token, SYMBOL, { count: 2, price: 2500 });
      expect(bought.body.msg).toBe('ok');
      expect(bought.body.data.status).toBe(1);

      const res = await s.call('bill', { token: u.token, query: { type: 'all' } });
      const rows = res.body.data.rows as BillRow[];
      const ledger = await ledgerOf(s, u.id);
      // One bill per posting, newest first, each with its own posting's amount.
      expect(rows.map((r) => r.reason)).toEqual(ledger.map((l) => l.reason).reverse());
      expect(rows.map((r) => r.amount)).toEqual(ledger.map((l) => fromMinor(Math.abs(l.amount))).reverse());

      const cost = rows.find((r) => r.reason === 'buyStock');
      const charges = rows.find((r) => r.reason === 'transactionExpenses');
      expect(cost).toMatchObject({ type: 'expense', amount: '5000.00', symbol: SYMBOL });
      expect(charges).toMatchObject({ type: 'expense', symbol: SYMBOL });
      expect(Number(charges?.amount)).toBeGreaterThan(0);
      expect(rows.find((r) => r.reason === 'recharge')).toMatchObject({ type: 'income', symbol: null });

      // The income filter keeps its rows' names too (the join does not widen or narrow the list).
      const income = (await s.call('bill', { token: u.token, query: { type: 'income' } })).body.data;
      expect(income.count).toBe(1);
      expect(income.rows).toMatchObject([{ reason: 'recharge', symbol: null }]);
      const expense = (await s.call('bill', { token: u.token, query: { type: 'expense' } })).body.data;
      expect(expense.count).toBe(2);
      expect((expense.rows as BillRow[]).every((r) => r.symbol === SYMBOL)).toBe(true);
    },
  );
});
