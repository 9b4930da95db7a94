import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { stableJson } from '#shared/contract/define';
import { contract } from '#shared/contract/index';
import { feeMinor, tradeValueMinor } from '#shared/money';
import { BLOCK_FEE_BPS } from '#shared/rules';
import { nextSession } from '../../server/market/hours';
import { auditLedger } from '../../server/wallet/audit';
import { blockServer } from '../support/block';
import { RICH } from '../support/orders';
import { DIALECTS, type TestServer } from '../support/server';
import { balanceOf, credit, idem, ledgerOf } from '../support/trading';

/**
 * Block trading and QIP: the items on offer, buys at the block price with the 0.03 % fee (a USD lot
 * converted first), refusals — kept as failed orders once the lot is identified —, the
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
});
