import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../server/db/index';
import { JOBS, runJob } from '../../server/jobs/index';
import { auditLedger } from '../../server/lib/audit';
import { disburseLoan } from '../../server/lib/settlement';
import { allotIpo } from '../../server/trading/ipo';
import {
  fromMinor,
  percentOfMinor,
  priceToTicks,
  tradeValueMinor,
  unitsToMinor,
} from '../../src/shared/money';
import { IPO_QTY_STEP } from '../../src/shared/rules';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { controlMarket, idem, insertFund, insertIpo, type MarketControl } from '../support/trading';
import { addCard, settleDue } from '../support/wallet';

/**
 * DESIGN rule 2 as a property: any sequence of the money calls of SPEC §7 across a few users —
 * recharges and their settlement, withdrawals (paid and declined), stock buys (filled and resting),
 * cancels, sells, IPO applications and allotment, fund purchases and maturity, loans, approval and
 * repayment, and replays of an Idempotency-Key — leaves every balance equal to a model that knows
 * only the rules, never below zero, the audit clean, and the users' money equal to what came in
 * minus what went out minus what is held in investments (read from the business rows, not the ledger).
 */

const SYMBOL = 'RELIANCE.NS';
const PRICES = [2400, 2450.5, 2500, 2610.25];
const IPO_PRICE = 120.5;
const FUND_MINOR = 1_000_000;
const USERS = 3;

type Op =
  | { t: 'recharge'; u: number; units: number }
  | { t: 'settle' }
  | { t: 'withdraw'; u: number; units: number; declined: boolean }
  | { t: 'buy'; u: number; qty: number }
  | { t: 'buyLimit'; u: number; qty: number }
  | { t: 'cancel'; u: number; pick: number }
  | { t: 'sell'; u: number; qty: number }
  | { t: 'move'; price: number }
  | { t: 'ipo'; u: number; lots: number }
  | { t: 'allot'; ratio: number }
  | { t: 'fund'; u: number }
  | { t: 'mature' }
  | { t: 'loan'; u: number; units: number }
  | { t: 'approve' }
  | { t: 'repay'; u: number; pick: number }
  | { t: 'replay' };

