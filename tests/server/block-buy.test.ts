import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { stableJson } from '#shared/contract/define';
import { contract } from '#shared/contract/index';
import { feeMinor, PRICE_SCALE, priceToTicks, tradeValueMinor } from '#shared/money';
import { nextSession } from '../../server/market/hours';
import { insertOrder, orderNo } from '../../server/trading/order-rows';
import { payBuy } from '../../server/trading/postings';
import { auditLedger } from '../../server/wallet/audit';
import { blockServer } from '../support/block';
import { RICH } from '../support/orders';
import { DIALECTS, type TestServer } from '../support/server';
import { balanceOf, credit, idem, ledgerOf } from '../support/trading';

/**
 * Block trading and QIP: the items on offer, buys at the block price with a stock buy's itemised
 * charges (a USD lot converted first) and their contract note, refusals — kept as failed orders once the lot is identified —, the
 * transaction password, Idempotency-Key replays, and the audit of a block order's figures.
 * Lot sales: block-lots.test.ts; finite supply: block-supply.test.ts. Setup: support/block.ts.
 */
const BUY = contract.dealBuy.path;

describe.each(DIALECTS)('block trading and QIP buys on $name', ({ name, enabled }) => {
  const t = blockServer(name, enabled);
  const { buyer, buy: blockBuy, relianceBulk, qipBuy } = t;
  let s: TestServer;
  let bulkIn: number;
  let bulkUs: number;
  let qip: number;
  let closed: number;
  beforeAll(() => {
    s = t.s;
    ({ bulkIn, bulkUs, qip, closed } = t.items);
  });

  describe.skipIf(!enabled)('list', () => {
    it('lists items on offer by mold with the market price beside the block price, searchable by code', async () => {
      const u = await buyer(0);
      const bulk = await s.call('blockList', { token: u.token, body: { mold: 'bulk' } });
      const ids = bulk.body.data.rows.map((r: { id: number }) => r.id);
      expect(ids).toContain(bulkIn);
      expect(ids).toContain(bulkUs);
      expect(ids).not.toContain(qip);
      expect(ids).not.toContain(closed);
      expect(bulk.body.data.rows.find((r: { id: number }) => r.id === bulkIn)).toMatchObject({
        tag: 'RELIANCE.NS',
        name: 'Reliance Industries',
        price: 2412.37,
        market_price: 2500,
        count: 100,
        type: 'IN',
        mold: 'bulk',
      });
      const found = await s.call('blockList', { token: u.token, body: { mold: 'bulk', code: ' reliance ' } });
      // The seeded catalogue may offer RELIANCE too: every hit is RELIANCE, and ours is among them.
      expect(found.body.data.rows.map((r: { id: number }) => r.id)).toContain(bulkIn);
      expect(found.body.data.rows.every((r: { tag: string }) => r.tag === 'RELIANCE.NS')).toBe(true);
      const qips = await s.call('blockList', { token: u.token, body: { mold: 'finalize' } });
      expect(qips.body.data.rows.map((r: { id: number }) => r.id)).toContain(qip);
      const wild = await s.call('blockList', { token: u.token, body: { mold: 'bulk', code: '%' } });
      expect(wild.body.data.rows.length).toBeGreaterThanOrEqual(2);
    });

    it('rejects an unknown mold', async () => {
      const u = await buyer(0);
      const res = await s.call('blockList', { token: u.token, body: { mold: 'ipo' } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });

  describe.skipIf(!enabled)('buy', () => {
    it('buys at the block price with a stock buy’s itemised charges, exact to the paisa', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, {
        tag: 'RELIANCE.NS',
        count: 137,
        price: 2412.37,
        mold: 'bulk',
        id: bulkIn,
        stock_password: u.code,
      });
      // 2412.37 × 137 = 330,494.69; charges (delivery, config defaults): brokerage 20.00 (capped),
      // STT 0.1 % 330.49, exchange 9.82, SEBI 0.33, stamp 0.015 % 49.57, GST 18 % of 30.15 = 5.43
      // → 415.64; paid 330,910.33.
      expect(res.body.data).toMatchObject({
        mold: 'bulk',
        state: 'buy',
        status: 1,
        count: 137,
        price: 2412.37,
        fee: '415.64',
        value: '330494.69',
        price_all: '330910.33',
        // Locked in until the next session opens (BLOCK_LOCKIN's default).
        sellable: false,
        unlock_at: nextSession('NSE', s.clock.now()).open,
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 33_091_033);
      const ledger = await ledgerOf(s, u.id);
      expect(ledger.slice(-2)).toMatchObject([
        { amount: -33_049_469, reason: 'buyStock' },
        { amount: -41_564, reason: 'transactionExpenses' },
      ]);
      // Its contract note itemises what was posted, as a stock fill's does.
      const note = await s.call('orderContract', { token: u.token, query: { no: res.body.data.no } });
      expect(note.body.data).toMatchObject({
        price: 2412.37,
        value: '330494.69',
        charges: {
          brokerage: '20.00',
          stt: '330.49',
          exchange: '9.82',
          sebi: '0.33',
          stamp: '49.57',
          gst: '5.43',
          total: '415.64',
        },
        net: '330910.33',
        exchange: 'NSE',
      });
      // The year's statement carries the lot's charges against its instrument, nothing realised yet.
      const st = (await s.call('portfolioStatement', { token: u.token })).body.data;
      expect(st.rows).toEqual([
        {
          symbol: 'RELIANCE.NS',
          name: expect.any(String),
          sold: 0,
          cost: '0.00',
          proceeds: '0.00',
          realised: '0.00',
          charges: '415.64',
          net: '-415.64',
        },
      ]);
    });

    it('charges a block buy exactly what a stock buy of the same instrument and value pays', async () => {
      const u = await buyer();
      const lot = await blockBuy(u.token, relianceBulk(u.code));
      expect(lot.body.msg).toBe('ok');
      // The review's figures for the same buy (orderQuote: the stock ticket's) are the lot's.
      const quote = await s.call('orderQuote', {
        token: u.token,
        query: { tag: 'RELIANCE.NS', side: 'buy', count: 100, price: 2412.37 },
      });
      const lotNote = await s.call('orderContract', { token: u.token, query: { no: lot.body.data.no } });
      expect(lotNote.body.data.charges).toEqual(quote.body.data.charges);
      expect(lotNote.body.data.net).toBe(quote.body.data.net);
      // A market stock buy of 100 at a quote of the block's price: the same charges, line by line.
      t.m.pin('RELIANCE.NS', 2412.37);
      try {
        const stock = await s.call('dealBuy', {
          token: u.token,
          body: { tag: 'RELIANCE.NS', count: 100, price: 2412.37, mold: 'stock', order_type: 'market' },
          headers: idem(),
        });
        expect(stock.body.data).toMatchObject({ status: 1, price: 2412.37 });
        const stockNote = await s.call('orderContract', {
          token: u.token,
          query: { no: stock.body.data.no },
        });
        expect(lotNote.body.data.charges).toEqual(stockNote.body.data.charges);
        expect(lotNote.body.data.value).toBe(stockNote.body.data.value);
        expect(lotNote.body.data.net).toBe(stockNote.body.data.net);
        expect(lot.body.data.price_all).toBe(stock.body.data.price_all);
        expect(lotNote.body.data.charges).toMatchObject({ stt: '241.24', stamp: '36.19', total: '309.76' });
      } finally {
        t.m.pin('RELIANCE.NS', 2500);
      }
    });

    it('gives no contract note for a failed block buy, nor for another user’s', async () => {
      const u = await buyer();
      const other = await buyer();
      const failed = await blockBuy(u.token, { ...relianceBulk(u.code), count: 99 });
      expect(failed.body.data).toBe('errors.belowMinimumQuantity');
      const [row] = (await s.call('dealList', { token: u.token, body: { mold: 'bulk' } })).body.data.rows;
      const note = await s.call('orderContract', { token: u.token, query: { no: row.no } });
      expect(note.body).toEqual({ msg: 'no', data: 'errors.notExecuted' });
      const bought = await blockBuy(u.token, relianceBulk(u.code));
      const theirs = await s.call('orderContract', {
        token: other.token,
        query: { no: bought.body.data.no },
      });
      expect(theirs.body).toEqual({ msg: 'no', data: 'errors.notFound' });
    });

    it('converts a US block at the live USD rate before its charges', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, {
        tag: 'AAPL',
        count: 51,
        price: 190.55,
        mold: 'bulk',
        id: bulkUs,
        stock_password: u.code,
      });
      // $190.55 × 51 × 88.5 = ₹860,047.425 → 860,047.43; a US stock pays brokerage 20.00 and its
      // GST 3.60, none of the Indian levies.
      const value = tradeValueMinor(1_905_500, 51, 885_000);
      expect(value).toBe(86_004_743);
      expect(res.body.data).toMatchObject({ type: 'US', fee: '23.60', price_all: '860071.03' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 86_007_103);
    });

    it('buys a QIP item with mold finalize', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, qipBuy(u.code));
      // 3,900 × 200 = 780,000.00; charges 948.86 (STT 780.00, stamp 117.00, …).
      expect(res.body.data).toMatchObject({ mold: 'finalize', price_all: '780948.86', fee: '948.86' });
      const deals = await s.call('dealList', { token: u.token, body: { mold: 'finalize' } });
      expect(deals.body.data.rows).toHaveLength(1);
      const bulk = await s.call('dealList', { token: u.token, body: { mold: 'bulk' } });
      expect(bulk.body.data.rows).toHaveLength(0);
    });

    it.each([
      ['no item id', { id: undefined }, 'errors.invalidInput'],
      ['an item of the other mold', { mold: 'finalize' }, 'errors.notFound'],
      ['a tag that is not the item’s', { tag: 'TCS.NS' }, 'errors.invalidInput'],
      ['no transaction password', { stock_password: undefined }, 'hint.tradePasswordInvalid'],
      ['a 5-digit transaction password', { stock_password: '12345' }, 'hint.tradePasswordInvalid'],
      ['a wrong transaction password', { stock_password: '000000' }, 'errors.fundPasswordWrong'],
    ])('refuses a buy with %s, moves nothing and records no order', async (_label, change, key) => {
      const u = await buyer();
      const body: Record<string, unknown> = {
        tag: 'RELIANCE.NS',
        count: 100,
        price: 2412.37,
        mold: 'bulk',
        id: bulkIn,
        stock_password: u.code,
        ...change,
      };
      if (body.id === -1) body.id = closed;
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await blockBuy(u.token, body);
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      const deals = await s.call('dealList', { token: u.token, body: { mold: 'bulk' } });
      expect(deals.body.data.rows).toHaveLength(0);
    });

    it.each([
      ['below the minimum quantity', { count: 99 }, 'errors.belowMinimumQuantity'],
      ['an item no longer on offer', { id: -1, tag: 'TCS.NS' }, 'errors.blockUnavailable'],
      ['a block price that changed', { price: 2000 }, 'errors.priceChanged'],
    ])(
      'a refused buy of a real lot (%s) is a failed order with its reason; no money moves',
      async (_label, change, key) => {
        const u = await buyer();
        const body: Record<string, unknown> = {
          tag: 'RELIANCE.NS',
          count: 100,
          price: 2412.37,
          mold: 'bulk',
          id: bulkIn,
          stock_password: u.code,
          ...change,
        };
        if (body.id === -1) body.id = closed;
        const res = await blockBuy(u.token, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ msg: 'no', data: key });
        expect(await balanceOf(s, u.id)).toBe(RICH);
        expect(await ledgerOf(s, u.id)).toHaveLength(1);
        const failed = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 2 } });
        expect(failed.body.data.rows).toHaveLength(1);
        expect(failed.body.data.rows[0]).toMatchObject({
          tag: body.tag,
          mold: 'bulk',
          state: 'buy',
          status: 2,
          count: body.count,
          price_all: '0.00',
          fee: '0.00',
          sellable: false,
          reason: key,
        });
        const all = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 0 } });
        expect(all.body.data.rows).toHaveLength(1);
        const success = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 1 } });
        expect(success.body.data.rows).toHaveLength(0);
        const qip = await s.call('dealList', { token: u.token, body: { mold: 'finalize' } });
        expect(qip.body.data.rows).toHaveLength(0);
        // Nothing to sell from a failed order.
        const sell = await s.call('dealSell', {
          token: u.token,
          body: { no: failed.body.data.rows[0].no },
          headers: idem(),
        });
        expect(sell.body).toEqual({ msg: 'no', data: 'errors.notSellable' });
      },
    );

    it('a QIP buy the balance cannot cover is a failed QIP order; a retry with the same key replays the refusal once', async () => {
      const u = await buyer(100_000);
      const headers = idem();
      const body = qipBuy(u.code);
      const first = await blockBuy(u.token, body, headers);
      expect(first.status).toBe(422);
      expect(first.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      const again = await blockBuy(u.token, body, headers);
      expect(again.status).toBe(422);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replay']).toBe('true');
      const other = await blockBuy(u.token, { ...body, count: 201 }, headers);
      expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });
      const failed = await s.call('dealList', { token: u.token, body: { mold: 'finalize', status: 2 } });
      expect(failed.body.data.rows).toHaveLength(1);
      expect(failed.body.data.rows[0]).toMatchObject({
        status: 2,
        reason: 'errors.insufficientFunds',
        count: 200,
      });
      expect(await balanceOf(s, u.id)).toBe(100_000);
      // After a top-up, a new key buys; the failed order stays beside the success.
      await credit(s, u.id, RICH);
      const bought = await blockBuy(u.token, body);
      expect(bought.body.data).toMatchObject({ status: 1, reason: null });
      const all = await s.call('dealList', { token: u.token, body: { mold: 'finalize' } });
      expect(all.body.data.rows.map((r: { status: number }) => r.status)).toEqual([1, 2]);
    });

    it('keeps the transaction password out of the stored idempotency record', async () => {
      const u = await buyer();
      const key = `secret-${u.id}-key`;
      const body = relianceBulk(u.code);
      expect((await blockBuy(u.token, body, { 'idempotency-key': key })).body.msg).toBe('ok');
      const row = await s.deps.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      const hash = (b: unknown) =>
        createHash('sha256')
          .update(`POST ${BUY} ${stableJson(b)}`)
          .digest('hex');
      const { stock_password: _secret, ...rest } = body;
      expect(row.request_hash).toBe(hash(rest));
      expect(row.request_hash).not.toBe(hash(body));
    });

    it('a visitor gets the logout answer, even with a malformed password', async () => {
      const res = await s.call('dealBuy', {
        body: { tag: 'RELIANCE.NS', count: 100, price: 1, mold: 'bulk', id: bulkIn, stock_password: 'x' },
        headers: idem(),
      });
      expect(res.status).toBe(401);
      expect(res.body.msg).toBe('logout');
    });

    it('needs a transaction password to be set first', async () => {
      const u = await s.signUp();
      await credit(s, u.id, RICH);
      const res = await blockBuy(u.token, {
        tag: 'RELIANCE.NS',
        count: 100,
        price: 2412.37,
        mold: 'bulk',
        id: bulkIn,
        stock_password: '123456',
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.fundPasswordNotSet' });
    });

    it('locks the transaction password after 5 wrong codes, even though each buy was refused', async () => {
      const u = await buyer();
      const body = { tag: 'RELIANCE.NS', count: 100, price: 2412.37, mold: 'bulk', id: bulkIn };
      const keys: string[] = [];
      for (let i = 0; i < 5; i++)
        keys.push((await blockBuy(u.token, { ...body, stock_password: '999999' })).body.data);
      expect(keys).toEqual([...Array(4).fill('errors.fundPasswordWrong'), 'errors.fundPasswordLocked']);
      const right = await blockBuy(u.token, { ...body, stock_password: u.code });
      expect(right.status).toBe(429);
      expect(right.body).toEqual({ msg: 'no', data: 'errors.fundPasswordLocked' });
      expect(await balanceOf(s, u.id)).toBe(RICH);
    });

    it('a buy the balance cannot cover (charges included) changes nothing', async () => {
      // 100 × 2412.37 = 241,237.00 is covered; its charges of 309.76 are not, by a paisa.
      const u = await buyer(24_123_700 + 30_975);
      const res = await blockBuy(u.token, relianceBulk(u.code));
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await balanceOf(s, u.id)).toBe(24_123_700 + 30_975);
      expect(await ledgerOf(s, u.id)).toHaveLength(1);
      const failed = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 2 } });
      expect(failed.body.data.rows.map((r: { reason: string }) => r.reason)).toEqual([
        'errors.insufficientFunds',
      ]);
    });

    it('replays the same key once and rejects it with another body', async () => {
      const u = await buyer();
      const headers = idem();
      const body = relianceBulk(u.code);
      const first = await blockBuy(u.token, body, headers);
      const again = await blockBuy(u.token, body, headers);
      expect(again.body).toEqual(first.body);
      const other = await blockBuy(u.token, { ...body, count: 101 }, headers);
      expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 24_154_676);
    });
  });

  describe.skipIf(!enabled)('audit', () => {
    it('finds a block or QIP order whose recorded price, rate, fee or charges are not what the ledger took', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, qipBuy(u.code));
      expect(res.body.msg).toBe('ok');
      const db = s.deps.database.db;
      const row = await db
        .selectFrom('orders')
        .select(['id', 'price', 'rate', 'fee', 'ch_stamp'])
        .where('no', '=', res.body.data.no)
        .executeTakeFirstOrThrow();
      const problems = async () => (await auditLedger(db)).problems;
      expect(await problems()).toEqual([]);
      for (const [column, changed] of [
        ['price', Number(row.price) - 100],
        ['rate', Number(row.rate) + 1],
        ['fee', Number(row.fee) + 1],
        ['ch_stamp', Number(row.ch_stamp) - 1],
      ] as const) {
        await db
          .updateTable('orders')
          .set({ [column]: changed })
          .where('id', '=', row.id)
          .execute();
        expect(await problems(), column).toEqual([
          expect.stringMatching(`order ${row.id} \\(user ${u.id}\\): (value|fee) `),
        ]);
        await db
          .updateTable('orders')
          .set({ [column]: row[column] })
          .where('id', '=', row.id)
          .execute();
      }
      expect(await problems()).toEqual([]);
    });

    it('keeps a block buy of before itemised charges exact by its flat 0.03 % fee, without a contract note', async () => {
      const u = await buyer();
      const db = s.deps.database.db;
      // A lot as the server bought it before block buys paid a stock buy's charges: value and the flat fee, no charge columns.
      const now = s.clock.now();
      const value = tradeValueMinor(priceToTicks(2412.37), 100, PRICE_SCALE);
      const fee = feeMinor(value, 3);
      const no = orderNo('bulk', now);
      await db.transaction().execute(async (trx) => {
        const order = await insertOrder(trx, {
          no,
          user_id: u.id,
          kind: 'bulk',
          symbol: 'RELIANCE.NS',
          market: 'NSE',
          name: 'Reliance Industries',
          side: 'buy',
          status: 1,
          qty: 100,
          limit_price: null,
          price: priceToTicks(2412.37),
          sell_price: null,
          profit: null,
          fee,
          price_all: value + fee,
          rate: PRICE_SCALE,
          ref_id: bulkIn,
          created_at: now,
          updated_at: now,
          expires_at: null,
          region: 'IN',
        });
        await trx
          .updateTable('block_items')
          .set({ sold: sql<number>`sold + 100` })
          .where('id', '=', bulkIn)
          .execute();
        await payBuy(trx, { userId: u.id, orderId: order.id, at: now }, value, fee);
      });
      expect((await auditLedger(db)).problems).toEqual([]);
      const note = await s.call('orderContract', { token: u.token, query: { no } });
      expect(note.body).toEqual({ msg: 'no', data: 'errors.noContractNote' });
      // Any other fee with no charge columns is no legacy row: the audit names it.
      await db
        .updateTable('orders')
        .set({ fee: fee + 1, price_all: value + fee + 1 })
        .where('no', '=', no)
        .execute();
      expect((await auditLedger(db)).problems).toContainEqual(
        expect.stringMatching(/fee \d+ ≠ its charges 0/),
      );
      await db
        .updateTable('orders')
        .set({ fee, price_all: value + fee })
        .where('no', '=', no)
        .execute();
    });
  });
});
