import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor } from '#shared/money';
import { COMMANDS } from '../../server/ops/commands/index';
import { chargesFor } from '../../server/trading/charges';
import { program } from '../support/process';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertIpo,
  ledgerOf,
  type MarketControl,
} from '../support/trading';

const RICH = 100_000_000;

const ops = (name: string) => COMMANDS.find((c) => c.name === name)!;

describe.each(DIALECTS)('IPO on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    m = controlMarket(s);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  async function investor(minor = RICH) {
    const u = await s.signUp();
    if (minor > 0) await credit(s, u.id, minor);
    return u;
  }
  const apply = (token: string, body: Record<string, unknown>, headers = idem()) =>
    s.call('ipoBuy', { token, body, headers });
  const orders = async (token: string, type?: 0 | 1) =>
    (await s.call('ipoOrders', { token, query: type === undefined ? {} : { type } })).body.data.rows;

  describe.skipIf(!enabled)('list and apply', () => {
    it('computes the bidding window from the dates and takes applications only inside it', async () => {
      const u = await investor();
      const now = s.clock.now();
      const day = 86_400_000;
      const plans = {
        open: [now - day, now + day],
        upcoming: [now + day, now + 3 * day],
        closed: [now - 3 * day, now - day],
      } as const;
      const rows = await s.call('ipoList');
      const seeded = rows.body.data.rows as Array<Record<string, unknown>>;
      // The seed's issues carry a band, a lot and an allotment date between the window and listing.
      for (const r of seeded) {
        expect(r.lot).toBe(100);
        expect(r.band_low as number).toBeLessThan(r.issue_price as number);
        expect(r.allotment_date as number).toBeGreaterThanOrEqual(r.issue_end_date as number);
        expect(r.allotment_date as number).toBeLessThanOrEqual(r.listing_date as number);
      }
      for (const [window, [start, end]] of Object.entries(plans)) {
        const ipo = await insertIpo(s);
        await s.deps.database.db
          .updateTable('ipos')
          .set({ issue_start_date: start, issue_end_date: end })
          .where('id', '=', ipo.id)
          .execute();
        const listed = (await s.call('ipoList')).body.data.rows.find((r: { id: number }) => r.id === ipo.id);
        // SPEC's status stays Forthcoming until the operator closes the issue; the window is the dates'.
        expect(listed).toMatchObject({ status: 'Forthcoming', window, band_low: null, allotment_date: null });
        const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
        if (window === 'open') expect(res.body.msg).toBe('ok');
        else expect([res.status, res.body.data]).toEqual([400, 'errors.ipoNotOpen']);
      }
    });

    it('lists IPOs publicly with issue price, limits, dates and region', async () => {
      const ipo = await insertIpo(s, { issue_price: 99.5, min: 200, max: 800, series: 'NASDAQ' });
      const res = await s.call('ipoList');
      expect(res.body.msg).toBe('ok');
      expect(res.body.data.rows.find((r: { id: number }) => r.id === ipo.id)).toMatchObject({
        symbol: ipo.symbol,
        status: 'Forthcoming',
        issue_price: 99.5,
        min: 200,
        max: 800,
        region: 'US',
        issue_start_date: expect.any(Number),
      });
    });

    it('an application freezes its amount at the issue price (ledger ipoFreeze) and is pending', async () => {
      const ipo = await insertIpo(s, { issue_price: 120.5 });
      const u = await investor();
      const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 300, price: 120.5 });
      expect(res.body.data).toMatchObject({
        mold: 'ipo',
        state: 'buy',
        status: 1,
        count: 300,
        price: 120.5,
        price_all: '36150.00',
        sellable: false,
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 3_615_000);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: -3_615_000, reason: 'ipoFreeze' });
      expect(await orders(u.token, 0)).toHaveLength(1);
      expect(await orders(u.token, 1)).toHaveLength(0);
      const info = await s.call('userInfo', { token: u.token });
      expect(info.body.data.total).toBe('1000000.00');
      expect(info.body.data.money).toBe('963850.00');
    });

    it.each([
      ['below the minimum', { count: 0 }, 'errors.invalidInput'],
      ['below the IPO minimum', { count: 100 }, 'errors.ipoQuantity'],
      ['above the maximum', { count: 1100 }, 'errors.ipoQuantity'],
      ['not a step of 100', { count: 250 }, 'errors.ipoQuantity'],
      ['a tag that is not the IPO’s', { tag: 'AAPL' }, 'errors.invalidInput'],
      ['an unknown IPO', { id: 999_999 }, 'errors.notFound'],
      ['an issue price above what the user saw', { price: 100 }, 'errors.priceChanged'],
      ['an unknown field', { amount: 1 }, 'errors.invalidInput'],
    ])('refuses an application %s and moves nothing', async (_label, change, key) => {
      const ipo = await insertIpo(s, { min: 200, max: 1000 });
      const u = await investor();
      const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 200, price: 120.5, ...change });
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect(await orders(u.token, 0)).toHaveLength(0);
    });

    it.each(['Closed', 'Listed'])('refuses an application to a %s IPO', async (status) => {
      const ipo = await insertIpo(s, { status });
      const u = await investor();
      const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.ipoNotOpen' });
    });

    it('an application the balance cannot cover changes nothing', async () => {
      const ipo = await insertIpo(s);
      const u = await investor(1_000_000);
      const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await balanceOf(s, u.id)).toBe(1_000_000);
      expect(await orders(u.token)).toHaveLength(0);
    });

    it('replays the same key once; the same key with another body is rejected', async () => {
      const ipo = await insertIpo(s);
      const u = await investor();
      const headers = idem();
      const body = { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 };
      const first = await apply(u.token, body, headers);
      const again = await apply(u.token, body, headers);
      expect(again.body).toEqual(first.body);
      const other = await apply(u.token, { ...body, count: 200 }, headers);
      expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 1_205_000);
      expect(await orders(u.token)).toHaveLength(1);
    });

    it('a visitor cannot apply or see orders', async () => {
      const ipo = await insertIpo(s);
      const res = await s.call('ipoBuy', {
        body: { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 },
        headers: idem(),
      });
      expect(res.status).toBe(401);
      expect((await s.call('ipoOrders')).body.msg).toBe('logout');
    });
  });

  describe.skipIf(!enabled)('allotment, refund and sale', () => {
    it('allots in whole lots, refunds the unallotted part exactly, and closes applications', async () => {
      const ipo = await insertIpo(s, { issue_price: 120.5, min: 100, max: 1000 });
      const a = await investor();
      const b = await investor();
      await apply(a.token, { id: ipo.id, tag: ipo.symbol, count: 500, price: 120.5 });
      await apply(b.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      const listed = (await ops('ipo:list').run(s.deps, [])) as Array<{ id: number; pendingShares: number }>;
      expect(listed.find((r) => r.id === ipo.id)).toMatchObject({
        pendingApplications: 2,
        pendingShares: 600,
      });

      const result = await ops('ipo:allot').run(s.deps, [String(ipo.id), '0.5']);
      expect(result).toMatchObject({ applications: 2, allotted: 1, refunded: 1 });
      // a: 5 lots × 0.5 → 2 lots = 200 shares, 300 × 120.5 refunded; b: 1 lot × 0.5 → 0, all refunded.
      expect(await orders(a.token, 0)).toMatchObject([{ status: 2, count: 200, price_all: '24100.00' }]);
      expect(await balanceOf(s, a.id)).toBe(RICH - 2_410_000);
      expect((await ledgerOf(s, a.id)).at(-1)).toMatchObject({ amount: 3_615_000, reason: 'ipoRefund' });
      expect(await orders(b.token, 0)).toMatchObject([{ status: 3, count: 100 }]);
      expect(await balanceOf(s, b.id)).toBe(RICH);

      const late = await apply(b.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      expect(late.body).toEqual({ msg: 'no', data: 'errors.ipoNotOpen' });
      const again = await ops('ipo:allot').run(s.deps, [String(ipo.id)]);
      expect(again).toMatchObject({ applications: 0 });
      expect(await balanceOf(s, a.id)).toBe(RICH - 2_410_000);
    });

    it('blocks the amount, not spends it: available falls, total assets do not, and a refusal releases all of it', async () => {
      const ipo = await insertIpo(s, { issue_price: 120.5 });
      const u = await investor();
      const info = async () => (await s.call('userInfo', { token: u.token })).body.data;
      const before = await info();
      await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 300, price: 120.5 });
      const blocked = await info();
      expect(Number(before.money) - Number(blocked.money)).toBeCloseTo(36150, 2);
      expect(blocked.total).toBe(before.total);
      expect(await orders(u.token, 0)).toMatchObject([{ status: 1, price_all: '36150.00' }]);
      await ops('ipo:refund').run(s.deps, [String(ipo.id)]);
      expect(await orders(u.token, 0)).toMatchObject([{ status: 3, price_all: '36150.00' }]);
      expect(await info()).toMatchObject({ money: before.money, total: before.total });
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 3_615_000, reason: 'ipoRefund' });
    });

    it('refunds every pending application in full', async () => {
      const ipo = await insertIpo(s);
      const u = await investor();
      await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 300, price: 120.5 });
      await ops('ipo:refund').run(s.deps, [String(ipo.id)]);
      expect(await orders(u.token, 0)).toMatchObject([{ status: 3 }]);
      expect(await balanceOf(s, u.id)).toBe(RICH);
    });

    it('sells allotted shares once the market lists them, at the quote, with (sell − price) × count', async () => {
      const ipo = await insertIpo(s, { issue_price: 120.5 });
      const u = await investor();
      const applied = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 400, price: 120.5 });
      const no = applied.body.data.no;
      const early = await s.call('dealSell', { token: u.token, body: { no }, headers: idem() });
      expect(early.body).toEqual({ msg: 'no', data: 'errors.notSellable' });

      await ops('ipo:allot').run(s.deps, [String(ipo.id)]);
      expect((await orders(u.token, 0))[0]).toMatchObject({ status: 2, sellable: true });
      const unlisted = await s.call('dealSell', { token: u.token, body: { no }, headers: idem() });
      expect(unlisted.body).toEqual({ msg: 'no', data: 'errors.ipoNotListed' });
      // Before listing the allotted shares count at their issue price.
      let info = await s.call('userInfo', { token: u.token });
      expect(info.body.data.total).toBe('1000000.00');

      m.add(
        {
          symbol: ipo.symbol,
          name: `${ipo.symbol} Ltd`,
          market: 'IN',
          exchange: 'NSE',
          kind: 'stock',
          region: 'IN',
          currency: 'INR',
          decimals: 2,
        },
        131.25,
      );
      const listed = (await s.call('ipoList')).body.data.rows.find((r: { id: number }) => r.id === ipo.id);
      expect(listed.status).toBe('Listed');
      info = await s.call('userInfo', { token: u.token });
      expect(info.body.data.total).toBe('1004300.00');

      const other = await investor(0);
      const theirs = await s.call('dealSell', { token: other.token, body: { no }, headers: idem() });
      expect(theirs.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      expect(await orders(other.token, 0)).toEqual([]);

      const before = await balanceOf(s, u.id);
      const sold = await s.call('dealSell', {
        token: u.token,
        body: { no, price: 120.5, sell_price: 131.25 },
        headers: idem(),
      });
      // 400 × 131.25 = 52,500.00, less a stock sell's charges (the profit is before them).
      const charges = chargesFor(
        s.config.charges,
        s.deps.market.instrument(ipo.symbol),
        'sell',
        5_250_000,
        'delivery',
      ).total;
      expect(sold.body.data).toMatchObject({
        mold: 'ipo',
        state: 'sell',
        status: 1,
        count: 400,
        price: 120.5,
        sell_price: 131.25,
        value: '52500.00',
        fee: fromMinor(charges),
        price_all: fromMinor(5_250_000 - charges),
        profit: '4300.00',
      });
      expect(await balanceOf(s, u.id)).toBe(before + 5_250_000 - charges);
      expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
        { reason: 'sellStock', amount: 5_250_000 },
        { reason: 'transactionExpenses', amount: -charges },
      ]);
      expect(await orders(u.token, 1)).toMatchObject([{ no: sold.body.data.no, state: 'sell', status: 1 }]);
      expect((await orders(u.token, 0))[0]).toMatchObject({ status: 2, sellable: false });
      const twice = await s.call('dealSell', { token: u.token, body: { no }, headers: idem() });
      expect(twice.body).toEqual({ msg: 'no', data: 'errors.alreadySold' });
      const late = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      expect(late.body).toEqual({ msg: 'no', data: 'errors.ipoNotOpen' });
    });

    it('ipo:status closes applications without allotting', async () => {
      const ipo = await insertIpo(s);
      await ops('ipo:status').run(s.deps, [String(ipo.id), 'Closed']);
      const u = await investor();
      const res = await apply(u.token, { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.ipoNotOpen' });
    });

    it('operator commands validate their arguments', async () => {
      await expect(ops('ipo:allot').run(s.deps, [])).rejects.toThrow(/IPO id/);
      await expect(ops('ipo:allot').run(s.deps, ['1', '1.5'])).rejects.toThrow(/ratio/);
      await expect(ops('ipo:allot').run(s.deps, ['999999'])).rejects.toThrow(/no IPO/);
      await expect(ops('ipo:status').run(s.deps, ['1', 'Open'])).rejects.toThrow(/status/);
    });
  });
});

describe('ipo:allot from the command line', () => {
  it('allots on the server’s SQLite database and records the action in ops_log', async () => {
    const s = await startTestServer('sqlite');
    try {
      const ipo = await insertIpo(s);
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      await s.call('ipoBuy', {
        token: u.token,
        body: { id: ipo.id, tag: ipo.symbol, count: 200, price: 120.5 },
        headers: idem(),
      });
      const root = path.resolve(__dirname, '../..');
      const run = spawnSync(process.execPath, [...program('ops'), 'ipo:allot', String(ipo.id)], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: s.config.databaseUrl, DEMO_USER: '0' },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ ipo: ipo.id, allotted: 1 });
      const log = await s.deps.database.db.selectFrom('ops_log').selectAll().execute();
      expect(log).toMatchObject([{ command: 'ipo:allot', args: JSON.stringify([String(ipo.id)]) }]);
      const [order] = (await s.call('ipoOrders', { token: u.token })).body.data.rows;
      expect(order).toMatchObject({ status: 2, count: 200 });
    } finally {
      await s.close();
    }
  });
});
