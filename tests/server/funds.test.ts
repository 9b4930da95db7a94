import { describe, expect, it } from 'vitest';
import { FUND_STAMP_PPM, FUND_STT_PPM, ppmOf, unitsFor, unitsText, unitsValue } from '#shared/funds';
import { fromMinor } from '#shared/money';
import { isoDay, navDayFor } from '../../server/funds/calendar';
import { navHistory } from '../../server/funds/nav';
import { fundHoldings } from '../../server/funds/positions';
import { afterPublished, beforeCutoff, cutoffOf, publishedAt, runNavJob, toIstTime } from '../support/funds';
import { DIALECTS } from '../support/server';
import { auditedServer, balanceOf, credit, idem, insertFund, ledgerOf } from '../support/trading';

const RICH = 100_000_000;
const DAY = 86_400_000;

describe.each(DIALECTS)('mutual funds on $name', ({ name, enabled }) => {
  // Exit-load periods move the clock by weeks: sessions must outlive them.
  const s = auditedServer(name, enabled, { TOKEN_TTL_MS: String(3650 * DAY) });

  async function investor(minor = RICH) {
    const u = await s.signUp();
    if (minor > 0) await credit(s, u.id, minor);
    return u;
  }
  const buy = (token: string, project_id: number, amount?: number, headers = idem()) =>
    s.call('fundPurchase', {
      token,
      body: amount === undefined ? { project_id } : { project_id, amount },
      headers,
    });
  const redeem = (token: string, body: Record<string, unknown>, headers = idem()) =>
    s.call('fundRedeem', { token, body, headers });
  const orders = async (token: string, status?: string) =>
    (await s.call('fundOrders', { token, query: status ? { status } : {} })).body.data.rows;
  const positions = async (token: string) => (await s.call('fundPositions', { token })).body.data;
  /** The fund's NAV on a business day, ticks, from its history (the rules the server strikes by). */
  async function navOn(fundId: number, day: number): Promise<number> {
    const row = await s.deps.database.db
      .selectFrom('funds')
      .selectAll()
      .where('id', '=', fundId)
      .executeTakeFirstOrThrow();
    return navHistory(s.config.market.seed, row).on(day);
  }

  describe.skipIf(!enabled)('the list', () => {
    it('shows mutual funds as their scheme documents do: NAV, returns from its history, costs, riskometer, AMC', async () => {
      await runNavJob(s);
      const res = await s.call('fundList');
      const rows = res.body.data.rows;
      expect(res.body.data.count).toBe(rows.length);
      const liquid = rows.find((f: { name: string }) => f.name === 'Bourse Liquid Fund');
      expect(liquid).toMatchObject({
        manager: 'Bourse Asset Management',
        risk: 2,
        category: 'liquid',
        expense_ratio: '0.20',
        exit_load: { percent: '0.007', days: 7 },
        launched_on: '2018-01-02',
        amount: '500.00',
        // An open-ended scheme: no issue size, nothing "subscribed".
        issue_amount: '0.00',
        sold_amount: '0.00',
        investment_period: 365,
      });
      // Nothing is promised: the fixed-term fields of before are gone.
      for (const field of ['return_pa', 'expected_return', 'expected_return_pa', 'expected_profit'])
        expect(liquid).not.toHaveProperty(field);
      // A liquid fund earns about 6.5–7 % a year, every year (rolling one-year range).
      expect(Number(liquid.returns.y1)).toBeGreaterThan(6.4);
      expect(Number(liquid.returns.y1)).toBeLessThan(7.1);
      expect(liquid.min_return).toBeGreaterThan(6.3);
      expect(liquid.max_return).toBeLessThan(7.3);
      // The NAV published is the history's, on the latest business day whose NAV is out.
      const row = await s.deps.database.db
        .selectFrom('funds')
        .selectAll()
        .where('name', '=', 'Bourse Liquid Fund')
        .executeTakeFirstOrThrow();
      const h = navHistory(s.config.market.seed, row);
      expect(liquid.nav_date).toBe(isoDay(row.nav_day!));
      expect(liquid.nav).toBe((h.on(row.nav_day!) / 10_000).toFixed(4));
      // 1Y CAGR is the NAV's growth over the year, from the same history.
      const yearAgo = h.onOrBefore(row.nav_day! - 365)!;
      const span = (row.nav_day! - yearAgo.day) / 365.25;
      const y1 = ((h.on(row.nav_day!) / yearAgo.ticks) ** (1 / span) - 1) * 100;
      expect(Number(liquid.returns.y1)).toBeCloseTo(y1, 2);
      // A fund launched in March 2024 has no 3-year return yet.
      const young = rows.find((f: { name: string }) => f.name === 'Northgate Global Technology FoF');
      expect(young).toMatchObject({ risk: 6, category: 'international', returns: { y3: null } });
      expect(young.returns.y1).not.toBeNull();
      // An order now gets the next NAV: its day, cut-off and publication time.
      const next = navDayFor(s.clock.now());
      expect(liquid.next_nav).toEqual({
        date: isoDay(next),
        cutoff_at: cutoffOf(next),
        published_by: publishedAt(next),
      });
    });

    it('draws the NAV chart from the same history and says the change over the range', async () => {
      const id = await insertFund(s, { category: 'equity' });
      await runNavJob(s);
      const nav = (await s.call('fundNav', { query: { id, range: '1m' } })).body.data;
      expect(nav.range).toBe('1m');
      expect(nav.points.length).toBeGreaterThan(19);
      const row = await s.deps.database.db
        .selectFrom('funds')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const h = navHistory(s.config.market.seed, row);
      for (const p of nav.points) {
        const day = Math.floor(Date.parse(`${p.date}T00:00:00Z`) / DAY);
        expect(p.nav).toBe(h.on(day) / 10_000);
      }
      expect(nav.points.at(-1).date).toBe(isoDay(row.nav_day!));
      const all = (await s.call('fundNav', { query: { id, range: 'all' } })).body.data;
      expect(all.points.length).toBeLessThanOrEqual(300);
      expect(all.points[0].date).toBe('2018-01-02');
      expect((await s.call('fundNav', { query: { id, range: '2y' } })).body.data).toBe('errors.invalidInput');
      expect((await s.call('fundNav', { query: { id: 999_999 } })).status).toBe(404);
    });
  });

  describe.skipIf(!enabled)('subscription at the next NAV', () => {
    it('debits the amount now, allots units at the day’s NAV when it is published, less stamp duty', async () => {
      const id = await insertFund(s, { amount: 500_000 });
      const u = await investor();
      const day = beforeCutoff(s);
      const placed = (await buy(u.token, id, 12_345)).body.data;
      expect(placed).toMatchObject({
        side: 'buy',
        status: 'active',
        amount: '12345.00',
        units: null,
        nav: null,
        value: null,
        expected_return: null,
        nav_date: isoDay(day),
        end_time: publishedAt(day),
        cancel_until: cutoffOf(day),
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 1_234_500);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: -1_234_500, reason: 'fundPurchase' });
      // Pending: the money is in the fund line at what was paid.
      expect(await positions(u.token)).toMatchObject({
        pending: '12345.00',
        value: '0.00',
        total: '12345.00',
      });

      // Not before the NAV is out.
      s.clock.advance(publishedAt(day) - 60_000 - s.clock.now());
      await runNavJob(s);
      expect((await orders(u.token, 'active')).map((o: { id: number }) => o.id)).toEqual([placed.id]);

      await afterPublished(s, day);
      const nav = await navOn(id, day);
      const stamp = ppmOf(1_234_500, FUND_STAMP_PPM);
      expect(stamp).toBe(62); // 0.005 % of 12,345.00 = 0.61725 → 0.62
      const units = unitsFor(1_234_500 - stamp, nav);
      const [done] = await orders(u.token, 'completed');
      expect(done).toMatchObject({
        id: placed.id,
        status: 'completed',
        units: unitsText(units),
        nav: (nav / 10_000).toFixed(4),
        stamp_duty: '0.62',
        value: fromMinor(unitsValue(units, nav)),
        cancel_until: null,
      });
      // Units rounded down: what they are worth never exceeds what was paid after stamp duty.
      expect(unitsValue(units, nav)).toBeLessThanOrEqual(1_234_500 - stamp);
      expect(1_234_500 - stamp - unitsValue(units, nav)).toBeLessThan(Math.ceil(nav / 1000) + 1);
      const held = await positions(u.token);
      expect(held.rows).toEqual([
        expect.objectContaining({
          fund_id: id,
          units: unitsText(units),
          free_units: unitsText(units),
          invested: '12345.00',
          pending: '0.00',
          value: fromMinor(unitsValue(units, nav)),
        }),
      ]);
      // Total assets count the units at the published NAV, as the positions do.
      const info = (await s.call('userInfo', { token: u.token })).body.data;
      expect(info.total).toBe(fromMinor(RICH - 1_234_500 + unitsValue(units, nav)));
      expect((await fundHoldings(s.deps.database.db, u.id)).totalMinor).toBe(unitsValue(units, nav));
    });

    it('after the 15:00 IST cut-off, and at the weekend, an order gets the next business day’s NAV', async () => {
      const id = await insertFund(s);
      const u = await investor();
      const day = toIstTime(s, 15 * 60 + 5);
      const late = (await buy(u.token, id)).body.data;
      expect(late.nav_date).not.toBe(isoDay(day));
      expect(late.nav_date).toBe(isoDay(navDayFor(s.clock.now())));
      // Still a business day after the one it was placed on.
      expect(Date.parse(late.nav_date) - Date.parse(isoDay(day))).toBeGreaterThanOrEqual(DAY);
      // Saturday noon → Monday.
      const now = s.clock.now();
      const toSaturday = ((6 - new Date(now + 5.5 * 3_600_000).getUTCDay() + 7) % 7) * DAY;
      s.clock.advance(toSaturday);
      const weekend = (await buy(u.token, id)).body.data;
      expect(new Date(`${weekend.nav_date}T00:00:00Z`).getUTCDay()).toBe(1);
    });

    it('refuses a purchase below the minimum, of a closed or unknown fund, or beyond the balance, moving nothing', async () => {
      const id = await insertFund(s, { amount: 500_000 });
      const closed = await insertFund(s, { status: 0 });
      const u = await investor(400_000);
      const low = await buy(u.token, id, 4_999);
      expect(low.body).toEqual({ msg: 'no', data: 'errors.fundMinimum', params: { amount: '5000.00' } });
      expect((await buy(u.token, closed)).body).toEqual({ msg: 'no', data: 'errors.fundClosed' });
      expect((await buy(u.token, 999_999)).body).toEqual({ msg: 'no', data: 'errors.notFound' });
      expect((await buy(u.token, id, 5_000)).body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await balanceOf(s, u.id)).toBe(400_000);
      expect(await orders(u.token)).toHaveLength(0);
    });

    it.each([
      ['a missing project', {}],
      ['a text id', { project_id: '1' }],
      ['an amount with paise', { project_id: 1, amount: 5000.5 }],
      ['a negative amount', { project_id: 1, amount: -5000 }],
      ['an unknown field', { project_id: 1, price: 5 }],
    ])('rejects %s as invalid input', async (_label, body) => {
      const u = await investor();
      const res = await s.call('fundPurchase', { token: u.token, body, headers: idem() });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      expect(await balanceOf(s, u.id)).toBe(RICH);
    });

    it('SPEC’s body (no amount) buys the minimum; a replayed key buys once', async () => {
      const id = await insertFund(s, { amount: 250_000 });
      const u = await investor();
      const headers = idem();
      const first = await buy(u.token, id, undefined, headers);
      expect(first.body.data.amount).toBe('2500.00');
      expect((await buy(u.token, id, undefined, headers)).body).toEqual(first.body);
      expect(await balanceOf(s, u.id)).toBe(RICH - 250_000);
    });

    it('a visitor cannot buy, redeem, cancel or read positions', async () => {
      expect((await s.call('fundPurchase', { body: { project_id: 1 }, headers: idem() })).status).toBe(401);
      expect(
        (await s.call('fundRedeem', { body: { project_id: 1, all: true }, headers: idem() })).status,
      ).toBe(401);
      expect((await s.call('fundCancel', { body: { id: 1 }, headers: idem() })).status).toBe(401);
      expect((await s.call('fundPositions')).body.msg).toBe('logout');
      expect((await s.call('fundOrders')).body.msg).toBe('logout');
    });
  });

  describe.skipIf(!enabled)('redemption at the next NAV', () => {
    /** A user holding units of a fund bought on `day`'s NAV. */
    async function holder(fund: number, rupees: number) {
      const u = await investor();
      const day = beforeCutoff(s);
      await buy(u.token, fund, rupees);
      await afterPublished(s, day);
      const [order] = await orders(u.token, 'completed');
      return { ...u, units: Math.round(Number(order.units) * 1000), boughtDay: day };
    }

    it('holds the units, pays their value at the NAV of its day, and the position gives up its share of the cost', async () => {
      const id = await insertFund(s);
      const u = await holder(id, 20_000);
      const day = beforeCutoff(s);
      const half = Math.floor(u.units / 2);
      const placed = (await redeem(u.token, { project_id: id, units: unitsText(half) })).body.data;
      expect(placed).toMatchObject({
        side: 'redeem',
        status: 'active',
        amount: '0.00',
        units: unitsText(half),
        nav: null,
      });
      const before = await balanceOf(s, u.id);
      const pending = (await positions(u.token)).rows[0];
      expect(pending.free_units).toBe(unitsText(u.units - half));
      // The held units cannot be redeemed twice.
      expect((await redeem(u.token, { project_id: id, units: unitsText(u.units - half + 1) })).body).toEqual({
        msg: 'no',
        data: 'errors.fundUnits',
      });

      await afterPublished(s, day);
      const nav = await navOn(id, day);
      const value = unitsValue(half, nav);
      const [done] = await orders(u.token, 'completed');
      expect(done).toMatchObject({
        id: placed.id,
        nav: (nav / 10_000).toFixed(4),
        value: fromMinor(value),
        exit_load: '0.00',
        stt: '0.00',
        amount: fromMinor(value),
      });
      expect(await balanceOf(s, u.id)).toBe(before + value);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: value, reason: 'fundRedemption' });
      const left = (await positions(u.token)).rows[0];
      expect(left.units).toBe(unitsText(u.units - half));
      // Average cost: the other half of the units keeps its half of ₹20,000 (HALF_UP).
      expect(left.invested).toBe(fromMinor(Math.round((2_000_000 * (u.units - half)) / u.units)));

      // Everything else, on the next business day's NAV; then no units are left to redeem.
      const next = beforeCutoff(s);
      await redeem(u.token, { project_id: id, all: true });
      await afterPublished(s, next);
      expect(await positions(u.token)).toMatchObject({ rows: [], value: '0.00', invested: '0.00' });
      expect((await redeem(u.token, { project_id: id, all: true })).body).toEqual({
        msg: 'no',
        data: 'errors.fundNoUnits',
      });
    });

    it('charges the exit load on units held within its period (first in, first out), and STT on an equity fund', async () => {
      // 1 % within 30 days, equity-oriented.
      const id = await insertFund(s, { category: 'equity', exit_load_ppm: 10_000, exit_load_days: 30 });
      const u = await holder(id, 50_000);
      const oldLot = u.units;
      // 40 days on, a second lot.
      s.clock.advance(40 * DAY);
      const second = beforeCutoff(s);
      await buy(u.token, id, 50_000);
      await afterPublished(s, second);
      const newLot = (await orders(u.token, 'completed'))[0];
      const newUnits = Math.round(Number(newLot.units) * 1000);
      // Ten days later: the old lot is past its period, the new one is not.
      s.clock.advance(10 * DAY);
      const day = beforeCutoff(s);
      const units = oldLot + Math.floor(newUnits / 2);
      const before = await balanceOf(s, u.id);
      await redeem(u.token, { project_id: id, units: unitsText(units) });
      await afterPublished(s, day);
      const nav = await navOn(id, day);
      const value = unitsValue(units, nav);
      const load = ppmOf(unitsValue(Math.floor(newUnits / 2), nav), 10_000);
      const stt = ppmOf(value, FUND_STT_PPM);
      expect(load).toBeGreaterThan(0);
      const [done] = (await orders(u.token, 'completed')).filter(
        (o: { side: string }) => o.side === 'redeem',
      );
      expect(done).toMatchObject({
        exit_load: fromMinor(load),
        stt: fromMinor(stt),
        amount: fromMinor(value - load - stt),
      });
      expect(await balanceOf(s, u.id)).toBe(before + value - load - stt);
      expect((await ledgerOf(s, u.id)).slice(-3)).toMatchObject([
        { amount: value, reason: 'fundRedemption' },
        { amount: -load, reason: 'exitLoad' },
        { amount: -stt, reason: 'transactionExpenses' },
      ]);

      // After the period, nothing is charged on the rest of the new lot.
      s.clock.advance(31 * DAY);
      const later = beforeCutoff(s);
      await redeem(u.token, { project_id: id, all: true });
      await afterPublished(s, later);
      const [last] = (await orders(u.token, 'completed')).filter(
        (o: { side: string }) => o.side === 'redeem',
      );
      expect(last.exit_load).toBe('0.00');
    });

    it('refuses bad redemptions with a clear reason', async () => {
      const id = await insertFund(s);
      const u = await holder(id, 5_000);
      for (const body of [
        { project_id: id },
        { project_id: id, units: '1', all: true },
        { project_id: id, units: '1.2345' },
        { project_id: id, units: '-1' },
        { project_id: id, all: false },
      ]) {
        const res = await redeem(u.token, body);
        expect(res.body, JSON.stringify(body)).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      }
      expect((await redeem(u.token, { project_id: id, units: '0' })).body.data).toBe('errors.fundUnits');
      expect((await redeem(u.token, { project_id: 999_999, all: true })).status).toBe(404);
      const other = await investor();
      expect((await redeem(other.token, { project_id: id, all: true })).body.data).toBe('errors.fundNoUnits');
    });

    it('two redemptions racing for the same units: one holds them, the other is refused', async () => {
      const id = await insertFund(s);
      const u = await holder(id, 10_000);
      beforeCutoff(s);
      const answers = await Promise.all([
        redeem(u.token, { project_id: id, units: unitsText(u.units) }),
        redeem(u.token, { project_id: id, units: unitsText(u.units) }),
      ]);
      expect(answers.map((a) => a.body.msg).sort()).toEqual(['no', 'ok']);
      expect((await positions(u.token)).rows[0].free_units).toBe('0.000');
    });
  });

  describe.skipIf(!enabled)('cancel before the cut-off', () => {
    it('gives a buy’s money back and a redemption’s units; after the cut-off the order stands', async () => {
      const id = await insertFund(s);
      const u = await investor();
      const day = beforeCutoff(s);
      const order = (await buy(u.token, id, 3_000)).body.data;
      const cancelled = await s.call('fundCancel', {
        token: u.token,
        body: { id: order.id },
        headers: idem(),
      });
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancel_until: null });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 300_000, reason: 'fundRefund' });
      expect(
        (await s.call('fundCancel', { token: u.token, body: { id: order.id }, headers: idem() })).body.data,
      ).toBe('errors.fundNotPending');

      const kept = (await buy(u.token, id, 3_000)).body.data;
      s.clock.advance(cutoffOf(day) - s.clock.now() + 1000);
      const late = await s.call('fundCancel', { token: u.token, body: { id: kept.id }, headers: idem() });
      expect(late.body).toEqual({ msg: 'no', data: 'errors.fundPastCutoff' });
      const other = await investor();
      const theirs = await s.call('fundCancel', {
        token: other.token,
        body: { id: kept.id },
        headers: idem(),
      });
      expect(theirs.status).toBe(404);
      await afterPublished(s, day);

      beforeCutoff(s);
      const redemption = (await redeem(u.token, { project_id: id, all: true })).body.data;
      await s.call('fundCancel', { token: u.token, body: { id: redemption.id }, headers: idem() });
      const row = (await positions(u.token)).rows[0];
      expect(row.free_units).toBe(row.units);
      expect((await orders(u.token, 'cancelled')).map((o: { id: number }) => o.id)).toEqual([
        redemption.id,
        order.id,
      ]);
    });
  });
});
