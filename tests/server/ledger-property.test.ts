import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointName } from '#shared/contract/index';
import type { OrderProduct } from '#shared/contract/trading';
import { FUND_STAMP_PPM, FUND_STT_PPM, ppmOf, unitsFor, unitsText, unitsValue } from '#shared/funds';
import { DAY_MS, lateChargeMinor, loanInterestMinor, wholeDays } from '#shared/loans';
import { isMarketOpen, lastSession, nextSession } from '#shared/market-hours';
import {
  fromMinor,
  PRICE_SCALE,
  priceToTicks,
  rateToTicks,
  tradeValueMinor,
  unitsToMinor,
} from '#shared/money';
import { IPO_QTY_STEP, protectedLimit } from '#shared/rules';
import { loadConfig } from '../../server/config';
import { withTx } from '../../server/db/index';
import { cutoffOf, latestNavDay, navDayFor, publishedAt } from '../../server/funds/calendar';
import { navHistory } from '../../server/funds/nav';
import { JOBS, runJob } from '../../server/jobs/index';
import { computeCharges } from '../../server/trading/charges';
import { setConfiguredRate } from '../../server/trading/fx';
import { allotIpo } from '../../server/trading/ipo';
import { auditLedger } from '../../server/wallet/audit';
import {
  disburseLoan,
  payWithdrawal,
  refundWithdrawal,
  releaseWithdrawal,
} from '../../server/wallet/settlement';
import { expectHero, type HeroModel } from '../support/hero';
import { propertySeed } from '../support/seed';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  idem,
  insertBlockItem,
  insertFund,
  insertIpo,
  type MarketControl,
  setTradePassword,
} from '../support/trading';
import { addCard, settleDue, TRADE_CODE } from '../support/wallet';

const WRONG_CODE = '135790';

/**
 * DESIGN rule 2 as a property: any sequence of the money calls of SPEC §7 across a few users —
 * recharges and their settlement, withdrawals (paid and declined), stock buys (filled and resting),
 * cancels, sells, IPO applications and allotment, fund purchases, redemptions and cancels at the
 * next NAV (stamp duty, exit load first in first out, STT), loans, approval and
 * repayment, block/QIP purchases and lot sales (an Indian block, and a US QIP converted at a USD
 * rate that moves, stops, and falls back to the operator's configured rate for a while, else is
 * refused), and replays of an Idempotency-Key — leaves every balance equal to a model that knows
 * only the rules, never below zero, the audit clean, and the users' money equal to what came in
 * minus what went out minus what is held in investments (read from the business rows, not the
 * ledger).
 *
 * Stock fills pay the order charges (RELIANCE.NS: the full Indian schedule, by the worked-example
 * tested function) as their own posting, and so do block/QIP lots (a stock buy's
 * charges, no flat fee); a resting buy reserves its value and charges at its limit.
 *
 * The model knows the wallet's limits too: a recharge at most MAX_RECHARGE and the balance with
 * recharges on their way at most MAX_BALANCE; at most MAX_OPEN_ORDERS resting orders per user and
 * none further than the band from the quote; the IPO maximum per user; a block item's finite
 * supply; a block lot locked in for BLOCK_LOCKIN; withdrawals need the transaction password (a
 * wrong one moves nothing; a right one clears the count of wrong ones) and a payout to a card added
 * in the last 24 h is held — the payment rail never settles it until the operator releases, pays
 * or rejects it.
 */

const SYMBOL = 'RELIANCE.NS';
const FX_PAIR = 'USDINR=X';
const PRICES = [2400, 2450.5, 2500, 2610.25];
const IPO_PRICE = 120.5;
/** The property's IPOs take applications this long: `strike` moves the clock to a NAV's publication (up to 3 days). */
const IPO_DAYS = 60;
/** The property's fund: an equity fund (STT on redemption) with a 0.5 % exit load for 2 days. */
const FUND_MIN_UNITS = 1000;
const FUND_LOAD_PPM = 5000;
const FUND_LOAD_DAYS = 2;
const USERS = 3;
/**
 * Stock order quantities: a few units, so a recharge pays for some of them (at up to 30 units
 * almost every stock buy was refused for funds). Resting orders are worked hard in
 * ledger-property-orders.test.ts.
 */
const STOCK_QTY = 8;
/** The limits this suite's server runs with (small, so sequences reach them). */
const MAX_RECHARGE_MINOR = 3_000_000;
const MAX_BALANCE_MINOR = 20_000_000;
const MAX_OPEN = 3;
const LOCK_MS = 3_600_000;
const IPO_MAX = 1000;
const BLOCK_PRICE = 2300;
/** Lots of 10 (₹23,000): at 100 a lot cost more than MAX_BALANCE and no block buy ever succeeded. */
const BLOCK_MIN = 10;
const BLOCK_SUPPLY = 50;
/** The US QIP lot: AAPL pinned cheap so a recharge pays for a lot at any rate. */
const US_SYMBOL = 'AAPL';
const US_PRICE = 4.5;
const US_BLOCK_PRICE = 4.2537;
const US_MIN = 10;
const US_SUPPLY = 100;
/** The live USDINR quote moves among these (trading/fx.ts), or stops (null: no quote at all). */
const RATES = [83.1234, 88.5, 90.9];
const CONFIGURED = ['84', '86.75'];
/** FX_RATE_MAX_AGE_MS: one and a half `wait`s, so sequences outlive the operator's rate. */
const RATE_MAX_AGE_MS = 1.5 * 3_600_000;
/** The seed's configured rate (never fresh): what values a US lot when nothing else is known. */
const SEED_RATE = '20';

