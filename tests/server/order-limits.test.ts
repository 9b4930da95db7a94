import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchPendingOrders } from '../../server/trading/matching';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertIpo,
  type MarketControl,
  NO_CHARGES_ENV,
} from '../support/trading';

/**
 * Holes 5 and 6: a limit buy at 1 % of the price rested and reserved almost nothing, and
 * 300 of them rested; the IPO maximum held per application, so a user could apply again and again.
 */

const SYMBOL = 'RELIANCE.NS';
const RICH = 1_000_000_000;

describe.each(DIALECTS)('open orders and IPO maximum on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    // Round reservations without charges (tests/server/charges covers them).
    s = await startTestServer(name, { MAX_OPEN_ORDERS: '5', ORDER_JOB_BATCH: '2', ...NO_CHARGES_ENV });
    m = controlMarket(s);
    m.pin(SYMBOL, 2500);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  async function rich() {
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    return u;
  }
  const buy = (token: string, price: number, count = 1) =>
    s.call('dealBuy', { token, headers: idem(), body: { tag: SYMBOL, count, price, mold: 'stock' } });
  const openOf = async (userId: number) =>
    Number(
      (
        await s.deps.database.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('status', '=', 0)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.runIf(enabled)('a limit far from the quote is refused and reserves nothing', async () => {
    const u = await rich();
    const far = await buy(u.token, 25);
    expect(far.status).toBe(400);
    expect(far.body).toEqual({ msg: 'no', data: 'errors.limitOutsideBand', params: { pct: 10 } });
    expect(await balanceOf(s, u.id)).toBe(RICH);
    expect(await openOf(u.id)).toBe(0);
    // Inside the band (5 % under) it rests, with its money reserved.
    const near = await buy(u.token, 2375);
    expect(near.body.data).toMatchObject({ status: 0, price_all: '2375.00' });
    expect(await balanceOf(s, u.id)).toBe(RICH - 237_500);
  });

  it.runIf(enabled)(
    'at most MAX_OPEN_ORDERS rest per user, even when sent at once; sells count too',
    async () => {
      const u = await rich();
      const answers = await Promise.all(Array.from({ length: 20 }, () => buy(u.token, 2375)));
      expect(answers.filter((a) => a.body.data?.status === 0)).toHaveLength(5);
      const refused = answers.filter((a) => a.body.data === 'errors.tooManyOpenOrders');
      expect(refused).toHaveLength(15);
      expect(refused[0]!.body).toMatchObject({ params: { max: 5 } });
      expect(await openOf(u.id)).toBe(5);
      expect(await balanceOf(s, u.id)).toBe(RICH - 5 * 237_500);
      // A buy that fills at once is not an open order: still allowed.
      expect((await buy(u.token, 2500)).body.data).toMatchObject({ status: 1 });
      const restingSell = await s.call('dealSell', {
        token: u.token,
        headers: idem(),
        body: { tag: SYMBOL, count: 1, price: 2625, mold: 'stock' },
      });
      expect(restingSell.body.data).toBe('errors.tooManyOpenOrders');
    },
  );

  it.runIf(enabled)('the match job walks every pending order in batches', async () => {
    const u = await rich();
    for (let i = 0; i < 5; i++) expect((await buy(u.token, 2375)).body.data.status).toBe(0);
    m.pin(SYMBOL, 2370);
    try {
      const result = await matchPendingOrders(s.deps);
      expect(result.filled).toBeGreaterThanOrEqual(5);
      expect(await openOf(u.id)).toBe(0);
    } finally {
      m.pin(SYMBOL, 2500);
    }
  });

  it.runIf(enabled)('the IPO maximum counts every open and allotted application of the user', async () => {
    const ipo = await insertIpo(s, { issue_price: 100, min: 100, max: 1000 });
    const u = await rich();
    const apply = (count: number) =>
      s.call('ipoBuy', {
        token: u.token,
        headers: idem(),
        body: { id: ipo.id, tag: ipo.symbol, count, price: 100 },
      });
    expect((await apply(600)).body.msg).toBe('ok');
    const before = await balanceOf(s, u.id);
    const over = await apply(600);
    expect(over.body).toEqual({ msg: 'no', data: 'errors.ipoUserMax', params: { max: 1000, left: 400 } });
    expect(await balanceOf(s, u.id)).toBe(before);
    expect((await apply(400)).body.msg).toBe('ok');
    expect((await apply(100)).body.data).toBe('errors.ipoUserMax');

    // Sent at once: no more than the maximum gets through.
    const other = await rich();
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        s.call('ipoBuy', {
          token: other.token,
          headers: idem(),
          body: { id: ipo.id, tag: ipo.symbol, count: 300, price: 100 },
        }),
      ),
    );
    expect(racing.filter((a) => a.body.msg === 'ok')).toHaveLength(3);
    expect(racing.filter((a) => a.body.data === 'errors.ipoUserMax')).toHaveLength(3);
  });
});
