import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '#shared/money';
import { loadConfig } from '../../server/config';
import { JOBS, runJob } from '../../server/jobs/index';
import { computeCharges } from '../../server/trading/charges';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  ledgerOf,
  type MarketControl,
  toSession,
} from '../support/trading';

/**
 * The charges model against the worked example of the README ("Charges"), computed by
 * hand from the default Indian equity-delivery schedule:
 *
 * Buy 10 RELIANCE.NS at ₹2,500.00 — value ₹25,000.00 (2,500,000 paise)
 *   brokerage   min(₹20, 0.03 % × 25,000 = ₹7.50)              750
 *   STT         0.1 % × 25,000 = ₹25.00                        2,500
 *   exchange    0.00297 % × 25,000 = ₹0.7425 → ₹0.74             74
 *   SEBI        ₹10 / crore × 25,000 = ₹0.025 → ₹0.03 (HALF_UP)    3
 *   stamp       0.015 % × 25,000 = ₹3.75                         375
 *   GST         18 % × (750 + 74 + 3 = 827) = 148.86 → ₹1.49     149
 *   total                                          ₹38.51    3,851 → debit ₹25,038.51
 *
 * Sell the 10 at ₹2,600.00 — value ₹26,000.00
 *   brokerage ₹7.80 (780), STT ₹26.00 (2,600), exchange ₹0.7722 → ₹0.77 (77),
 *   SEBI ₹0.026 → ₹0.03 (3), stamp 0 (buys only), GST 18 % × 860 = 154.8 → ₹1.55 (155)
 *   total ₹36.15 (3,615) → credit ₹25,963.85
 *
 * Buy 100 at ₹2,500.00 — value ₹2,50,000: 0.03 % is ₹75, so brokerage is capped at ₹20.
 *
 * Intraday: no STT on the buy, stamp duty 0.003 %; STT 0.025 % on the sell, no stamp.
 * Buy 10 at ₹2,500.00 intraday — brokerage 750, STT 0, exchange 74, SEBI 3, stamp 0.003 % × 25,000
 *   = ₹0.75 (75), GST 149: total ₹10.51 (1,051) → debit ₹25,010.51
 * Sell the 10 at ₹2,600.00 intraday — brokerage 780, STT 0.025 % × 26,000 = ₹6.50 (650),
 *   exchange 77, SEBI 3, stamp 0, GST 155: total ₹16.65 (1,665) → credit ₹25,983.35
 */
const RICH = 100_000_000;
const schedule = loadConfig({}).charges;

describe('charges model (worked example)', () => {
  it('computes the buy of the worked example', () => {
    expect(computeCharges(schedule, 'buy', 2_500_000, true)).toEqual({
      brokerage: 750,
      stt: 2500,
      exchange: 74,
      sebi: 3,
      stamp: 375,
      gst: 149,
      total: 3851,
    });
  });

  it('computes the sell of the worked example: no stamp duty', () => {
    expect(computeCharges(schedule, 'sell', 2_600_000, true)).toEqual({
      brokerage: 780,
      stt: 2600,
      exchange: 77,
      sebi: 3,
      stamp: 0,
      gst: 155,
      total: 3615,
    });
  });

  it('charges an intraday buy no STT and the intraday stamp duty', () => {
    expect(computeCharges(schedule, 'buy', 2_500_000, true, 'intraday')).toEqual({
      brokerage: 750,
      stt: 0,
      exchange: 74,
      sebi: 3,
      stamp: 75,
      gst: 149,
      total: 1051,
    });
  });

  it('charges an intraday sell the intraday STT and no stamp duty', () => {
    expect(computeCharges(schedule, 'sell', 2_600_000, true, 'intraday')).toEqual({
      brokerage: 780,
      stt: 650,
      exchange: 77,
      sebi: 3,
      stamp: 0,
      gst: 155,
      total: 1665,
    });
  });

  it('takes the intraday rates from the environment', () => {
    const own = loadConfig({
      CHARGES_STT_INTRADAY_PER_CRORE: '5000',
      CHARGES_STAMP_INTRADAY_PER_CRORE: '0',
    }).charges;
    expect(computeCharges(own, 'sell', 2_600_000, true, 'intraday').stt).toBe(1300);
    expect(computeCharges(own, 'buy', 2_500_000, true, 'intraday').stamp).toBe(0);
    // Delivery keeps its own.
    expect(computeCharges(own, 'buy', 2_500_000, true, 'delivery')).toMatchObject({ stt: 2500, stamp: 375 });
  });

  it('caps brokerage at ₹20 per order', () => {
    const c = computeCharges(schedule, 'buy', 25_000_000, true);
    expect(c.brokerage).toBe(2000);
    // GST 18 % × (2,000 + 742.5 → 743 + 25) = 498.24 → 498
    expect(c).toMatchObject({ stt: 25_000, exchange: 743, sebi: 25, stamp: 3750, gst: 498 });
  });

  it('charges brokerage and its GST only where the Indian levies do not apply', () => {
    expect(computeCharges(schedule, 'buy', 2_500_000, false)).toEqual({
      brokerage: 750,
      stt: 0,
      exchange: 0,
      sebi: 0,
      stamp: 0,
      gst: 135,
      total: 885,
    });
  });

  it('charges nothing on nothing, and never more than the value', () => {
    expect(computeCharges(schedule, 'sell', 0, true).total).toBe(0);
    for (const value of [1, 7, 99, 500, 12_345, 987_654_321]) {
      expect(computeCharges(schedule, 'sell', value, true).total).toBeLessThan(value);
    }
  });
});

