import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableJson } from '#shared/contract/define';
import { contract } from '#shared/contract/index';
import { feeMinor, tradeValueMinor } from '#shared/money';
import { BLOCK_FEE_BPS } from '#shared/rules';
import { nextSession } from '../../server/market/hours';
import { auditLedger } from '../../server/wallet/audit';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  ledgerOf,
  type MarketControl,
  setTradePassword,
} from '../support/trading';

const BUY = contract.dealBuy.path;
const RICH = 100_000_000;

describe.each(DIALECTS)('block trading and QIP on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  let bulkIn: number;
  let bulkUs: number;
  let qip: number;
  let closed: number;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    m = controlMarket(s);
    m.pin('RELIANCE.NS', 2500);
    m.pin('AAPL', 200);
    // US lots convert at the live USDINR quote (trading/fx.ts; tests/server/fx-rate covers the rest).
    m.pin('USDINR=X', 88.5);
    m.pin('TCS.NS', 4000);
    bulkIn = await insertBlockItem(s, { tag: 'RELIANCE.NS', price: 2412.37, count: 100 });
    bulkUs = await insertBlockItem(s, { tag: 'AAPL', price: 190.55, count: 50, type: 'US' });
    qip = await insertBlockItem(s, { tag: 'TCS.NS', price: 3900, mold: 'finalize', count: 200 });
    closed = await insertBlockItem(s, { tag: 'TCS.NS', price: 3800, status: 0 });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  async function buyer(minor = RICH) {
    const u = await s.signUp();
    if (minor > 0) await credit(s, u.id, minor);
    const code = await setTradePassword(s, u.id);
    return { ...u, code };
  }
  const blockBuy = (token: string, body: Record<string, unknown>, headers = idem()) =>
    s.call('dealBuy', { token, body, headers });
  /** The whole of each item on offer at its block price, with the buyer's transaction code. */
  const relianceBulk = (code: string) => ({
    tag: 'RELIANCE.NS',
    count: 100,
    price: 2412.37,
    mold: 'bulk',
    id: bulkIn,
    stock_password: code,
  });
  const aaplBulk = (code: string) => ({
    tag: 'AAPL',
    count: 50,
    price: 190.55,
    mold: 'bulk',
    id: bulkUs,
    stock_password: code,
  });
  const qipBuy = (code: string) => ({
    tag: 'TCS.NS',
    count: 200,
    price: 3900,
    mold: 'finalize',
    id: qip,
    stock_password: code,
  });
  /** Moves the server's clock to the moment a bought lot unlocks (clocks only move forward). */
  async function passLockIn(lot: { unlock_at: number | null }) {
    expect(lot.unlock_at).toBeGreaterThan(s.clock.now());
    s.clock.advance(lot.unlock_at! - s.clock.now());
  }

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
    it('buys at the block price with the 0.03 % fee, exact to the paisa', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, {
        tag: 'RELIANCE.NS',
        count: 137,
        price: 2412.37,
        mold: 'bulk',
        id: bulkIn,
        stock_password: u.code,
      });
      // 2412.37 × 137 = 330,494.69; × 1.0003 = 330,593.838… → 330,593.84
      expect(res.body.data).toMatchObject({
        mold: 'bulk',
        state: 'buy',
        status: 1,
        count: 137,
        price: 2412.37,
        fee: '99.15',
        price_all: '330593.84',
        // Locked in until the next session opens (BLOCK_LOCKIN's default).
        sellable: false,
        unlock_at: nextSession('NSE', s.clock.now()).open,
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 33_059_384);
      const ledger = await ledgerOf(s, u.id);
      expect(ledger.slice(-2)).toMatchObject([
        { amount: -33_049_469, reason: 'buyStock' },
        { amount: -9_915, reason: 'transactionExpenses' },
      ]);
    });

    it('converts a US block at the live USD rate before the fee', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, {
        tag: 'AAPL',
        count: 51,
        price: 190.55,
        mold: 'bulk',
        id: bulkUs,
        stock_password: u.code,
      });
      // $190.55 × 51 × 88.5 = ₹860,047.425 → 860,047.43; fee 258.014… → 258.01
      const value = tradeValueMinor(1_905_500, 51, 885_000);
      const fee = feeMinor(value, BLOCK_FEE_BPS);
      expect(value).toBe(86_004_743);
      expect(res.body.data).toMatchObject({ type: 'US', price_all: '860305.44' });
      expect(value + fee).toBe(86_030_544);
      expect(await balanceOf(s, u.id)).toBe(RICH - 86_030_544);
    });

    it('buys a QIP item with mold finalize', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, qipBuy(u.code));
      expect(res.body.data).toMatchObject({ mold: 'finalize', price_all: '780234.00', fee: '234.00' });
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

    it('a buy the balance cannot cover (fee included) changes nothing', async () => {
      // 100 × 2412.37 = 241,237.00 is covered; the fee of 72.37 is not.
      const u = await buyer(24_123_700 + 7_236);
      const res = await blockBuy(u.token, relianceBulk(u.code));
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await balanceOf(s, u.id)).toBe(24_123_700 + 7_236);
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
      expect(await balanceOf(s, u.id)).toBe(RICH - 24_130_937);
    });
  });

  describe.skipIf(!enabled)('audit', () => {
    it('finds a block or QIP order whose recorded price, rate or fee is not what the ledger took', async () => {
      const u = await buyer();
      const res = await blockBuy(u.token, qipBuy(u.code));
      expect(res.body.msg).toBe('ok');
      const db = s.deps.database.db;
      const row = await db
        .selectFrom('orders')
        .select(['id', 'price', 'rate', 'fee'])
        .where('no', '=', res.body.data.no)
        .executeTakeFirstOrThrow();
      const problems = async () => (await auditLedger(db)).problems;
      expect(await problems()).toEqual([]);
      for (const [column, changed] of [
        ['price', Number(row.price) - 100],
        ['rate', Number(row.rate) + 1],
        ['fee', Number(row.fee) + 1],
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
  });

  describe.skipIf(!enabled)('holdings and orders', () => {
    it('sells a block holding whole at the quote by its order number, once; others cannot', async () => {
      const u = await buyer();
      const bought = await blockBuy(u.token, relianceBulk(u.code));
      const no = bought.body.data.no;
      await passLockIn(bought.body.data);
      const stranger = await buyer();
      const theirs = await s.call('dealSell', { token: stranger.token, body: { no }, headers: idem() });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ msg: 'no', data: 'errors.notFound' });

      const before = await balanceOf(s, u.id);
      m.pin('RELIANCE.NS', 2530.5);
      try {
        const sold = await s.call('dealSell', {
          token: u.token,
          body: { no, price: 2412.37, sell_price: 2530.5 },
          headers: idem(),
        });
        expect(sold.body.data).toMatchObject({
          mold: 'bulk',
          state: 'sell',
          status: 1,
          count: 100,
          price: 2412.37,
          sell_price: 2530.5,
          price_all: '253050.00',
          profit: '11813.00',
        });
        expect(await balanceOf(s, u.id)).toBe(before + 25_305_000);
        expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ reason: 'sellStock', amount: 25_305_000 });
        const twice = await s.call('dealSell', { token: u.token, body: { no }, headers: idem() });
        expect(twice.body).toEqual({ msg: 'no', data: 'errors.alreadySold' });
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      const all = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 0 } });
      expect(all.body.data.rows.map((r: { state: string }) => r.state)).toEqual(['sell', 'buy']);
      expect(all.body.data.rows[1].sellable).toBe(false);
      const ok = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 1 } });
      expect(ok.body.data.rows).toHaveLength(2);
      const failed = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 2 } });
      expect(failed.body.data.rows).toHaveLength(0);
      expect(
        (await s.call('dealList', { token: stranger.token, body: { mold: 'bulk' } })).body.data.rows,
      ).toEqual([]);
    });

    it('refuses a holding sale when the quote fell beyond tolerance below what the user saw', async () => {
      const u = await buyer();
      const bought = await blockBuy(u.token, aaplBulk(u.code));
      await passLockIn(bought.body.data);
      const before = await balanceOf(s, u.id);
      const res = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no, sell_price: 250 },
        headers: idem(),
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.priceMoved' });
      expect(await balanceOf(s, u.id)).toBe(before);
      // US lot: (200 − 190.55) × 50 × 88.5 = 41,816.25; 200 × 50 × 88.5 = 885,000.00
      const sold = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no },
        headers: idem(),
      });
      expect(sold.body.data).toMatchObject({ profit: '41816.25', price_all: '885000.00', type: 'US' });
    });

    it('a stock order cannot be sold by number', async () => {
      const u = await buyer();
      const stock = await s.call('dealBuy', {
        token: u.token,
        body: { tag: 'AAPL', count: 1, price: 200, mold: 'stock' },
        headers: idem(),
      });
      const res = await s.call('dealSell', {
        token: u.token,
        body: { no: stock.body.data.no },
        headers: idem(),
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notSellable' });
    });

    it('counts an unsold block holding at market value in total assets', async () => {
      const u = await buyer();
      await blockBuy(u.token, relianceBulk(u.code));
      const info = await s.call('userInfo', { token: u.token });
      // cash 1,000,000 − 241,309.37 paid; holding worth 250,000.00 at the quote
      expect(info.body.data.money).toBe('758690.63');
      expect(info.body.data.total).toBe('1008690.63');
    });

    it('rejects a malformed sell body', async () => {
      const u = await buyer(0);
      for (const body of [{}, { no: '' }, { no: 'X', count: 1 }, { tag: 'AAPL', count: 1, price: 1 }]) {
        const res = await s.call('dealSell', { token: u.token, body, headers: idem() });
        expect(res.body, JSON.stringify(body)).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      }
    });
  });
});
