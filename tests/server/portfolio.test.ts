import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { civilDay, dayStart } from '#shared/market-hours';
import { JOBS, runJob } from '../../server/jobs/index';
import { financialYear } from '../../server/portfolio/statement';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  type MarketControl,
  NO_CHARGES_ENV,
  setTradePassword,
  toSession,
} from '../support/trading';

const RICH = 100_000_000; // 1,000,000.00
const DAY = 86_400_000;
const snapshotJob = JOBS.find((j) => j.name === 'portfolio:snapshot')!;

/** India time 1 April of a year, as epoch ms. */
const aprilFirst = (year: number) => dayStart('NSE', civilDay(year, 4, 1));

describe('financial year (April–March, India time)', () => {
  it('starts on 1 April at midnight in India', () => {
    expect(financialYear(aprilFirst(2026))).toBe(2026);
    expect(financialYear(aprilFirst(2026) - 1)).toBe(2025);
    // 31 March 23:00 UTC is already 1 April in India.
    expect(financialYear(Date.UTC(2026, 2, 31, 23))).toBe(2026);
    expect(financialYear(Date.UTC(2026, 0, 15))).toBe(2025);
  });
});

describe.each(DIALECTS)('portfolio on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    // Hand-computed figures without order charges (tests/server/charges.test.ts covers them).
    s = await startTestServer(name, NO_CHARGES_ENV);
    m = controlMarket(s);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  // Inside an NSE session (a market order on a closed market is an AMO, not a fill).
  beforeEach(() => {
    if (enabled) toSession(s, 'RELIANCE.NS');
  });

  async function trader(minor = RICH) {
    const u = await s.signUp();
    if (minor > 0) await credit(s, u.id, minor);
    return u;
  }
  const buy = (token: string, tag: string, count: number, price: number) =>
    s.call('dealBuy', { token, body: { mold: 'stock', tag, count, price }, headers: idem() });
  const sell = (token: string, tag: string, count: number, price: number) =>
    s.call('dealSell', { token, body: { mold: 'stock', tag, count, price }, headers: idem() });
  const summary = async (token: string) => (await s.call('portfolioSummary', { token })).body.data;

  it.skipIf(!enabled)('answers zeros for an empty account, never a blank', async () => {
    const u = await trader(0);
    const d = await summary(u.token);
    const zero = {
      invested: '0.00',
      value: '0.00',
      pnl: '0.00',
      pnl_percent: 0,
      today_pnl: '0.00',
      today_percent: 0,
      positions: 0,
      as_of: 0,
    };
    expect(d.overall).toEqual(zero);
    expect(d.by_type).toEqual({ stock: zero, forex: zero, futures: zero, treasury: zero });
    expect(d.hero).toEqual({
      available: '0.00',
      reserved: { orders: '0.00', ipo: '0.00', withdrawals: '0.00', total: '0.00' },
      holdings: '0.00',
      funds: '0.00',
      loans: '0.00',
      total: '0.00',
    });
    expect(d).toMatchObject({ today: '0.00', today_percent: 0 });
    const st = (await s.call('portfolioStatement', { token: u.token })).body.data;
    expect(st.rows).toEqual([]);
    expect(st.totals).toEqual({
      sold: 0,
      cost: '0.00',
      proceeds: '0.00',
      realised: '0.00',
      charges: '0.00',
      net: '0.00',
    });
    expect(st.years).toEqual([financialYear(s.clock.now())]);
  });

  it.skipIf(!enabled)('buy, price move, partial sell, next day: hand-computed figures', async () => {
    const u = await trader();
    const sym = 'INFY.NS';
    m.pin(sym, 2500, 2400);
    expect((await buy(u.token, sym, 10, 2500)).body.msg).toBe('ok');
    // Bought today at 2500 × 10 = 25,000.00: nothing made yet, today's P&L measured from cost.
    let d = await summary(u.token);
    expect(d.overall).toMatchObject({
      invested: '25000.00',
      value: '25000.00',
      pnl: '0.00',
      pnl_percent: 0,
      today_pnl: '0.00',
      today_percent: 0,
      positions: 1,
    });
    expect(d.overall.as_of).toBeGreaterThan(0);
    expect(d.hero).toMatchObject({ available: '975000.00', holdings: '25000.00', total: '1000000.00' });

    // Price moves to 2550: value 25,500.00, P&L +500.00 = +2.00 % (today too: bought today).
    m.pin(sym, 2550, 2400);
    d = await summary(u.token);
    expect(d.by_type.stock).toMatchObject({
      invested: '25000.00',
      value: '25500.00',
      pnl: '500.00',
      pnl_percent: 2,
      today_pnl: '500.00',
      today_percent: 2,
    });
    expect(d.by_type.forex.positions).toBe(0);
    // The account moved +500.00 on the 1,000,000.00 it was worth: +0.05 %.
    expect(d.hero.total).toBe('1000500.00');
    expect(d).toMatchObject({ today: '500.00', today_percent: 0.05 });
    const row = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows[0];
    expect(row).toMatchObject({
      stock: sym,
      count: 10,
      avg_price: 2500,
      prasent: 2550,
      cost: '25000.00',
      value: '25500.00',
      profit: '500.00',
      profit_percent: 2,
      today_pnl: '500.00',
      today_percent: 2,
    });

    // Sell 4 at 2550: proceeds 10,200.00, cost 4/10 of 25,000.00 = 10,000.00, realised +200.00.
    expect((await sell(u.token, sym, 4, 2550)).body.data).toMatchObject({ profit: '200.00' });
    d = await summary(u.token);
    expect(d.overall).toMatchObject({
      invested: '15000.00',
      value: '15300.00',
      pnl: '300.00',
      pnl_percent: 2,
      today_pnl: '300.00',
      today_percent: 2,
    });
    expect(d.hero).toMatchObject({ available: '985200.00', total: '1000500.00' });

    // A week on the 6 units are overnight: today's P&L runs from the previous close.
    // Close 2550, now 2600: 6 × 50 = +300.00 on 15,300.00 = 1.9607… % → 1.96 %; total +600.00 = 4.00 %.
    s.clock.advance(7 * DAY);
    m.pin(sym, 2600, 2550);
    d = await summary(u.token);
    expect(d.overall).toMatchObject({
      invested: '15000.00',
      value: '15600.00',
      pnl: '600.00',
      pnl_percent: 4,
      today_pnl: '300.00',
      today_percent: 1.96,
    });

    // Falls below cost: 2400 × 6 = 14,400.00, −600.00 = −4.00 %; today 6 × −200 = −1,200.00 on 15,600.00.
    m.pin(sym, 2400, 2600);
    d = await summary(u.token);
    expect(d.overall).toMatchObject({
      value: '14400.00',
      pnl: '-600.00',
      pnl_percent: -4,
      today_pnl: '-1200.00',
      today_percent: -7.69,
    });
  });

  it.skipIf(!enabled)('values a USD position at the USD rate now (the live USDINR quote)', async () => {
    toSession(s, 'MSFT');
    const u = await trader();
    m.pin('USDINR=X', 20);
    m.pin('MSFT', 400, 390);
    await buy(u.token, 'MSFT', 3, 400);
    m.pin('MSFT', 410, 390);
    // 3 × 400 × 20 = 24,000.00 invested; 3 × 410 × 20 = 24,600.00 now.
    const d = await summary(u.token);
    expect(d.by_type.stock).toMatchObject({
      invested: '24000.00',
      value: '24600.00',
      pnl: '600.00',
      pnl_percent: 2.5,
    });
    // The rate moved: the same shares are worth 3 × 410 × 20.5 = 25,215.00; the cost stays.
    m.pin('USDINR=X', 20.5);
    expect((await summary(u.token)).by_type.stock).toMatchObject({ invested: '24000.00', value: '25215.00' });
    m.pin('USDINR=X', 20);
  });

  it.skipIf(!enabled)('statement: realised P&L per instrument and the charges the ledger holds', async () => {
    const u = await trader();
    const code = await setTradePassword(s, u.id);
    const sym = 'WIPRO.NS';
    m.pin(sym, 500, 500);
    await buy(u.token, sym, 20, 500);
    m.pin(sym, 510.25, 500);
    await sell(u.token, sym, 8, 510.25);
    // A block lot of 100 TCS, unsold: on this server without charges it pays none, so the statement
    // (realised P&L and charges per instrument) holds no row for it (block-buy.test checks a lot's
    // charges in the statement).
    m.pin('TCS.NS', 3000, 3000);
    const item = await insertBlockItem(s, { tag: 'TCS.NS', price: 3000, count: 100 });
    const bought = await s.call('dealBuy', {
      token: u.token,
      body: { mold: 'bulk', id: item, tag: 'TCS.NS', count: 100, price: 3000, stock_password: code },
      headers: idem(),
    });
    expect(bought.body.data).toMatchObject({ status: 1, fee: '0.00' });

    const st = (await s.call('portfolioStatement', { token: u.token })).body.data;
    expect(st.fy).toBe(financialYear(s.clock.now()));
    expect(st.from).toBe(aprilFirst(st.fy));
    expect(st.to).toBe(aprilFirst(st.fy + 1));
    // 8 × 510.25 = 4,082.00; cost 8/20 of 10,000.00 = 4,000.00; +82.00.
    expect(st.rows).toEqual([
      {
        symbol: sym,
        name: expect.any(String),
        sold: 8,
        cost: '4000.00',
        proceeds: '4082.00',
        realised: '82.00',
        charges: '0.00',
        net: '82.00',
      },
    ]);
    expect(st.totals).toEqual({
      sold: 8,
      cost: '4000.00',
      proceeds: '4082.00',
      realised: '82.00',
      charges: '0.00',
      net: '82.00',
    });
    // The year before holds nothing of this year.
    const before = (await s.call('portfolioStatement', { token: u.token, query: { fy: st.fy - 1 } })).body
      .data;
    expect(before.rows).toEqual([]);
    // Another user sees none of it.
    const other = await trader(0);
    expect((await s.call('portfolioStatement', { token: other.token })).body.data.rows).toEqual([]);
  });

  it.skipIf(!enabled)('refuses a malformed year or range without a 500', async () => {
    const u = await trader(0);
    for (const fy of ['x', '1999', '2101', '2026.5']) {
      const r = await s.call('portfolioStatement', { token: u.token, query: { fy } });
      expect(r.status).toBe(400);
    }
    for (const range of ['', '2W', 'all']) {
      const r = await s.call('portfolioHistory', { token: u.token, query: { range } });
      expect(r.status).toBe(400);
    }
  });

  it.skipIf(!enabled)(
    'daily snapshots by the clock-driven job, drawn by range, the total now last',
    async () => {
      const u = await trader(50_000_00);
      const sym = 'HDFCBANK.NS';
      m.pin(sym, 1000, 1000);
      await buy(u.token, sym, 10, 1000);
      expect(await runJob(s.deps, snapshotJob)).toBe(true);
      const first = await s.deps.database.db
        .selectFrom('portfolio_snapshots')
        .selectAll()
        .where('user_id', '=', u.id)
        .execute();
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({
        total: 50_000_00,
        cash: 40_000_00,
        holdings: 10_000_00,
        invested: 10_000_00,
      });
      // Later the same day the row is rewritten, not added to.
      m.pin(sym, 1100, 1000);
      await runJob(s.deps, snapshotJob);
      const rewritten = await s.deps.database.db
        .selectFrom('portfolio_snapshots')
        .select(['day', 'total'])
        .where('user_id', '=', u.id)
        .execute();
      expect(rewritten).toEqual([{ day: first[0]!.day, total: 51_000_00 }]);

      s.clock.advance(DAY);
      m.pin(sym, 1200, 1100);
      await runJob(s.deps, snapshotJob);
      s.clock.advance(DAY);
      m.pin(sym, 1150, 1200);
      const h = (await s.call('portfolioHistory', { token: u.token, query: { range: '1W' } })).body.data;
      // Two finished days (51,000.00 then 52,000.00), then now: 40,000 + 11,500 = 51,500.00.
      expect(h.points.map((p: { total: string }) => p.total)).toEqual(['51000.00', '52000.00', '51500.00']);
      expect(h.points[2].t).toBeLessThanOrEqual(s.clock.now());
      expect(h.points[2].t).toBeGreaterThan(h.points[1].t);
      expect(h).toMatchObject({ change: '500.00', change_percent: 0.98 });
      // Eight days after the first, 1W (the 7 days before today) no longer reaches it; ALL still does.
      s.clock.advance(6 * DAY);
      const week = (await s.call('portfolioHistory', { token: u.token, query: { range: '1W' } })).body.data;
      expect(week.points.map((p: { total: string }) => p.total)).toEqual(['52000.00', '51500.00']);
      const all = (await s.call('portfolioHistory', { token: u.token, query: { range: 'ALL' } })).body.data;
      expect(all.points).toHaveLength(3);
      // A user with no snapshots has one point, now.
      const other = await trader(0);
      const none = (await s.call('portfolioHistory', { token: other.token, query: { range: 'ALL' } })).body
        .data;
      expect(none).toMatchObject({ points: [{ total: '0.00' }], change: '0.00', change_percent: 0 });
    },
  );
});