describe.each(DIALECTS)('charges on orders on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LIMIT_BAND_BPS: '5000' });
    m = controlMarket(s);
    m.pin('RELIANCE.NS', 2500);
    m.pin('AAPL', 200);
    // The USD rate is the live USDINR quote (trading/fx.ts): 20 keeps the figures round.
    m.pin('USDINR=X', 20);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  const trade = (name: 'dealBuy' | 'dealSell', token: string, body: Record<string, unknown>) =>
    s.call(name, { token, body: { mold: 'stock', ...body }, headers: idem() });

  it.runIf(enabled)(
    'a filled buy and sell post value and charges apart, with a contract note each',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      const quote = await s.call('orderQuote', {
        token: u.token,
        query: { tag: 'RELIANCE.NS', side: 'buy', count: 10 },
      });
      expect(quote.body.data).toMatchObject({
        price: 2500,
        value: '25000.00',
        charges: {
          brokerage: '7.50',
          stt: '25.00',
          exchange: '0.74',
          sebi: '0.03',
          stamp: '3.75',
          gst: '1.49',
          total: '38.51',
        },
        net: '25038.51',
        available: '1000000.00',
        held: 0,
      });
      // The largest quantity whose value and charges 1,000,000.00 covers: 399 cost 998,706.87.
      expect(quote.body.data.affordable).toBe(399);

      const bought = await trade('dealBuy', u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      // Price_all is what was debited (value + charges), beside the value.
      expect(bought.body.data).toMatchObject({
        status: 1,
        fee: '38.51',
        value: '25000.00',
        price_all: '25038.51',
      });
      expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
        { amount: -2_500_000, reason: 'buyStock' },
        { amount: -3851, reason: 'transactionExpenses' },
      ]);
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_503_851);
      const note = await s.call('orderContract', { token: u.token, query: { no: bought.body.data.no } });
      expect(note.body.data).toMatchObject({
        price: 2500,
        value: '25000.00',
        charges: { total: '38.51', stamp: '3.75' },
        net: '25038.51',
        exchange: 'NSE',
        currency: 'INR',
      });
      // Cost basis is gross of charges (avg price 2,500).
      const [held] = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
      expect(held).toMatchObject({ cost: '25000.00', avg_price: 2500 });

      m.pin('RELIANCE.NS', 2600);
      try {
        const sold = await trade('dealSell', u.token, { tag: 'RELIANCE.NS', count: 10, price: 2600 });
        expect(sold.body.data).toMatchObject({
          status: 1,
          fee: '36.15',
          value: '26000.00',
          price_all: '25963.85',
          profit: '1000.00',
        });
        expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
          { amount: 2_600_000, reason: 'sellStock' },
          { amount: -3615, reason: 'transactionExpenses' },
        ]);
        expect(await balanceOf(s, u.id)).toBe(RICH - 2_503_851 + 2_596_385);
        const sellNote = await s.call('orderContract', { token: u.token, query: { no: sold.body.data.no } });
        expect(sellNote.body.data).toMatchObject({
          price: 2600,
          value: '26000.00',
          charges: { stamp: '0.00', gst: '1.55', total: '36.15' },
          net: '25963.85',
        });
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    },
  );

  it.runIf(enabled)(
    'a resting buy reserves value and charges at its limit and keeps only what the fill cost',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      // 2,400 is 4 % under the quote: it rests. Reserved: 24,000 + charges of 24,000.
      const placed = await trade('dealBuy', u.token, { tag: 'RELIANCE.NS', count: 10, price: 2400 });
      const atLimit = computeCharges(schedule, 'buy', 2_400_000, true).total;
      expect(placed.body.data).toMatchObject({ status: 0, value: '24000.00' });
      expect(toMinor(placed.body.data.fee)).toBe(atLimit);
      // A pending buy's price_all is what it holds: value and charges at its limit.
      expect(toMinor(placed.body.data.price_all)).toBe(2_400_000 + atLimit);
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_400_000 - atLimit);
      const early = await s.call('orderContract', { token: u.token, query: { no: placed.body.data.no } });
      expect(early.body).toMatchObject({ msg: 'no', data: 'errors.notExecuted' });

      m.pin('RELIANCE.NS', 2350);
      try {
        await runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);
        const atFill = computeCharges(schedule, 'buy', 2_350_000, true).total;
        expect(await balanceOf(s, u.id)).toBe(RICH - 2_350_000 - atFill);
        const ledger = await ledgerOf(s, u.id);
        expect(ledger.slice(-3)).toMatchObject([
          { amount: -(2_400_000 + atLimit), reason: 'buyStock' },
          { amount: 2_400_000 + atLimit - 2_350_000, reason: 'orderRefund' },
          { amount: -atFill, reason: 'transactionExpenses' },
        ]);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    },
  );

  it.runIf(enabled)(
    'a cancelled resting buy gets back exactly what it reserved, charges included',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      const placed = await trade('dealBuy', u.token, { tag: 'RELIANCE.NS', count: 3, price: 2400 });
      await s.call('orderCancel', { token: u.token, body: { no: placed.body.data.no }, headers: idem() });
      expect(await balanceOf(s, u.id)).toBe(RICH);
    },
  );

  it.runIf(enabled)(
    'an intraday round trip pays intraday charges: quoted, posted and on each contract note',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      const quote = await s.call('orderQuote', {
        token: u.token,
        query: { tag: 'RELIANCE.NS', side: 'buy', count: 10, product: 'intraday' },
      });
      expect(quote.body.data).toMatchObject({
        value: '25000.00',
        charges: { stt: '0.00', stamp: '0.75', gst: '1.49', total: '10.51' },
        net: '25010.51',
      });
      const bought = await trade('dealBuy', u.token, {
        tag: 'RELIANCE.NS',
        count: 10,
        price: 2500,
        product: 'intraday',
      });
      expect(bought.body.data).toMatchObject({
        status: 1,
        product: 'intraday',
        fee: '10.51',
        price_all: '25010.51',
      });
      expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
        { amount: -2_500_000, reason: 'buyStock' },
        { amount: -1051, reason: 'transactionExpenses' },
      ]);
      const buyNote = await s.call('orderContract', { token: u.token, query: { no: bought.body.data.no } });
      expect(buyNote.body.data.charges).toMatchObject({ stt: '0.00', stamp: '0.75', total: '10.51' });

      m.pin('RELIANCE.NS', 2600);
      try {
        const sellQuote = await s.call('orderQuote', {
          token: u.token,
          query: { tag: 'RELIANCE.NS', side: 'sell', count: 10, product: 'intraday' },
        });
        expect(sellQuote.body.data).toMatchObject({
          charges: { stt: '6.50', stamp: '0.00', total: '16.65' },
          net: '25983.35',
        });
        const sold = await trade('dealSell', u.token, {
          tag: 'RELIANCE.NS',
          count: 10,
          price: 2600,
          product: 'intraday',
        });
        expect(sold.body.data).toMatchObject({
          status: 1,
          fee: '16.65',
          price_all: '25983.35',
          profit: '1000.00',
        });
        expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
          { amount: 2_600_000, reason: 'sellStock' },
          { amount: -1665, reason: 'transactionExpenses' },
        ]);
        const sellNote = await s.call('orderContract', { token: u.token, query: { no: sold.body.data.no } });
        expect(sellNote.body.data.charges).toMatchObject({ stt: '6.50', stamp: '0.00', total: '16.65' });
        expect(await balanceOf(s, u.id)).toBe(RICH - 2_501_051 + 2_598_335);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    },
  );

  it.runIf(enabled)(
    'an intraday sell closes only an open intraday position: delivery shares keep delivery STT',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      await trade('dealBuy', u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      const balance = await balanceOf(s, u.id);
      // Delivery shares sold as intraday would pay 0.025 % STT instead of 0.1 %: refused, at once and resting.
      for (const price of [2500, 2600]) {
        const refused = await trade('dealSell', u.token, {
          tag: 'RELIANCE.NS',
          count: 1,
          price,
          order_type: price === 2500 ? 'market' : 'limit',
          product: 'intraday',
        });
        expect(refused.body).toMatchObject({ msg: 'no', data: 'errors.noIntradayPosition' });
        expect(refused.status).toBe(400);
      }
      expect(await balanceOf(s, u.id)).toBe(balance);
      // Two bought intraday: two may be sold intraday (one resting, one at once), not a third.
      await trade('dealBuy', u.token, { tag: 'RELIANCE.NS', count: 2, price: 2500, product: 'intraday' });
      const resting = await trade('dealSell', u.token, {
        tag: 'RELIANCE.NS',
        count: 1,
        price: 2600,
        order_type: 'limit',
        product: 'intraday',
      });
      expect(resting.body.data).toMatchObject({ status: 0, product: 'intraday' });
      const grow = await s.call('orderModify', {
        token: u.token,
        body: { no: resting.body.data.no, count: 3 },
        headers: idem(),
      });
      expect(grow.body).toMatchObject({ msg: 'no', data: 'errors.noIntradayPosition' });
      const now = await trade('dealSell', u.token, {
        tag: 'RELIANCE.NS',
        count: 1,
        price: 2500,
        product: 'intraday',
      });
      expect(now.body.data).toMatchObject({ status: 1 });
      const third = await trade('dealSell', u.token, {
        tag: 'RELIANCE.NS',
        count: 1,
        price: 2500,
        product: 'intraday',
      });
      expect(third.body.data).toBe('errors.noIntradayPosition');
      await s.call('orderCancel', { token: u.token, body: { no: resting.body.data.no }, headers: idem() });
    },
  );

  it.runIf(enabled)('US stocks pay brokerage and GST only', async () => {
    toSession(s, 'AAPL');
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    // 5 × $200 × 20 = ₹20,000: brokerage ₹6.00, GST ₹1.08.
    const res = await trade('dealBuy', u.token, { tag: 'AAPL', count: 5, price: 200 });
    expect(res.body.data).toMatchObject({ fee: '7.08', value: '20000.00', price_all: '20007.08' });
    const note = await s.call('orderContract', { token: u.token, query: { no: res.body.data.no } });
    expect(note.body.data.charges).toMatchObject({ brokerage: '6.00', stt: '0.00', gst: '1.08' });
  });

  it.runIf(enabled)(
    'refuses a quote for an unknown symbol, and a contract note of an order not theirs',
    async () => {
      const u = await s.signUp();
      const bad = await s.call('orderQuote', {
        token: u.token,
        query: { tag: 'NOPE.NS', side: 'buy', count: 1 },
      });
      expect(bad.status).toBe(404);
      const missing = await s.call('orderContract', { token: u.token, query: { no: 'S000' } });
      expect(missing.status).toBe(404);
    },
  );
});