type Op =
  | { t: 'recharge'; u: number; units: number }
  | { t: 'settle' }
  | { t: 'withdraw'; u: number; units: number; to: 'card' | 'declined' | 'fresh' }
  | { t: 'wrongCode'; u: number }
  | { t: 'review'; u: number; decision: 'release' | 'pay' | 'reject' }
  | { t: 'buy'; u: number; qty: number }
  | { t: 'buyLimit'; u: number; qty: number }
  | { t: 'intraday'; u: number; qty: number }
  | { t: 'farLimit'; u: number; qty: number }
  | { t: 'stop'; u: number; qty: number; market: boolean }
  | { t: 'block'; u: number; lots: number; us: boolean }
  | { t: 'rate'; to: number | null }
  | { t: 'rateSet'; value: string }
  | { t: 'blockSell'; u: number; pick: number }
  | { t: 'wait' }
  | { t: 'close' }
  | { t: 'cancel'; u: number; pick: number }
  | { t: 'modify'; u: number; pick: number; qty: number }
  | { t: 'sell'; u: number; qty: number }
  | { t: 'move'; price: number }
  | { t: 'ipo'; u: number; lots: number }
  | { t: 'allot'; ratio: number }
  | { t: 'fund'; u: number; units: number }
  | { t: 'redeem'; u: number; all: boolean }
  | { t: 'fundCancel'; u: number; pick: number }
  | { t: 'strike'; days: number }
  | { t: 'loan'; u: number; units: number }
  | { t: 'approve'; daysAgo: number }
  | { t: 'accrue' }
  | { t: 'repay'; u: number; pick: number }
  | { t: 'replay' };

const user = fc.integer({ min: 0, max: USERS - 1 });
/**
 * Every sequence starts with each user's recharge settled, so purchases (blocks, QIP lots, stock)
 * are reached often rather than refused for funds, and with every user holding units of the fund.
 */
