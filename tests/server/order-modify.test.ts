import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '#shared/money';
import { JOBS, runJob } from '../../server/jobs/index';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  ledgerOf,
  type MarketControl,
} from '../support/trading';

/**
 * Modifying a pending order (`orderModify`): quantity, limit and trigger of a resting
 * limit, stop-loss or stop-loss-market order. What the order holds is re-reserved to exactly what
 * the new order needs, with the charges (the full schedule is on here), and the balance or the
 * free shares must cover a growth; refused for a closed order and for another user's; the ledger
 * audit is clean after every step.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';

describe.each(DIALECTS)('order modify on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LIMIT_BAND_BPS: '5000' });
    m = controlMarket(s);
    m.pin(SYMBOL, 2500);
  });
  afterAll(async () => {
    await s?.close();
  });
  const match = () => runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);
  const order = (name: 'dealBuy' | 'dealSell', token: string, body: Record<string, unknown>) =>
    s.call(name, { token, body: { mold: 'stock', tag: SYMBOL, ...body }, headers: idem() });
  const modify = (token: string, body: Record<string, unknown>) =>
    s.call('orderModify', { token, body, headers: idem() });
  async function trader(minor = RICH) {
    const u = await s.signUp();
    await credit(s, u.id, minor);
    return u;
  }
  /** What a pending buy holds: its value and charges at its limit. */
  // What a pending buy holds: its price_all, value and charges at its limit.
  const held = (row: { price_all: string }) => toMinor(row.price_all)!;
  async function available(token: string) {
    const rows = (await s.call('holdings', { token, query: { type: 'stock' } })).body.data.rows;
    return rows.find((r: { stock: string }) => r.stock === SYMBOL) as { count: number; available: number };
  }

  it.runIf(enabled)('a pending limit buy grows and shrinks, reserving exactly the difference', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    const placed = (await order('dealBuy', u.token, { count: 10, price: 2400 })).body.data;
    expect(placed).toMatchObject({ status: 0, limit_price: 2400, value: '24000.00' });
    expect(await balanceOf(s, u.id)).toBe(RICH - held(placed));

    const grown = await modify(u.token, { no: placed.no, count: 20, price: 2450 });
    expect(grown.body.data).toMatchObject({ no: placed.no, status: 0, count: 20, limit_price: 2450 });
    expect(grown.body.data.value).toBe('49000.00');
    expect(await balanceOf(s, u.id)).toBe(RICH - held(grown.body.data));
    const ledger = await ledgerOf(s, u.id);
    expect(ledger.at(-1)).toMatchObject({
      amount: -(held(grown.body.data) - held(placed)),
      reason: 'buyStock',
    });
    await expectLedgerConsistent(s);

    const shrunk = await modify(u.token, { no: placed.no, count: 5 });
    expect(shrunk.body.data).toMatchObject({ count: 5, limit_price: 2450, value: '12250.00' });
    expect(await balanceOf(s, u.id)).toBe(RICH - held(shrunk.body.data));
    expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ reason: 'orderRefund' });
    await expectLedgerConsistent(s);

    // The match job fills the modified order, not the one its page read before.
    m.pin(SYMBOL, 2440);
    await match();
    const list = (await s.call('orderList', { token: u.token, query: { tag: SYMBOL } })).body.data.rows;
    const filled = list.find((r: { no: string }) => r.no === placed.no);
    expect(filled).toMatchObject({ status: 1, count: 5, price: 2440, value: '12200.00' });
    expect(await balanceOf(s, u.id)).toBe(RICH - 1_220_000 - toMinor(filled.fee)!);
    expect((await available(u.token)).count).toBe(5);
    await expectLedgerConsistent(s);

    // Filled: no longer modifiable or cancellable.
    const late = await modify(u.token, { no: placed.no, count: 6 });
    expect(late.body).toMatchObject({ msg: 'no', data: 'errors.notPending' });
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('a growth the balance cannot cover is refused and moves nothing', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader(3_000_000);
    const placed = (await order('dealBuy', u.token, { count: 10, price: 2400 })).body.data;
    const before = await balanceOf(s, u.id);
    const refused = await modify(u.token, { no: placed.no, count: 20 });
    expect(refused.body).toMatchObject({ msg: 'no', data: 'errors.insufficientFunds' });
    expect(await balanceOf(s, u.id)).toBe(before);
    const rows = (await s.call('orderList', { token: u.token, query: { tag: SYMBOL } })).body.data.rows;
    expect(rows[0]).toMatchObject({ no: placed.no, count: 10, limit_price: 2400 });
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('a pending sell reserves or releases the difference of units', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    await order('dealBuy', u.token, { count: 10, price: 2500 });
    const placed = (await order('dealSell', u.token, { count: 4, price: 2600 })).body.data;
    expect(placed).toMatchObject({ status: 0, count: 4 });
    expect(await available(u.token)).toMatchObject({ count: 10, available: 6 });

    const grown = await modify(u.token, { no: placed.no, count: 8, price: 2650 });
    expect(grown.body.data).toMatchObject({ count: 8, limit_price: 2650, value: '21200.00' });
    expect(await available(u.token)).toMatchObject({ count: 10, available: 2 });
    await expectLedgerConsistent(s);

    const tooMany = await modify(u.token, { no: placed.no, count: 11 });
    expect(tooMany.body).toMatchObject({ msg: 'no', data: 'errors.insufficientShares' });
    expect(await available(u.token)).toMatchObject({ available: 2 });

    await modify(u.token, { no: placed.no, count: 3 });
    expect(await available(u.token)).toMatchObject({ available: 7 });
    await expectLedgerConsistent(s);

    const cancelled = await s.call('orderCancel', {
      token: u.token,
      body: { no: placed.no },
      headers: idem(),
    });
    expect(cancelled.body.data).toMatchObject({ status: 2, count: 3 });
    expect(await available(u.token)).toMatchObject({ available: 10 });
    const again = await modify(u.token, { no: placed.no, count: 2 });
    expect(again.body).toMatchObject({ msg: 'no', data: 'errors.notPending' });
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)(
    'stops: trigger and limit under placement rules, SL-M limit follows its trigger',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      const sl = (await order('dealBuy', u.token, { count: 2, price: 2620, order_type: 'sl', trigger: 2600 }))
        .body.data;
      const moved = await modify(u.token, { no: sl.no, trigger: 2650, price: 2660 });
      expect(moved.body.data).toMatchObject({ trigger_price: 2650, limit_price: 2660, value: '5320.00' });
      expect(await balanceOf(s, u.id)).toBe(RICH - held(moved.body.data));

      const cases: Array<[Record<string, unknown>, string]> = [
        [{ trigger: 2400 }, 'errors.triggerSide'],
        [{ price: 2600 }, 'errors.triggerLimit'],
        [{ trigger: 4000, price: 4000 }, 'errors.limitOutsideBand'],
        [{ count: 101 }, 'errors.quantityRange'],
        [{}, 'errors.invalidInput'],
      ];
      for (const [body, error] of cases) {
        const res = await modify(u.token, { no: sl.no, ...body });
        expect(res.body, JSON.stringify(body)).toMatchObject({ msg: 'no', data: error });
      }
      expect(await balanceOf(s, u.id)).toBe(RICH - held(moved.body.data));

      const slm = (
        await order('dealBuy', u.token, { count: 3, price: 2500, order_type: 'slm', trigger: 2550 })
      ).body.data;
      const slmMoved = await modify(u.token, { no: slm.no, trigger: 2600 });
      // The market within 1 % of the new trigger: 2,626.
      expect(slmMoved.body.data).toMatchObject({
        trigger_price: 2600,
        limit_price: 2626,
        value: '7878.00',
      });
      const slmPrice = await modify(u.token, { no: slm.no, price: 2700 });
      expect(slmPrice.body).toMatchObject({ msg: 'no', data: 'errors.slmNoLimit' });

      // A plain limit has no trigger to move.
      const limit = (await order('dealBuy', u.token, { count: 1, price: 2400 })).body.data;
      const noStop = await modify(u.token, { no: limit.no, trigger: 2450 });
      expect(noStop.body).toMatchObject({ msg: 'no', data: 'errors.notStop' });
      expect(await balanceOf(s, u.id)).toBe(
        RICH - held(moved.body.data) - held(slmMoved.body.data) - held(limit),
      );
      await expectLedgerConsistent(s);

      // Triggered (rests beyond its limit): its trigger is history, its limit and quantity are not.
      m.pin(SYMBOL, 2700);
      await match();
      const fixed = await modify(u.token, { no: sl.no, trigger: 2690 });
      expect(fixed.body).toMatchObject({ msg: 'no', data: 'errors.alreadyTriggered' });
      const raised = await modify(u.token, { no: sl.no, price: 2710 });
      expect(raised.body.data).toMatchObject({ limit_price: 2710, status: 0 });
      await match();
      const rows = (await s.call('orderList', { token: u.token, query: { tag: SYMBOL } })).body.data.rows;
      expect(rows.find((r: { no: string }) => r.no === sl.no)).toMatchObject({ status: 1, price: 2700 });
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)("another user's order is not found; malformed input is a 400", async () => {
    m.pin(SYMBOL, 2500);
    const owner = await trader();
    const other = await trader();
    const placed = (await order('dealBuy', owner.token, { count: 1, price: 2400 })).body.data;
    const theirs = await modify(other.token, { no: placed.no, count: 50 });
    expect(theirs.body).toMatchObject({ msg: 'no', data: 'errors.notFound' });
    for (const body of [
      { no: placed.no, count: 0 },
      { no: placed.no, count: 1.5 },
      { no: placed.no, price: -1 },
      { no: placed.no, trigger: 'x' },
      { no: '', count: 2 },
      { no: placed.no, count: 2, extra: 1 },
    ]) {
      const res = await modify(owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const rows = (await s.call('orderList', { token: owner.token, query: { tag: SYMBOL } })).body.data.rows;
    expect(rows[0]).toMatchObject({ no: placed.no, count: 1 });
    await expectLedgerConsistent(s);
  });
});
