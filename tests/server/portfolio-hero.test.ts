import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastSession } from '#shared/market-hours';
import { fromMinor, priceToTicks, toMinor, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { withTx } from '../../server/db/index';
import { chargesFor } from '../../server/trading/charges';
import { disburseLoan } from '../../server/wallet/settlement';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  insertFund,
  insertIpo,
  type MarketControl,
  setTradePassword,
  toSession,
} from '../support/trading';
import { addCard, TRADE_CODE } from '../support/wallet';

/**
 * One portfolio truth (DESIGN rule 8): Holdings lists every share the user owns — block/QIP lots
 * with their lock-in — and the hero's lines (available + reserved + holdings + funds − loans) add
 * up to its total, which is user info's, after a lot, a pending after-market buy, an IPO
 * application, a fund, a withdrawal in progress and a loan. With the real charges on: a pending
 * buy reserves its charges too and moves no total. The random sequences are
 * tests/server/ledger-property.test.ts.
 */

const RICH = 100_000_000; // 1,000,000.00
const minor = (m: string) => toMinor(m)!;

interface Hero {
  available: string;
  reserved: { orders: string; ipo: string; withdrawals: string; total: string };
  holdings: string;
  funds: string;
  loans: string;
  total: string;
}

describe.each(DIALECTS)('the hero and Holdings on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, {});
    m = controlMarket(s);
    m.pin('RELIANCE.NS', 2500, 2480);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  /** The summary's hero, checked as an identity and against user info, every time it is read. */
  async function hero(token: string): Promise<{ hero: Hero; today: string; overall: { value: string } }> {
    const d = (await s.call('portfolioSummary', { token })).body.data;
    const h: Hero = d.hero;
    const r = h.reserved;
    expect(minor(r.total)).toBe(minor(r.orders) + minor(r.ipo) + minor(r.withdrawals));
    expect(minor(h.total)).toBe(
      minor(h.available) + minor(r.total) + minor(h.holdings) + minor(h.funds) - minor(h.loans),
    );
    expect(h.holdings).toBe(d.overall.value);
    const info = (await s.call('userInfo', { token })).body.data;
    expect(info).toMatchObject({ total: h.total, money: h.available, loan: h.loans });
    return d;
  }

  it.skipIf(!enabled)(
    'a block lot is in Holdings with its lock; an AMO, an IPO, a fund, a withdrawal and a loan each have their line',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      const code = await setTradePassword(s, u.id, TRADE_CODE);
      let d = await hero(u.token);
      expect(d.hero).toMatchObject({ available: '1000000.00', total: '1000000.00' });

      // A block lot of 100 RELIANCE at 2,500.00 (the item's ask, inside the block window).
      toSession(s, 'RELIANCE.NS');
      const item = await insertBlockItem(s, { tag: 'RELIANCE.NS', price: 2500, count: 100 });
      const lot = (
        await s.call('dealBuy', {
          token: u.token,
          body: { tag: 'RELIANCE.NS', count: 100, price: 2500, mold: 'bulk', id: item, stock_password: code },
          headers: idem(),
        })
      ).body.data;
      expect(lot).toMatchObject({ status: 1, sellable: false });
      const paid = minor(lot.price_all);
      const holdings = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data;
      expect(holdings.count).toBe(1);
      expect(holdings.rows[0]).toMatchObject({
        stock: 'RELIANCE.NS',
        count: 100,
        available: 0,
        avg_price: 2500,
        cost: '250000.00',
        value: '250000.00',
        profit: '0.00',
        lot: { no: lot.no, mold: 'bulk', unlock_at: lot.unlock_at },
      });
      d = await hero(u.token);
      // The lot's charges left the account; its value is in holdings.
      expect(d.hero).toMatchObject({ available: fromMinor(RICH - paid), holdings: '250000.00' });
      expect(minor(d.hero.total)).toBe(RICH - (paid - 25_000_000));

      // The market moves: the lot's value and P&L move with it, in Holdings and in the hero.
      m.pin('RELIANCE.NS', 2550, 2480);
      const moved = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data
        .rows[0];
      expect(moved).toMatchObject({ value: '255000.00', profit: '5000.00', profit_percent: 2 });
      d = await hero(u.token);
      expect(d.hero.holdings).toBe('255000.00');

      // After the close: a market buy is an AMO, reserving value and charges at its protected limit.
      s.clock.advance(lastSession('NSE', s.clock.now()).close + 60_000 - s.clock.now());
      const before = await hero(u.token);
      const amo = (
        await s.call('dealBuy', {
          token: u.token,
          body: { tag: 'RELIANCE.NS', count: 10, price: 2550, mold: 'stock' },
          headers: idem(),
        })
      ).body.data;
      expect(amo).toMatchObject({ status: 0, amo: true });
      const value = tradeValueMinor(protectedLimit('buy', priceToTicks(2550)), 10);
      const charges = chargesFor(
        s.config.charges,
        s.deps.market.instrument('RELIANCE.NS'),
        'buy',
        value,
        'delivery',
      );
      expect(charges.total).toBeGreaterThan(0);
      expect(minor(amo.price_all)).toBe(value + charges.total);
      d = await hero(u.token);
      // A pending order moves money from available to reserved, charges included: no total moves, no P&L.
      expect(d.hero.reserved.orders).toBe(fromMinor(value + charges.total));
      expect(minor(d.hero.available)).toBe(minor(before.hero.available) - value - charges.total);
      expect(d.hero.total).toBe(before.hero.total);
      expect(d.today).toBe(before.today);

      // An IPO application: blocked, not spent.
      const ipo = await insertIpo(s, { issue_price: 100, min: 100, max: 1000 });
      expect(
        (
          await s.call('ipoBuy', {
            token: u.token,
            body: { id: ipo.id, tag: ipo.symbol, count: 200, price: 100 },
            headers: idem(),
          })
        ).body.msg,
      ).toBe('ok');
      d = await hero(u.token);
      expect(d.hero.reserved.ipo).toBe('20000.00');
      expect(d.hero.total).toBe(before.hero.total);

      // A fund: its own line.
      const fundId = await insertFund(s, { amount: 1_000_000 });
      expect(
        (await s.call('fundPurchase', { token: u.token, body: { project_id: fundId }, headers: idem() })).body
          .msg,
      ).toBe('ok');
      d = await hero(u.token);
      expect(d.hero.funds).toBe('10000.00');
      expect(d.hero.total).toBe(before.hero.total);

      // A withdrawal in progress: reserved until it is paid out.
      const card = await addCard(s, u.token);
      expect(
        (
          await s.call('withdraw', {
            token: u.token,
            body: { bank_id: card, count: 5000, stock_password: TRADE_CODE },
            headers: idem(),
          })
        ).body.msg,
      ).toBe('ok');
      d = await hero(u.token);
      expect(d.hero.reserved.withdrawals).toBe('5000.00');
      expect(d.hero.total).toBe(before.hero.total);

      // A loan: the cash it brings is matched by the loan due, so the total stays.
      const applied = (
        await s.call('loanApply', { token: u.token, body: { count: 20_000 }, headers: idem() })
      ).body.data;
      expect(await withTx(s.deps.database, (trx) => disburseLoan(trx, applied.id, s.clock.now()))).toBe(true);
      d = await hero(u.token);
      expect(d.hero.loans).toBe('20000.00');
      expect(d.hero.total).toBe(before.hero.total);

      // Cancelling the AMO gives its reservation back whole.
      expect(
        (await s.call('orderCancel', { token: u.token, body: { no: amo.no }, headers: idem() })).body.msg,
      ).toBe('ok');
      d = await hero(u.token);
      expect(d.hero.reserved.orders).toBe('0.00');
      expect(d.hero.total).toBe(before.hero.total);
    },
  );

  it.skipIf(!enabled)('a lot leaves Holdings once sold, and an unlocked lot says so', async () => {
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    const code = await setTradePassword(s, u.id, TRADE_CODE);
    m.pin('RELIANCE.NS', 2500, 2480);
    toSession(s, 'RELIANCE.NS');
    const item = await insertBlockItem(s, { tag: 'RELIANCE.NS', price: 2500, count: 10 });
    const lot = (
      await s.call('dealBuy', {
        token: u.token,
        body: { tag: 'RELIANCE.NS', count: 10, price: 2500, mold: 'bulk', id: item, stock_password: code },
        headers: idem(),
      })
    ).body.data;
    // Next session: unlocked, sellable in full.
    s.clock.advance(lot.unlock_at - s.clock.now());
    toSession(s, 'RELIANCE.NS');
    let rows = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 10, available: 10, lot: { no: lot.no, unlock_at: null } });
    expect(
      (await s.call('dealSell', { token: u.token, body: { no: lot.no }, headers: idem() })).body.msg,
    ).toBe('ok');
    rows = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
    expect(rows).toEqual([]);
    const d = await hero(u.token);
    expect(d.hero.holdings).toBe('0.00');
  });
});