const user = fc.integer({ min: 0, max: USERS - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('recharge' as const),
      u: user,
      units: fc.integer({ min: 5000, max: 40_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ t: 'settle' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('withdraw' as const),
      u: user,
      units: fc.integer({ min: 100, max: 20_000 }),
      declined: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('buy' as const), u: user, qty: fc.integer({ min: 1, max: 30 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('buyLimit' as const),
      u: user,
      qty: fc.integer({ min: 1, max: 30 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), u: user, pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('sell' as const), u: user, qty: fc.integer({ min: 1, max: 30 }) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('move' as const), price: fc.constantFrom(...PRICES) }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('ipo' as const), u: user, lots: fc.integer({ min: 1, max: 5 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('allot' as const), ratio: fc.constantFrom(0, 3333, 5000, 10_000) }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('fund' as const), u: user }) },
  { weight: 1, arbitrary: fc.constant({ t: 'mature' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('loan' as const),
      u: user,
      units: fc.integer({ min: 500, max: 60_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'approve' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('repay' as const), u: user, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'replay' as const }) },
);

interface ModelUser {
  token: string;
  id: number;
  card: number;
  declinedCard: number;
  balance: number;
  shares: number;
  pendingRecharges: number[];
  withdrawals: { amount: number; declined: boolean }[];
  restingBuys: { no: string; reserved: number }[];
  ipoApps: { count: number; amount: number }[];
  funds: { amount: number; bps: number }[];
  loans: { id: number; count: number; state: number }[];
}

const CREDIT_LIMIT_MINOR = 100 * 1000 * 100;

describe.each(DIALECTS)('ledger property on $name', ({ name, enabled }) => {
  let s: TestServer;
  let market: MarketControl;
  let cardSeq = 0;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    market = controlMarket(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function runSequence(ops: Op[]): Promise<void> {
    let price = PRICES[2]!;
    market.pin(SYMBOL, price);
    let ipo = await insertIpo(s, { issue_price: IPO_PRICE, min: 100, max: 1000 });
    const fundId = await insertFund(s, { amount: FUND_MINOR, investment_period: 0 });
    const users: ModelUser[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await s.signUp();
      cardSeq += 1;
      const declinedCard = await addCard(
        s,
        u.token,
        `4111${String(process.pid % 1e4).padStart(4, '0')}${String(cardSeq).padStart(4, '0')}0002`,
      );
      users.push({
        ...u,
        card: await addCard(s, u.token),
        declinedCard,
        balance: 0,
        shares: 0,
        pendingRecharges: [],
        withdrawals: [],
        restingBuys: [],
        ipoApps: [],
        funds: [],
        loans: [],
      });
    }
    interface Sent {
      path: string;
      token: string;
      body: unknown;
      key: Record<string, string>;
      answer: unknown;
    }
    let last = null as Sent | null;

    /** Sends a money call with a fresh key and checks the answer the model predicted. */
    async function money(u: ModelUser, path: string, body: unknown, expected: 'ok' | string) {
      const key = idem();
      const res = await s.api('POST', path, { token: u.token, body, headers: key });
      if (expected === 'ok') {
        expect(res.body, `${path} ${JSON.stringify(body)}`).toMatchObject({ msg: 'ok' });
        last = { path, token: u.token, body, key, answer: res.body };
      } else {
        expect(res.body, `${path} ${JSON.stringify(body)}`).toMatchObject({ msg: 'no', data: expected });
      }
      return res.body.data;
    }
    const openCredit = (u: ModelUser) =>
      u.loans.filter((l) => l.state === 1 || l.state === 4).reduce((a, l) => a + l.count, 0);

    for (const op of ops) {
      switch (op.t) {
        case 'recharge': {
          const u = users[op.u]!;
          await money(u, '/stock/success/v2/recharge/add', { count: op.units }, 'ok');
          u.pendingRecharges.push(unitsToMinor(op.units));
          break;
        }
        case 'settle': {
          await settleDue(s);
          for (const u of users) {
            for (const r of u.pendingRecharges) u.balance += r;
            for (const w of u.withdrawals) if (w.declined) u.balance += w.amount;
            u.pendingRecharges = [];
            u.withdrawals = [];
          }
          break;
        }
        case 'withdraw': {
          const u = users[op.u]!;
          const amount = unitsToMinor(op.units);
          const ok = u.balance >= amount;
          await money(
            u,
            '/stock/success/money/access',
            { bank_id: op.declined ? u.declinedCard : u.card, count: op.units },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (ok) {
            u.balance -= amount;
            u.withdrawals.push({ amount, declined: op.declined });
          }
          break;
        }
        case 'buy':
        case 'buyLimit': {
          const u = users[op.u]!;
          // A resting buy is placed 5 % under the quote: beyond the tolerance, so it waits there.
          const seen = op.t === 'buy' ? price : Math.round(price * 95) / 100;
          const cost = tradeValueMinor(priceToTicks(seen), op.qty);
          const ok = u.balance >= cost;
          const data = await money(
            u,
            '/stock/success/deal/buy',
            { tag: SYMBOL, count: op.qty, price: seen, mold: 'stock' },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (!ok) break;
          expect(data.price_all).toBe(fromMinor(cost));
          u.balance -= cost;
          if (op.t === 'buy') {
            expect(data.status).toBe(1);
            u.shares += op.qty;
          } else {
            expect(data.status).toBe(0);
            u.restingBuys.push({ no: data.no, reserved: cost });
          }
          break;
        }
        case 'cancel': {
          const u = users[op.u]!;
          const order = u.restingBuys[op.pick % Math.max(1, u.restingBuys.length)];
          if (!order) break;
          await money(u, '/stock/success/order/cancel', { no: order.no }, 'ok');
          u.balance += order.reserved;
          u.restingBuys = u.restingBuys.filter((o) => o !== order);
          break;
        }
        case 'sell': {
          const u = users[op.u]!;
          const ok = u.shares >= op.qty;
          await money(
            u,
            '/stock/success/deal/sell',
            { tag: SYMBOL, count: op.qty, price, mold: 'stock' },
            ok ? 'ok' : 'errors.insufficientShares',
          );
          if (ok) {
            u.shares -= op.qty;
            u.balance += tradeValueMinor(priceToTicks(price), op.qty);
          }
          break;
        }
        case 'move':
          price = op.price;
          market.pin(SYMBOL, price);
          break;
        case 'ipo': {
          const u = users[op.u]!;
          const count = op.lots * IPO_QTY_STEP;
          const amount = tradeValueMinor(priceToTicks(IPO_PRICE), count);
          const ok = u.balance >= amount;
          await money(
            u,
            '/stock/success/ipo/buy',
            { id: ipo.id, tag: ipo.symbol, count, price: IPO_PRICE },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (ok) {
            u.balance -= amount;
            u.ipoApps.push({ count, amount });
          }
          break;
        }
        case 'allot': {
          const result = await allotIpo(s.deps, ipo.id, op.ratio);
          expect(result.applications).toBe(users.reduce((n, u) => n + u.ipoApps.length, 0));
          for (const u of users) {
            for (const app of u.ipoApps) {
              const shares = Math.floor(((app.count / IPO_QTY_STEP) * op.ratio) / 10_000) * IPO_QTY_STEP;
              u.balance += app.amount - (shares > 0 ? tradeValueMinor(priceToTicks(IPO_PRICE), shares) : 0);
            }
            u.ipoApps = [];
          }
          ipo = await insertIpo(s, { issue_price: IPO_PRICE, min: 100, max: 1000 });
          break;
        }
        case 'fund': {
          const u = users[op.u]!;
          const ok = u.balance >= FUND_MINOR;
          const data = await money(
            u,
            '/stock/success/fund/purchase',
            { project_id: fundId },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (ok) {
            u.balance -= FUND_MINOR;
            // The answer gives the return in percent; maturity pays its basis points.
            u.funds.push({ amount: FUND_MINOR, bps: Math.round(data.expected_return * 100) });
          }
          break;
        }
        case 'mature': {
          await runJob(s.deps, JOBS.find((j) => j.name === 'funds:mature')!);
          for (const u of users) {
            for (const f of u.funds) u.balance += f.amount + percentOfMinor(f.amount, f.bps);
            u.funds = [];
          }
          break;
        }
        case 'loan': {
          const u = users[op.u]!;
          const count = unitsToMinor(op.units);
          const ok = count <= CREDIT_LIMIT_MINOR - openCredit(u);
          const data = await money(
            u,
            '/stock/success/loans/add',
            { count: op.units },
            ok ? 'ok' : 'errors.loanOverLimit',
          );
          if (ok) u.loans.push({ id: data.id, count, state: 1 });
          break;
        }
        case 'approve': {
          for (const u of users) {
            for (const l of u.loans.filter((x) => x.state === 1)) {
              expect(await withTx(s.deps.database, (trx) => disburseLoan(trx, l.id, s.clock.now()))).toBe(
                true,
              );
              l.state = 4;
              u.balance += l.count;
            }
          }
          break;
        }
        case 'repay': {
          const u = users[op.u]!;
          const loan = u.loans[op.pick % Math.max(1, u.loans.length)];
          if (!loan) break;
          const expected =
            loan.state !== 4
              ? 'errors.loanNotUnpaid'
              : u.balance >= loan.count
                ? 'ok'
                : 'errors.insufficientFunds';
          await money(u, '/stock/success/loans/repay', { id: loan.id }, expected);
          if (expected === 'ok') {
            loan.state = 5;
            u.balance -= loan.count;
          }
          break;
        }
        case 'replay': {
          if (!last) break;
          // The same key and body: the first answer again, and no money moves.
          const res = await s.api('POST', last.path, {
            token: last.token,
            body: last.body,
            headers: last.key,
          });
          expect(res.body).toEqual(last.answer);
          expect(res.headers['idempotent-replay']).toBe('true');
          break;
        }
      }
    }

    // Every balance is what the rules say, seen through the app's own call.
    for (const u of users) {
      const res = await s.api('GET', '/stock/success/v2/balance', { token: u.token });
      expect(res.body.data.balance, `user ${u.id}`).toBe(fromMinor(u.balance));
      expect(u.balance).toBeGreaterThanOrEqual(0);
    }
    const report = await auditLedger(s.deps.database.db);
    expect(report.problems).toEqual([]);
    await expectConserved(users.map((u) => u.id));
  }

  /**
   * Money conservation from the business rows alone: the users' cash equals what came in
   * (settled recharges, disbursed loans) minus what went out (withdrawals not refunded, repaid
   * loans) minus what is held in investments (open and filled buys net of sells, IPO money not
   * refunded, fund principal not returned) plus fund profit paid.
   */
  async function expectConserved(ids: number[]): Promise<void> {
    const db = s.deps.database.db;
    const sum = async (q: Promise<{ v: number | string | null } | undefined>) => Number((await q)?.v ?? 0);
    const cash = await sum(
      db
        .selectFrom('users')
        .select((eb) => eb.fn.sum<number>('balance').as('v'))
        .where('id', 'in', ids)
        .executeTakeFirst(),
    );
    const recharged = await sum(
      db
        .selectFrom('recharges')
        .select((eb) => eb.fn.sum<number>('count').as('v'))
        .where('user_id', 'in', ids)
        .where('status', '=', 2)
        .executeTakeFirst(),
    );
    const withdrawn = await sum(
      db
        .selectFrom('withdrawals')
        .select((eb) => eb.fn.sum<number>('count').as('v'))
        .where('user_id', 'in', ids)
        .where('status', 'in', ['n', 'y'])
        .executeTakeFirst(),
    );
    const borrowed = await sum(
      db
        .selectFrom('loans')
        .select((eb) => eb.fn.sum<number>('count').as('v'))
        .where('user_id', 'in', ids)
        .where('state', 'in', [4, 5])
        .executeTakeFirst(),
    );
    const repaid = await sum(
      db
        .selectFrom('loans')
        .select((eb) => eb.fn.sum<number>('count').as('v'))
        .where('user_id', 'in', ids)
        .where('state', '=', 5)
        .executeTakeFirst(),
    );
    const bought = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('state', '=', 'buy')
        .where('mold', '=', 'stock')
        .where('status', 'in', [0, 1])
        .executeTakeFirst(),
    );
    const sold = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('state', '=', 'sell')
        .where('status', '=', 1)
        .executeTakeFirst(),
    );
    const inIpos = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('mold', '=', 'ipo')
        .where('state', '=', 'buy')
        .where('status', 'in', [1, 2])
        .executeTakeFirst(),
    );
    const inFunds = await sum(
      db
        .selectFrom('fund_orders')
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('status', '=', 'active')
        .executeTakeFirst(),
    );
    const fundProfit = await sum(
      db
        .selectFrom('fund_orders')
        .select((eb) => eb.fn.sum<number>('profit').as('v'))
        .where('user_id', 'in', ids)
        .where('status', '=', 'completed')
        .executeTakeFirst(),
    );
    expect(cash).toBe(
      recharged + borrowed - withdrawn - repaid - bought + sold - inIpos - inFunds + fundProfit,
    );
  }

  const runs = name === 'sqlite' ? 30 : 10;
  it.runIf(enabled)(
    `${runs} random sequences of money calls keep the ledger whole`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 8, maxLength: 30 }), (ops) => runSequence(ops)),
        {
          numRuns: runs,
          seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31),
          endOnFailure: true,
        },
      );
    },
    120_000,
  );
});
