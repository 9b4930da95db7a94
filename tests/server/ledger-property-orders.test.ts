import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '#shared/money';
import { JOBS, runJob } from '../../server/jobs/index';
import { propertySeed } from '../support/seed';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  type MarketControl,
} from '../support/trading';

/**
 * DESIGN rule 2 for resting orders, as a property: any sequence of limit, stop-loss,
 * stop-loss-market and good-till-triggered orders on both sides (OCO GTTs: sells, one reservation
 * for both legs; a buy OCO is refused), modifies of their quantity, limit and trigger, cancels
 * (one racing a modify of the same order), price moves, match passes and day-ends (which expire
 * the day's orders and GTTs past their validity) leaves
 * the ledger audit clean after every step, and every modify moves exactly the difference of what
 * the order holds — a buy's value and charges at its limit, a sell's units — or nothing at all.
 * Charges are on (RELIANCE.NS, the full Indian schedule).
 */
const SYMBOL = 'RELIANCE.NS';
const PRICES = [2400, 2450.5, 2500, 2555.25, 2610];
const USERS = 2;
const FUNDS_MINOR = 10_000_000;
const OPEN_MAX = 6;
const DAY_MS = 24 * 3600 * 1000;

type Kind = 'limit' | 'sl' | 'slm' | 'gtt' | 'oco';
type Op =
  | { t: 'place'; u: number; side: 'buy' | 'sell'; kind: Kind; off: number; qty: number }
  | { t: 'modify'; u: number; pick: number; qty: number | null; off: number | null }
  | { t: 'cancel'; u: number; pick: number }
  | { t: 'race'; u: number; pick: number; qty: number }
  | { t: 'move'; price: number }
  | { t: 'match' }
  | { t: 'close' };

const user = fc.integer({ min: 0, max: USERS - 1 });
/** Percent away from the quote (limits inside the 10 % band). */
const off = fc.integer({ min: 1, max: 8 });
const qty = fc.integer({ min: 1, max: 12 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('place' as const),
      u: user,
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constantFrom('limit' as const, 'sl' as const, 'slm' as const, 'gtt' as const, 'oco' as const),
      off,
      qty,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('modify' as const),
      u: user,
      pick: fc.nat(),
      qty: fc.option(qty),
      off: fc.option(off),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), u: user, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('race' as const), u: user, pick: fc.nat(), qty }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('move' as const), price: fc.constantFrom(...PRICES) }) },
  { weight: 2, arbitrary: fc.constant({ t: 'match' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'close' as const }) },
);

/** Refusals a resting order's placement or modify may meet: each leaves everything as it was. */
const REFUSALS = [
  'errors.insufficientFunds',
  'errors.insufficientShares',
  'errors.tooManyOpenOrders',
  'errors.triggerSide',
  'errors.triggerLimit',
  'errors.limitOutsideBand',
  'errors.alreadyTriggered',
  'errors.slmNoLimit',
  'errors.notPending',
  'errors.gttTrigger',
  // OCO: sells only; an armed one changes its quantity only.
  'errors.ocoSellOnly',
  'errors.ocoModify',
];