const FUNDED: Op[] = [
  ...Array.from({ length: USERS }, (_, u): Op => ({ t: 'recharge', u, units: 30_000 })),
  { t: 'settle' },
  // Units of the fund to redeem from the start: its redemptions are reached, not only its buys.
  ...Array.from({ length: USERS }, (_, u): Op => ({ t: 'fund', u, units: 5000 })),
  { t: 'strike', days: 0 },
];
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
      to: fc.constantFrom('card' as const, 'declined' as const, 'fresh' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('wrongCode' as const), u: user }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('review' as const),
      u: user,
      decision: fc.constantFrom('release' as const, 'pay' as const, 'reject' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('buy' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ t: 'close' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('intraday' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('buyLimit' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('farLimit' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('stop' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
      market: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('block' as const),
      u: user,
      lots: fc.integer({ min: 1, max: 3 }),
      us: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('rate' as const), to: fc.constantFrom(...RATES, null, null) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('rateSet' as const), value: fc.constantFrom(...CONFIGURED) }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('blockSell' as const), u: user, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ t: 'wait' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), u: user, pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('modify' as const),
      u: user,
      pick: fc.nat(),
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('sell' as const),
      u: user,
      qty: fc.integer({ min: 1, max: STOCK_QTY }),
    }),
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
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('fund' as const),
      u: user,
      units: fc.integer({ min: FUND_MIN_UNITS, max: 12_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('redeem' as const), u: user, all: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('fundCancel' as const), u: user, pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('strike' as const), days: fc.integer({ min: 0, max: 2 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('loan' as const),
      u: user,
      units: fc.integer({ min: 500, max: 60_000 }),
    }),
  },
  {
    weight: 1,
    // Disbursed up to 150 days ago: interest accrued, and past the 90-day tenure late charges too.
    arbitrary: fc.record({ t: fc.constant('approve' as const), daysAgo: fc.integer({ min: 0, max: 150 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'accrue' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('repay' as const), u: user, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'replay' as const }) },
);

interface ModelUser {
  token: string;
  id: number;
  card: number;
  declinedCard: number;
  /** A card added when the sequence starts: payouts to it are held while it is under a day old. */
  freshCard: { id: number; at: number };
  /** Wrong transaction passwords since the last right one. */
  fails: number;
  balance: number;
  /** Units free to sell (an AMO sell holds its units until the open). */
  shares: number;
  /**
   * The units of each AMO sell resting, oldest first (they count towards MAX_OPEN with the
   * resting buys): still the user's (in the position, reserved) until the open.
   */
  amoSells: number[];
  /** Allotted IPO shares, held as a lot (valued at cost: the test IPO is not listed). */
  ipoShares: number;
  /** Intraday units bought this session, squared off once it closes. */
  intraday: number;
  pendingRecharges: number[];
  withdrawals: { id: number; amount: number; declined: boolean; held: boolean }[];
  /** Resting buys: what each holds, at its limit (ticks); a stop's trigger (ticks), else null. */
  restingBuys: { no: string; reserved: number; limit: number; trigger: number | null }[];
  lots: { no: string; count: number; unlockAt: number; us: boolean }[];
  ipoApps: { count: number; amount: number }[];
  /** Fund orders waiting for their NAV, and the units allotted (lots, first in first out) and redeemed. */
  fundPending: { id: number; side: 'buy' | 'redeem'; amount: number; units: number; day: number }[];
  fundLots: { day: number; units: number }[];
  fundRedeemed: number;
  fundHeld: number;
  fundReserved: number;
  loans: { id: number; count: number; state: number; disbursedAt: number }[];
}

const CREDIT_LIMIT_MINOR = 100 * 1000 * 100;
/** Whether SYMBOL's market (NSE) is in a session at `at`: outside one a market order is an AMO. */
const nseOpen = (at: number) => isMarketOpen({ schedule: 'NSE' }, at);
/** Whether a lot's market is in a session at `at`: a lot is bought and sold only then. */
const lotMarketOpen = (us: boolean, at: number) => isMarketOpen({ schedule: us ? 'US' : 'NSE' }, at);
/** A user's pending stock orders, which MAX_OPEN caps: resting buys (AMOs among them) and AMO sells. */
const openOrders = (u: { restingBuys: unknown[]; amoSells: number[] }) =>
  u.restingBuys.length + u.amoSells.length;
const SCHEDULE = loadConfig({}).charges;
/** What a stock order of `value` in SYMBOL moves: a buy pays value + charges, a sell gets value − charges. */
const withCharges = (side: 'buy' | 'sell', value: number, product: OrderProduct = 'delivery') =>
  side === 'buy'
    ? value + computeCharges(SCHEDULE, 'buy', value, true, product).total
    : value - computeCharges(SCHEDULE, 'sell', value, true, product).total;

describe.each(DIALECTS)('ledger property on $name', ({ name, enabled }) => {
  let s: TestServer;
  let market: MarketControl;
  let cardSeq = 0;
  /** The operator's rate, which the server keeps across sequences: none until a `rateSet` (the seed's is never fresh). */
  let configured: { ticks: number; at: number } | null = null;
  /** Sequences run and heroes checked (DESIGN rule 8's identity), printed after the suite. */
  let sequences = 0;
  let heroChecks = 0;
  beforeAll(async () => {
    if (!enabled) return;
    // The RELIANCE lot's 2,300 is up to 11.9 % under the pinned prices (2,400–2,610.25), from before
    // the block window: a 15 % window keeps that figure the lot's price at every pin (at
    // 10 % a lot after a move to 2,610.25 was priced 2,349.23 and refused as a changed price); the
    // 1 % default is tests/server/block-window.test.ts.
    s = await startTestServer(name, {
      BLOCK_BAND_BPS: '1500',
      MAX_RECHARGE: fromMinor(MAX_RECHARGE_MINOR),
      MAX_BALANCE: fromMinor(MAX_BALANCE_MINOR),
      MAX_OPEN_ORDERS: String(MAX_OPEN),
      BLOCK_LOCKIN: String(LOCK_MS),
      FX_RATE_MAX_AGE_MS: String(RATE_MAX_AGE_MS),
    });
    market = controlMarket(s);
  });
  afterAll(async () => {
    if (sequences > 0)
      console.log(`hero identity on ${name}: ${sequences} sequences, ${heroChecks} heroes checked`);
    await s?.close();
  });

  async function runSequence(ops: Op[]): Promise<void> {
    let price = PRICES[2]!;
    market.pin(SYMBOL, price);
    const open = () => nseOpen(s.clock.now());
    let ipo = await insertIpo(s, { issue_price: IPO_PRICE, min: 100, max: IPO_MAX, closesInDays: IPO_DAYS });
    const blockItem = await insertBlockItem(s, {
      tag: SYMBOL,
      price: BLOCK_PRICE,
      count: BLOCK_MIN,
      supply: BLOCK_SUPPLY,
    });
    let blockLeft = BLOCK_SUPPLY;
    market.pin(US_SYMBOL, US_PRICE);
    const usItem = await insertBlockItem(s, {
      tag: US_SYMBOL,
      price: US_BLOCK_PRICE,
      mold: 'finalize',
      type: 'US',
      count: US_MIN,
      supply: US_SUPPLY,
    });
    let usLeft = US_SUPPLY;
    // The USD rate's model: the live quote (ticks, null while the feed is stopped), else the
    // operator's rate while it is younger than RATE_MAX_AGE_MS; null: USD money is refused.
    let live: number | null = priceToTicks(RATES[1]!);
    market.pin(FX_PAIR, RATES[1]!);
    const usdRate = () =>
      live ?? (configured && s.clock.now() - configured.at <= RATE_MAX_AGE_MS ? configured.ticks : null);
    const fundId = await insertFund(s, {
      amount: unitsToMinor(FUND_MIN_UNITS),
      category: 'equity',
      exit_load_ppm: FUND_LOAD_PPM,
      exit_load_days: FUND_LOAD_DAYS,
    });
    const fundRow = await s.deps.database.db
      .selectFrom('funds')
      .selectAll()
      .where('id', '=', fundId)
      .executeTakeFirstOrThrow();
    const fundNav = navHistory(s.config.market.seed, fundRow);
    /** The NAV the NAV job last wrote to the fund's row (it runs in `strike` only), ticks. */
    let publishedNav: number | null = null;
    const users: ModelUser[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await s.signUp();
      cardSeq += 1;
      const declinedCard = await addCard(
        s,
        u.token,
        `4111${String(process.pid % 1e4).padStart(4, '0')}${String(cardSeq).padStart(4, '0')}0002`,
      );
      await setTradePassword(s, u.id, TRADE_CODE);
      users.push({
        ...u,
        lots: [],
        card: await addCard(s, u.token),
        declinedCard,
        freshCard: { id: await addCard(s, u.token, undefined, { fresh: true }), at: s.clock.now() },
        fails: 0,
        balance: 0,
        shares: 0,
        amoSells: [],
        ipoShares: 0,
        intraday: 0,
        pendingRecharges: [],
        withdrawals: [],
        restingBuys: [],
        ipoApps: [],
        fundPending: [],
        fundLots: [],
        fundRedeemed: 0,
        fundHeld: 0,
        fundReserved: 0,
        loans: [],
      });
    }
    interface Sent {
      name: EndpointName;
      token: string;
      body: unknown;
      key: Record<string, string>;
      answer: unknown;
    }
    let last = null as Sent | null;
    async function checkHeroes(label: string, of: ModelUser[]) {
      for (const u of of) await expectHero(s, u, heroOf(u), label);
      heroChecks += of.length;
    }

    /** Sends a money call with a fresh key and checks the answer the model predicted. */
    async function money(u: ModelUser, name: EndpointName, body: unknown, expected: 'ok' | string) {
      const key = idem();
      const res = await s.call(name, { token: u.token, body, headers: key });
      if (expected === 'ok') {
        expect(res.body, `${name} ${JSON.stringify(body)}`).toMatchObject({ msg: 'ok' });
        last = { name, token: u.token, body, key, answer: res.body };
      } else {
        expect(res.body, `${name} ${JSON.stringify(body)}`).toMatchObject({ msg: 'no', data: expected });
      }
      return res.body.data;
    }
    const openCredit = (u: ModelUser) =>
      u.loans.filter((l) => l.state === 1 || l.state === 4).reduce((a, l) => a + l.count, 0);

    // The hero's lines as the rules say (tests/support/hero.ts checks them against the ledger too):
    // holdings at the pinned quotes, a US lot at the best USD rate known (a stale one too: a
    // valuation is labelled, never refused; the seed's 20 when nothing else), IPO shares at cost.
    const valuationRate = () => live ?? configured?.ticks ?? rateToTicks(SEED_RATE)!;
    const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);
    const heroOf = (u: ModelUser): HeroModel => ({
      available: u.balance,
      orders: sum(u.restingBuys, (o) => o.reserved),
      ipo: sum(u.ipoApps, (a) => a.amount),
      withdrawals: sum(u.withdrawals, (w) => w.amount),
      holdings:
        tradeValueMinor(priceToTicks(price), u.shares + sum(u.amoSells, (q) => q)) +
        sum(u.lots, (l) =>
          l.us
            ? tradeValueMinor(priceToTicks(US_PRICE), l.count, valuationRate())
            : tradeValueMinor(priceToTicks(price), l.count),
        ) +
        tradeValueMinor(priceToTicks(IPO_PRICE), u.ipoShares),
      // Purchases awaiting their NAV at what they paid, units at the NAV the job last published.
      funds:
        sum(
          u.fundPending.filter((o) => o.side === 'buy'),
          (o) => o.amount,
        ) + (publishedNav === null ? 0 : unitsValue(u.fundHeld, publishedNav)),
    });

    /**
     * Once the session has closed, intraday units are sold at the close (the quote of the
     * closed market) with an intraday sell's charges; AMO sells holding units it needs are
     * cancelled first, newest first (no intraday unit is carried overnight).
     */
    async function squareOffIfClosed(): Promise<void> {
      if (open() || !users.some((u) => u.intraday > 0)) return;
      await runJob(s.deps, JOBS.find((j) => j.name === 'orders:squareoff')!);
      for (const u of users) {
        while (u.intraday > 0 && u.shares < u.intraday && u.amoSells.length > 0)
          u.shares += u.amoSells.pop()!;
        const sold = Math.min(u.intraday, u.shares);
        if (sold > 0) {
          u.shares -= sold;
          u.balance += withCharges('sell', tradeValueMinor(priceToTicks(price), sold), 'intraday');
        }
        u.intraday = 0;
      }
    }

    for (const [step, op] of ops.entries()) {
      // Before each step, the hero of the user it is about (of everyone for a step about all).
      await checkHeroes(`before step ${step} ${op.t}`, 'u' in op ? [users[op.u]!] : users);
      switch (op.t) {
        case 'recharge': {
          const u = users[op.u]!;
          const minor = unitsToMinor(op.units);
          const onTheWay = u.pendingRecharges.reduce((a, r) => a + r, 0);
          const expected =
            minor > MAX_RECHARGE_MINOR
              ? 'errors.rechargeMax'
              : u.balance + onTheWay + minor > MAX_BALANCE_MINOR
                ? 'errors.balanceMax'
                : 'ok';
          await money(u, 'recharge', { count: op.units }, expected);
          if (expected === 'ok') u.pendingRecharges.push(minor);
          break;
        }
        case 'settle': {
          await settleDue(s);
          for (const u of users) {
            for (const r of u.pendingRecharges) u.balance += r;
            for (const w of u.withdrawals) if (w.declined && !w.held) u.balance += w.amount;
            u.pendingRecharges = [];
            // Held payouts wait for the operator whatever the rail's schedule.
            u.withdrawals = u.withdrawals.filter((w) => w.held);
          }
          break;
        }
        case 'withdraw': {
          const u = users[op.u]!;
          const amount = unitsToMinor(op.units);
          const ok = u.balance >= amount;
          const card = { card: u.card, declined: u.declinedCard, fresh: u.freshCard.id }[op.to];
          const held = op.to === 'fresh' && s.clock.now() - u.freshCard.at < s.config.newCardHoldMs;
          const data = await money(
            u,
            'withdraw',
            { bank_id: card, count: op.units, stock_password: TRADE_CODE },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          u.fails = 0;
          if (ok) {
            expect(data.hold).toBe(held ? 'wallet.hold.newCard' : null);
            u.balance -= amount;
            u.withdrawals.push({ id: data.id, amount, declined: op.to === 'declined', held });
          }
          break;
        }
        case 'wrongCode': {
          // Stays under the lock, which would refuse the right code too for 15 minutes.
          const u = users[op.u]!;
          if (u.fails >= 4) break;
          await money(
            u,
            'withdraw',
            { bank_id: u.card, count: 100, stock_password: WRONG_CODE },
            'errors.fundPasswordWrong',
          );
          u.fails += 1;
          break;
        }
        case 'review': {
          const u = users[op.u]!;
          const w = u.withdrawals.find((x) => x.held);
          if (!w) break;
          const decide = { release: releaseWithdrawal, pay: payWithdrawal, reject: refundWithdrawal }[
            op.decision
          ];
          expect(await withTx(s.deps.database, (trx) => decide(trx, w.id, s.clock.now()))).toBe(true);
          // Released: the rail pays it at the next settlement (the fresh card is not declined).
          if (op.decision === 'release') w.held = false;
          else u.withdrawals = u.withdrawals.filter((x) => x !== w);
          if (op.decision === 'reject') u.balance += w.amount;
          break;
        }
        case 'buy':
        case 'buyLimit': {
          const u = users[op.u]!;
          // A resting buy is placed 5 % under the quote: beyond the tolerance, so it waits there.
          const seen = op.t === 'buy' ? price : Math.round(price * 95) / 100;
          // A buy on a closed market is an AMO, resting until the open and reserving value
          // and charges at its limit: a market buy's the seen price moved by the tolerance.
          const amo = !open();
          const limitTicks =
            amo && op.t === 'buy' ? protectedLimit('buy', priceToTicks(seen)) : priceToTicks(seen);
          const value = tradeValueMinor(limitTicks, op.qty);
          const cost = withCharges('buy', value);
          const capped = (op.t === 'buyLimit' || amo) && openOrders(u) >= MAX_OPEN;
          const ok = !capped && u.balance >= cost;
          const data = await money(
            u,
            'dealBuy',
            { tag: SYMBOL, count: op.qty, price: seen, mold: 'stock' },
            capped ? 'errors.tooManyOpenOrders' : ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (!ok) break;
          // price_all: what left the balance (value and charges; a resting buy's at its limit).
          expect(data).toMatchObject({ value: fromMinor(value), price_all: fromMinor(cost) });
          u.balance -= cost;
          expect(data.amo).toBe(amo);
          if (op.t === 'buy' && !amo) {
            expect(data.status).toBe(1);
            u.shares += op.qty;
          } else {
            expect(data.status).toBe(0);
            if (amo) expect(data.send_at).toBe(nextSession('NSE', s.clock.now()).open);
            u.restingBuys.push({ no: data.no, reserved: cost, limit: limitTicks, trigger: null });
          }
          break;
        }
        case 'stop': {
          // A stop buy 2 % above the quote: stop-loss with its limit 1 % above the trigger, or
          // stop-loss-market (the trigger plus 1 %, rounded up to a whole paisa, a price every
          // instrument can quote: ticks are ten-thousandths): it reserves there.
          const u = users[op.u]!;
          const trigger = Math.round(price * 102) / 100;
          const limitTicks = op.market
            ? Math.ceil((priceToTicks(trigger) * 101) / 10_000) * 100
            : priceToTicks(Math.round(trigger * 101) / 100);
          const value = tradeValueMinor(limitTicks, op.qty);
          const cost = withCharges('buy', value);
          const capped = openOrders(u) >= MAX_OPEN;
          const ok = !capped && u.balance >= cost;
          const data = await money(
            u,
            'dealBuy',
            {
              tag: SYMBOL,
              count: op.qty,
              price: op.market ? price : limitTicks / 10_000,
              mold: 'stock',
              order_type: op.market ? 'slm' : 'sl',
              trigger,
            },
            capped ? 'errors.tooManyOpenOrders' : ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (!ok) break;
          expect(data).toMatchObject({ status: 0, value: fromMinor(value), price_all: fromMinor(cost) });
          u.balance -= cost;
          u.restingBuys.push({
            no: data.no,
            reserved: cost,
            limit: limitTicks,
            trigger: priceToTicks(trigger),
          });
          break;
        }
        case 'farLimit': {
          // Half the quote: outside the band, refused whatever the balance or the open orders.
          await money(
            users[op.u]!,
            'dealBuy',
            { tag: SYMBOL, count: op.qty, price: Math.round(price * 50) / 100, mold: 'stock' },
            'errors.limitOutsideBand',
          );
          break;
        }
        case 'block': {
          const u = users[op.u]!;
          // A US QIP lot converts at the USD rate now; without one it is refused before its supply.
          const rate = op.us ? usdRate() : PRICE_SCALE;
          const min = op.us ? US_MIN : BLOCK_MIN;
          const left = op.us ? usLeft : blockLeft;
          const count = op.lots * min;
          const value =
            rate === null
              ? 0
              : tradeValueMinor(priceToTicks(op.us ? US_BLOCK_PRICE : BLOCK_PRICE), count, rate);
          // A stock buy's charges on the lot's value (the US lot: brokerage and GST only).
          const cost = value + computeCharges(SCHEDULE, 'buy', value, !op.us).total;
          const expected = !lotMarketOpen(op.us, s.clock.now())
            ? 'errors.noAvailableTime'
            : rate === null
              ? 'errors.rateNotUpdated'
              : left < min
                ? 'errors.blockSoldOut'
                : left < count
                  ? 'errors.blockSupplyShort'
                  : u.balance >= cost
                    ? 'ok'
                    : 'errors.insufficientFunds';
          const data = await money(
            u,
            'dealBuy',
            op.us
              ? {
                  tag: US_SYMBOL,
                  count,
                  price: US_BLOCK_PRICE,
                  mold: 'finalize',
                  id: usItem,
                  stock_password: TRADE_CODE,
                }
              : {
                  tag: SYMBOL,
                  count,
                  price: BLOCK_PRICE,
                  mold: 'bulk',
                  id: blockItem,
                  stock_password: TRADE_CODE,
                },
            expected,
          );
          u.fails = 0;
          if (expected !== 'ok') break;
          expect(data.price_all).toBe(fromMinor(cost));
          expect(data.sellable).toBe(false);
          u.balance -= cost;
          if (op.us) usLeft -= count;
          else blockLeft -= count;
          u.lots.push({ no: data.no, count, unlockAt: data.unlock_at, us: op.us });
          break;
        }
        case 'rate':
          live = op.to === null ? null : priceToTicks(op.to);
          if (op.to === null) market.unquote(FX_PAIR);
          else market.pin(FX_PAIR, op.to);
          break;
        case 'rateSet':
          configured = { ticks: rateToTicks(op.value)!, at: s.clock.now() };
          await setConfiguredRate(s.deps, op.value);
          break;
        case 'blockSell': {
          const u = users[op.u]!;
          const lot = u.lots[op.pick % Math.max(1, u.lots.length)];
          if (!lot) break;
          const locked = s.clock.now() < lot.unlockAt;
          // A US lot's proceeds convert at the rate of the sale, not the one it was bought at.
          const rate = lot.us ? usdRate() : PRICE_SCALE;
          const expected = locked
            ? 'errors.lotLocked'
            : !lotMarketOpen(lot.us, s.clock.now())
              ? 'errors.noAvailableTime'
              : rate === null
                ? 'errors.rateNotUpdated'
                : 'ok';
          await money(u, 'dealSell', { no: lot.no }, expected);
          if (expected !== 'ok') break;
          // The proceeds less a stock sell's charges (no Indian levies on a US share).
          const proceeds = tradeValueMinor(priceToTicks(lot.us ? US_PRICE : price), lot.count, rate!);
          u.balance += proceeds - computeCharges(SCHEDULE, 'sell', proceeds, !lot.us).total;
          u.lots = u.lots.filter((l) => l !== lot);
          break;
        }
        case 'wait':
        case 'close':
          // 'close': to a minute after the session's close (from inside one), else an hour on.
          s.clock.advance(
            op.t === 'close' && open()
              ? lastSession('NSE', s.clock.now()).close + 60_000 - s.clock.now()
              : LOCK_MS,
          );
          await squareOffIfClosed();
          break;
        case 'cancel': {
          const u = users[op.u]!;
          const order = u.restingBuys[op.pick % Math.max(1, u.restingBuys.length)];
          if (!order) break;
          await money(u, 'orderCancel', { no: order.no }, 'ok');
          u.balance += order.reserved;
          u.restingBuys = u.restingBuys.filter((o) => o !== order);
          break;
        }
        case 'modify': {
          // A resting buy's quantity changes: refused for a stop whose trigger the quote has passed
          // or an order now outside the band of the quote (the rules of placement), and for a
          // growth the balance cannot cover; otherwise exactly the difference moves.
          // The first user from `u` on with a resting buy (so sequences reach it often).
          const u = users.map((_, i) => users[(op.u + i) % USERS]!).find((x) => x.restingBuys.length > 0);
          const order = u?.restingBuys[op.pick % u.restingBuys.length];
          if (!u || !order) break;
          const q = priceToTicks(price);
          const anchor = order.trigger ?? order.limit;
          const cost = withCharges('buy', tradeValueMinor(order.limit, op.qty));
          const diff = cost - order.reserved;
          const expected =
            order.trigger !== null && order.trigger <= q
              ? 'errors.triggerSide'
              : Math.abs(anchor - q) * 10_000 > q * 1000
                ? 'errors.limitOutsideBand'
                : diff > u.balance
                  ? 'errors.insufficientFunds'
                  : 'ok';
          const data = await money(u, 'orderModify', { no: order.no, count: op.qty }, expected);
          if (expected !== 'ok') break;
          expect(data).toMatchObject({ status: 0, count: op.qty });
          u.balance -= diff;
          order.reserved = cost;
          break;
        }
        case 'sell': {
          const u = users[op.u]!;
          // On a closed market an AMO: its units held until the open (never sent here).
          const amo = !open();
          const held = u.shares >= op.qty;
          const capped = amo && openOrders(u) >= MAX_OPEN;
          const ok = held && !capped;
          const data = await money(
            u,
            'dealSell',
            { tag: SYMBOL, count: op.qty, price, mold: 'stock' },
            !held ? 'errors.insufficientShares' : capped ? 'errors.tooManyOpenOrders' : 'ok',
          );
          if (ok) {
            expect(data).toMatchObject({ amo, status: amo ? 0 : 1 });
            u.shares -= op.qty;
            if (amo) u.amoSells.push(op.qty);
            else u.balance += withCharges('sell', tradeValueMinor(priceToTicks(price), op.qty));
          }
          break;
        }
        case 'intraday': {
          // An intraday market buy in a session; squared off once the session closes
          // (after a 'wait' crosses the close, below). On a closed market: nothing (an AMO above).
          if (!open()) break;
          const u = users[op.u]!;
          const cost = withCharges('buy', tradeValueMinor(priceToTicks(price), op.qty), 'intraday');
          const ok = u.balance >= cost;
          const data = await money(
            u,
            'dealBuy',
            { tag: SYMBOL, count: op.qty, price, mold: 'stock', product: 'intraday' },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (!ok) break;
          expect(data).toMatchObject({ status: 1, product: 'intraday', amo: false });
          u.balance -= cost;
          u.shares += op.qty;
          u.intraday += op.qty;
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
          const applied = u.ipoApps.reduce((a, x) => a + x.count, 0);
          const overMax = applied + count > IPO_MAX;
          const ok = !overMax && u.balance >= amount;
          await money(
            u,
            'ipoBuy',
            { id: ipo.id, tag: ipo.symbol, count, price: IPO_PRICE },
            overMax ? 'errors.ipoUserMax' : ok ? 'ok' : 'errors.insufficientFunds',
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
              u.ipoShares += shares;
            }
            u.ipoApps = [];
          }
          ipo = await insertIpo(s, {
            issue_price: IPO_PRICE,
            min: 100,
            max: IPO_MAX,
            closesInDays: IPO_DAYS,
          });
          break;
        }
        case 'fund': {
          const u = users[op.u]!;
          const amount = unitsToMinor(op.units);
          const ok = u.balance >= amount;
          const data = await money(
            u,
            'fundPurchase',
            { project_id: fundId, amount: op.units },
            ok ? 'ok' : 'errors.insufficientFunds',
          );
          if (ok) {
            u.balance -= amount;
            u.fundPending.push({ id: data.id, side: 'buy', amount, units: 0, day: navDayFor(s.clock.now()) });
          }
          break;
        }
        case 'redeem': {
          const u = users[op.u]!;
          const free = u.fundHeld - u.fundReserved;
          const units = op.all ? free : Math.floor(free / 2);
          const expected = free === 0 ? 'errors.fundNoUnits' : units === 0 ? 'errors.fundUnits' : 'ok';
          const body = op.all
            ? { project_id: fundId, all: true }
            : { project_id: fundId, units: unitsText(units) };
          const data = await money(u, 'fundRedeem', body, expected);
          if (expected === 'ok') {
            u.fundReserved += units;
            u.fundPending.push({
              id: data.id,
              side: 'redeem',
              amount: 0,
              units,
              day: navDayFor(s.clock.now()),
            });
          }
          break;
        }
        case 'fundCancel': {
          const u = users[op.u]!;
          const order = u.fundPending[op.pick % Math.max(1, u.fundPending.length)];
          if (!order) break;
          const open = s.clock.now() < cutoffOf(order.day);
          await money(u, 'fundCancel', { id: order.id }, open ? 'ok' : 'errors.fundPastCutoff');
          if (open) {
            u.fundPending = u.fundPending.filter((o) => o !== order);
            if (order.side === 'buy') u.balance += order.amount;
            else u.fundReserved -= order.units;
          }
          break;
        }
        case 'strike': {
          // `days` on, then to the publication of the first pending order's NAV, then the NAV job:
          // every order whose NAV is out is struck, oldest first (NSE is shut at 21:00 IST).
          s.clock.advance(op.days * DAY_MS);
          await squareOffIfClosed();
          const first = Math.min(...users.flatMap((u) => u.fundPending.map((o) => publishedAt(o.day))));
          if (Number.isFinite(first) && first >= s.clock.now()) s.clock.advance(first + 1000 - s.clock.now());
          await squareOffIfClosed();
          await runJob(s.deps, JOBS.find((j) => j.name === 'funds:nav')!);
          publishedNav = fundNav.onOrBefore(latestNavDay(s.clock.now()))?.ticks ?? publishedNav;
          const now = s.clock.now();
          const due = users
            .flatMap((u) => u.fundPending.map((o) => ({ u, o })))
            .filter(({ o }) => publishedAt(o.day) <= now)
            .sort((x, y) => x.o.id - y.o.id);
          for (const { u, o } of due) {
            u.fundPending = u.fundPending.filter((x) => x !== o);
            const nav = fundNav.on(o.day);
            if (o.side === 'buy') {
              const units = unitsFor(o.amount - ppmOf(o.amount, FUND_STAMP_PPM), nav);
              u.fundLots.push({ day: o.day, units });
              u.fundHeld += units;
              continue;
            }
            // Exit load on the units of lots held fewer than FUND_LOAD_DAYS days, first in first out.
            let skip = u.fundRedeemed;
            let left = o.units;
            let loaded = 0;
            for (const lot of [...u.fundLots].sort((a, b) => a.day - b.day)) {
              const gone = Math.min(skip, lot.units);
              skip -= gone;
              const take = Math.min(lot.units - gone, left);
              if (o.day - lot.day < FUND_LOAD_DAYS) loaded += take;
              left -= take;
            }
            const value = unitsValue(o.units, nav);
            u.balance += value - ppmOf(unitsValue(loaded, nav), FUND_LOAD_PPM) - ppmOf(value, FUND_STT_PPM);
            u.fundRedeemed += o.units;
            u.fundHeld -= o.units;
            u.fundReserved -= o.units;
          }
          break;
        }
        case 'loan': {
          const u = users[op.u]!;
          const count = unitsToMinor(op.units);
          const ok = count <= CREDIT_LIMIT_MINOR - openCredit(u);
          const data = await money(u, 'loanApply', { count: op.units }, ok ? 'ok' : 'errors.loanOverLimit');
          if (ok) u.loans.push({ id: data.id, count, state: 1, disbursedAt: 0 });
          break;
        }
        case 'approve': {
          for (const u of users) {
            for (const l of u.loans.filter((x) => x.state === 1)) {
              const at = s.clock.now() - op.daysAgo * DAY_MS;
              expect(await withTx(s.deps.database, (trx) => disburseLoan(trx, l.id, at))).toBe(true);
              l.state = 4;
              l.disbursedAt = at;
              u.balance += l.count;
            }
          }
          break;
        }
        case 'repay': {
          const u = users[op.u]!;
          const loan = u.loans[op.pick % Math.max(1, u.loans.length)];
          if (!loan) break;
          // Repaying takes the principal and everything accrued by now (14 % a year since
          // disbursement, 0.05 % a day past the 90-day tenure), whether or not the job ran.
          const now = s.clock.now();
          const due =
            loan.count +
            loanInterestMinor(loan.count, 1400, wholeDays(loan.disbursedAt, now)) +
            lateChargeMinor(loan.count, 5, wholeDays(loan.disbursedAt + 90 * DAY_MS, now));
          const expected =
            loan.state !== 4 ? 'errors.loanNotUnpaid' : u.balance >= due ? 'ok' : 'errors.insufficientFunds';
          await money(u, 'loanRepay', { id: loan.id }, expected);
          if (expected === 'ok') {
            loan.state = 5;
            u.balance -= due;
          }
          break;
        }
        case 'accrue':
          // Interest moves the amount due, never the balance (the audit checks the loans' own ledger).
          await runJob(s.deps, JOBS.find((j) => j.name === 'loans:accrue')!);
          break;
        case 'replay': {
          if (!last) break;
          // The same key and body: the first answer again, and no money moves.
          const res = await s.call(last.name, {
            token: last.token,
            body: last.body,
            headers: last.key,
          });
          expect(res.body).toEqual(last.answer);
          expect(res.headers['idempotent-replay']).toBe('true');
          // The code a replay carries is checked again, and right: it clears the wrong ones.
          const sender = users.find((x) => x.token === last?.token);
          if (sender && (last.body as { stock_password?: string }).stock_password) sender.fails = 0;
          break;
        }
      }
    }

    await checkHeroes('end', users);
    // Every balance is what the rules say, seen through the app's own call.
    for (const u of users) {
      const res = await s.call('balance', { token: u.token });
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
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('status', '=', 2)
        .executeTakeFirst(),
    );
    const withdrawn = await sum(
      db
        .selectFrom('withdrawals')
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('status', 'in', ['n', 'y'])
        .executeTakeFirst(),
    );
    const borrowed = await sum(
      db
        .selectFrom('loans')
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('status', 'in', [4, 5])
        .executeTakeFirst(),
    );
    const repaid = await sum(
      db
        .selectFrom('loans')
        // Principal, interest and late charges.
        .select(sql<number>`sum(amount + interest + late_charge)`.as('v'))
        .where('user_id', 'in', ids)
        .where('status', '=', 5)
        .executeTakeFirst(),
    );
    const bought = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('side', '=', 'buy')
        // Stock orders filled or resting, and block/QIP lots bought (status 1 success).
        .where('kind', 'in', ['stock', 'bulk', 'finalize'])
        .where('status', 'in', [0, 1])
        .executeTakeFirst(),
    );
    const sold = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('side', '=', 'sell')
        .where('status', '=', 1)
        .executeTakeFirst(),
    );
    const inIpos = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('price_all').as('v'))
        .where('user_id', 'in', ids)
        .where('kind', '=', 'ipo')
        .where('side', '=', 'buy')
        .where('status', 'in', [1, 2])
        .executeTakeFirst(),
    );
    // Fund purchases paid (waiting for their NAV or allotted) and redemptions paid out, net of charges.
    const inFunds = await sum(
      db
        .selectFrom('fund_orders')
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('side', '=', 'buy')
        .where('status', 'in', ['active', 'completed'])
        .executeTakeFirst(),
    );
    const fromFunds = await sum(
      db
        .selectFrom('fund_orders')
        .select((eb) => eb.fn.sum<number>('amount').as('v'))
        .where('user_id', 'in', ids)
        .where('side', '=', 'redeem')
        .where('status', '=', 'completed')
        .executeTakeFirst(),
    );
    // Stock orders' charges: paid by fills, reserved by resting buys; price_all is the value.
    // A lot's sale pays a stock sell's, kept the same way.
    const charges = await sum(
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.sum<number>('fee').as('v'))
        .where('user_id', 'in', ids)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('kind', '=', 'stock'),
              eb.or([eb('status', '=', 1), eb.and([eb('status', '=', 0), eb('side', '=', 'buy')])]),
            ]),
            eb.and([eb('kind', '!=', 'stock'), eb('side', '=', 'sell'), eb('status', '=', 1)]),
          ]),
        )
        .executeTakeFirst(),
    );
    expect(cash).toBe(
      recharged + borrowed - withdrawn - repaid - bought + sold - inIpos - inFunds + fromFunds - charges,
    );
  }

  const runs = name === 'sqlite' ? 30 : 10;
  it.runIf(enabled)(
    `${runs} random sequences of money calls keep the ledger whole`,
    async () => {
      const seed = propertySeed();
      console.log(`${name}: seed ${seed} (PROPERTY_SEED=${seed} replays it)`);
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 8, maxLength: 30 }), async (ops) => {
          sequences += 1;
          await runSequence([...FUNDED, ...ops]);
        }),
        {
          numRuns: runs,
          seed,
          endOnFailure: true,
        },
      );
    },
    // The hero checks add about half again to the sequences' work.
    240_000,
  );
});