interface Row {
  no: string;
  state: 'buy' | 'sell';
  status: number;
  count: number;
  price_all: string;
  fee: string;
  order_type: 'market' | 'limit' | 'sl' | 'slm' | 'gtt' | 'oco' | null;
  trigger_price: number | null;
  triggered_at: number | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
/** What a pending buy holds: value and charges at its limit. */
// A pending buy's price_all is what it holds: value and charges at its limit.
const heldMoney = (r: Row) => toMinor(r.price_all)!;

describe.each(DIALECTS)('resting orders ledger property on $name', ({ name, enabled }) => {
  let s: TestServer;
  let market: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { MAX_OPEN_ORDERS: String(OPEN_MAX) });
    market = controlMarket(s);
  });
  afterAll(async () => {
    await s?.close();
  });
  const match = () => runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);

  async function runSequence(ops: Op[]): Promise<void> {
    let price = 2500;
    market.pin(SYMBOL, price);
    const users: { id: number; token: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await s.signUp();
      await credit(s, u.id, FUNDS_MINOR);
      const bought = await s.call('dealBuy', {
        token: u.token,
        body: { tag: SYMBOL, count: 20, price, mold: 'stock' },
        headers: idem(),
      });
      expect(bought.body).toMatchObject({ msg: 'ok' });
      users.push(u);
    }
    const pending = async (token: string): Promise<Row[]> =>
      (await s.call('orderList', { token, query: { tag: SYMBOL, status: 0, limit: 50 } })).body.data.rows;
    const free = async (token: string): Promise<number> => {
      const rows = (await s.call('holdings', { token, query: { type: 'stock' } })).body.data.rows;
      return rows.find((r: { stock: string }) => r.stock === SYMBOL)?.available ?? 0;
    };
    /** The fields of an order at `pct` % from the quote: a limit on the waiting side, a stop beyond. */
    function priced(side: 'buy' | 'sell', kind: Kind | 'triggered', pct: number) {
      const away = side === 'buy' ? 1 - pct / 100 : 1 + pct / 100;
      if (kind === 'limit' || kind === 'triggered') return { price: round2(price * away) };
      if (kind === 'oco') {
        // A sell of held units: a target above the quote and a stop below, each limit 0.5 % under.
        const trigger = round2(price * (1 + pct / 100));
        const stop = round2(price * (1 - pct / 100));
        return {
          trigger,
          price: round2(trigger * 0.995),
          stop_trigger: stop,
          stop_price: round2(stop * 0.995),
        };
      }
      if (kind === 'gtt') {
        // A buy on a dip, a sell at a target: the trigger on the waiting side, the limit beyond it.
        const trigger = round2(price * away);
        return { trigger, price: round2(trigger * (side === 'buy' ? 1.005 : 0.995)) };
      }
      const trigger = round2(price * (side === 'buy' ? 1 + pct / 100 : 1 - pct / 100));
      return kind === 'slm'
        ? { trigger }
        : { trigger, price: round2(trigger * (side === 'buy' ? 1.005 : 0.995)) };
    }
    const expectAnswer = (body: { msg: string; data: unknown }, what: string) => {
      if (body.msg === 'no') expect(REFUSALS, `${what}: ${JSON.stringify(body)}`).toContain(body.data);
      else expect(body.msg, what).toBe('ok');
    };

    for (const op of ops) {
      switch (op.t) {
        case 'place': {
          const u = users[op.u]!;
          // An OCO is a sell; one in four is tried as a buy, which is refused.
          const side = op.kind === 'oco' && op.qty % 4 !== 0 ? 'sell' : op.side;
          const p = priced(side, op.kind, op.off);
          const body = {
            tag: SYMBOL,
            count: op.qty,
            mold: 'stock',
            price: p.price ?? price,
            ...(op.kind === 'limit' ? {} : { order_type: op.kind, trigger: p.trigger }),
            ...('stop_trigger' in p ? { stop_trigger: p.stop_trigger, stop_price: p.stop_price } : {}),
            // A GTT valid one to three days: the session closes of the sequence expire some.
            ...(op.kind === 'gtt' || op.kind === 'oco' ? { valid_days: 1 + (op.qty % 3) } : {}),
          };
          const res = await s.call(side === 'buy' ? 'dealBuy' : 'dealSell', {
            token: u.token,
            body,
            headers: idem(),
          });
          expectAnswer(res.body, `place ${JSON.stringify(body)}`);
          break;
        }
        case 'modify': {
          const u = users[op.u]!;
          const rows = await pending(u.token);
          const order = rows[op.pick % Math.max(1, rows.length)];
          if (!order) break;
          // A market or limit order rests as a limit.
          const kind =
            order.order_type === null || order.order_type === 'limit' || order.order_type === 'market'
              ? 'limit'
              : order.triggered_at
                ? 'triggered'
                : order.order_type;
          const changes: Record<string, unknown> = {};
          if (op.qty !== null) changes.count = op.qty;
          if (op.off !== null) {
            const p = priced(order.state, kind, op.off);
            if (p.price !== undefined && order.order_type !== 'slm') changes.price = p.price;
            if ('trigger' in p && p.trigger !== undefined) changes.trigger = p.trigger;
          }
          if (Object.keys(changes).length === 0) changes.count = order.count;
          const [balance, shares] = [await balanceOf(s, u.id), await free(u.token)];
          const res = await s.call('orderModify', {
            token: u.token,
            body: { no: order.no, ...changes },
            headers: idem(),
          });
          expectAnswer(res.body, `modify ${order.no} ${JSON.stringify(changes)}`);
          const after = res.body.msg === 'ok' ? (res.body.data as Row) : order;
          if (res.body.msg === 'ok') expect(after).toMatchObject({ no: order.no, status: 0 });
          // Exactly the difference, or nothing when refused.
          if (order.state === 'buy') {
            expect(await balanceOf(s, u.id)).toBe(balance - (heldMoney(after) - heldMoney(order)));
            expect(await free(u.token)).toBe(shares);
          } else {
            expect(await balanceOf(s, u.id)).toBe(balance);
            expect(await free(u.token)).toBe(shares - (after.count - order.count));
          }
          break;
        }
        case 'cancel': {
          const u = users[op.u]!;
          const rows = await pending(u.token);
          const order = rows[op.pick % Math.max(1, rows.length)];
          if (!order) break;
          const res = await s.call('orderCancel', {
            token: u.token,
            body: { no: order.no },
            headers: idem(),
          });
          expect(res.body).toMatchObject({ msg: 'ok', data: { status: 2 } });
          break;
        }
        case 'race': {
          // A modify and a cancel of one order at once: one after the other, whichever first.
          const u = users[op.u]!;
          const rows = await pending(u.token);
          const order = rows[op.pick % Math.max(1, rows.length)];
          if (!order) break;
          const [modified, cancelled] = await Promise.all([
            s.call('orderModify', { token: u.token, body: { no: order.no, count: op.qty }, headers: idem() }),
            s.call('orderCancel', { token: u.token, body: { no: order.no }, headers: idem() }),
          ]);
          expectAnswer(modified.body, 'racing modify');
          expect(cancelled.body).toMatchObject({ msg: 'ok', data: { status: 2 } });
          break;
        }
        case 'move':
          price = op.price;
          market.pin(SYMBOL, price);
          break;
        case 'match':
          await match();
          break;
        case 'close':
          s.clock.advance(DAY_MS);
          await match();
          break;
      }
      for (const u of users) expect(await balanceOf(s, u.id)).toBeGreaterThanOrEqual(0);
      await expectLedgerConsistent(s);
    }
    // Everything still resting is cancelled: the users are back to money and shares, nothing held.
    for (const u of users) {
      for (const order of await pending(u.token)) {
        const res = await s.call('orderCancel', { token: u.token, body: { no: order.no }, headers: idem() });
        expect(res.body).toMatchObject({ msg: 'ok' });
      }
      const rows = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
      const held = rows.find((r: { stock: string }) => r.stock === SYMBOL);
      if (held) expect(held.available).toBe(held.count);
    }
    await expectLedgerConsistent(s);
  }

  const runs = name === 'sqlite' ? 25 : 8;
  it.runIf(enabled)(
    `${runs} random sequences of resting orders keep the ledger whole`,
    async () => {
      const seed = propertySeed();
      console.log(`${name}: seed ${seed} (PROPERTY_SEED=${seed} replays it)`);
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 6, maxLength: 30 }), (ops) => runSequence(ops)),
        {
          numRuns: runs,
          seed,
          endOnFailure: true,
        },
      );
    },
    180_000,
  );
});
