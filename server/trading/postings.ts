import type { Kysely } from 'kysely';
import { tradeValueMinor } from '#shared/money';
import { BLOCK_STATUS, IPO_STATUS, type LedgerReason, STOCK_STATUS } from '#shared/status';
import type { ChargeSchedule } from '../config';
import type { DB } from '../db/schema';
import { post } from '../lib/ledger';
import type { Instrument } from '../market/provider';
import { type Charges, chargesFor } from './charges';

/**
 * An order's ledger postings, written once: every order path (engine.ts, stops.ts, matching.ts,
 * modify.ts, squareoff.ts, holdings.ts, ipo.ts) posts through these functions, and the ledger audit
 * (wallet/audit.ts) checks each order row against `expectedPostings`, the same rules read back from
 * the row's state. A change of what an order posts is made here, once, for both.
 *
 * - a buy filled at once pays its value (`buy…`) and its charges (one `transactionExpenses`);
 * - a resting buy reserves its value and charges at its limit in one `buy…` posting; a modify
 *   moves that reservation by the difference (`buy…` more, `orderRefund` less); a fill refunds the
 *   reservation down to the fill's value and pays the charges; cancel and expiry refund it whole;
 * - a sale (a stock sell, a square-off, a lot's sale) is credited its proceeds (`sell…`) and pays
 *   its charges;
 * - an IPO application freezes its amount (`ipoFreeze`); allotment refunds what was not allotted;
 * - a block/QIP lot pays its value (`buy…`) and a stock buy's charges (`blockBuyAmounts`).
 */

/** Which order a posting belongs to, and when. `kind` names a trade's reason (stock, forex, …). */
export interface OrderRef {
  userId: number;
  orderId: number;
  at: number;
  kind?: Instrument['kind'];
}

/** The ledger reason of a trade in an instrument of this kind (SPEC §3 Bill row reasons). */
export function tradeReason(kind: Instrument['kind'] | undefined, side: 'buy' | 'sell'): LedgerReason {
  switch (kind) {
    case 'forex':
      return side === 'buy' ? 'buyForex' : 'sellForex';
    case 'futures':
      return side === 'buy' ? 'buyFutures' : 'sellFutures';
    case 'treasury':
      return side === 'buy' ? 'buyTreasury' : 'sellTreasury';
    default:
      return side === 'buy' ? 'buyStock' : 'sellStock';
  }
}

function postFor(db: Kysely<DB>, ref: OrderRef, amount: number, reason: LedgerReason) {
  return post(db, { userId: ref.userId, amount, reason, refType: 'order', refId: ref.orderId, at: ref.at });
}

/** A fill's charges: one `transactionExpenses` posting naming the order (none when zero). */
export async function payCharges(db: Kysely<DB>, ref: OrderRef, charges: number): Promise<void> {
  if (charges > 0) await postFor(db, ref, -charges, 'transactionExpenses');
}

/** A buy filled at once: its value leaves as `buy…`, then its charges. */
export async function payBuy(db: Kysely<DB>, ref: OrderRef, value: number, charges: number): Promise<void> {
  await postFor(db, ref, -value, tradeReason(ref.kind, 'buy'));
  await payCharges(db, ref, charges);
}

/** A resting buy reserves what it may cost at its limit, value and charges, in one `buy…` posting. */
export async function reserveBuy(db: Kysely<DB>, ref: OrderRef, reserved: number): Promise<void> {
  await postFor(db, ref, -reserved, tradeReason(ref.kind, 'buy'));
}

/** A modified resting buy: its reservation moved by `diff` (more: `buy…`; less: `orderRefund`). */
export async function moveReservation(db: Kysely<DB>, ref: OrderRef, diff: number): Promise<void> {
  if (diff !== 0) await postFor(db, ref, -diff, diff > 0 ? tradeReason(ref.kind, 'buy') : 'orderRefund');
}

/**
 * A resting buy filled: the reservation is released down to the fill's value (the fill is at or
 * inside the limit, so never more), then the charges are paid as what they are.
 */
export async function settleReservedBuy(
  db: Kysely<DB>,
  ref: OrderRef,
  reserved: number,
  value: number,
  charges: number,
): Promise<void> {
  if (reserved > value) await postFor(db, ref, reserved - value, 'orderRefund');
  await payCharges(db, ref, charges);
}

/** A resting buy cancelled, expired or failed: its whole reservation comes back. */
export async function releaseBuy(db: Kysely<DB>, ref: OrderRef, reserved: number): Promise<void> {
  await postFor(db, ref, reserved, 'orderRefund');
}

/** A sale: its proceeds are credited (`sell…`, none when zero), then its charges are paid. */
export async function creditSale(
  db: Kysely<DB>,
  ref: OrderRef,
  proceeds: number,
  charges: number,
): Promise<void> {
  if (proceeds > 0) await postFor(db, ref, proceeds, tradeReason(ref.kind, 'sell'));
  await payCharges(db, ref, charges);
}

/** An IPO application freezes its amount until allotment. */
export async function freezeApplication(db: Kysely<DB>, ref: OrderRef, amount: number): Promise<void> {
  await postFor(db, ref, -amount, 'ipoFreeze');
}

/** Allotment refunds what was not allotted (all of it when nothing was). */
export async function refundApplication(db: Kysely<DB>, ref: OrderRef, refund: number): Promise<void> {
  if (refund > 0) await postFor(db, ref, refund, 'ipoRefund');
}

/**
 * What a block/QIP lot costs: its value at the rate, and the charges a stock buy of that instrument
 * and value pays (a block deal is an exchange trade like any other, so the same
 * brokerage, STT, exchange charge, SEBI fee, stamp duty and GST — charges.ts — replace the flat
 * 0.03 % fee it once paid).
 */
export function blockBuyAmounts(
  schedule: ChargeSchedule,
  instrument: Pick<Instrument, 'kind' | 'region'> | undefined,
  priceTicks: number,
  count: number,
  rate: number,
): { value: number; charges: Charges } {
  const value = tradeValueMinor(priceTicks, count, rate);
  return { value, charges: chargesFor(schedule, instrument, 'buy', value, 'delivery') };
}

/** What a stock order's resting buy holds: its value and charges at its limit. */
export const reservedBy = (o: { price_all: number; fee: number }) => o.price_all + o.fee;

/** The facts of an order row its postings follow from. */
export interface OrderFacts {
  kind: string;
  side: 'buy' | 'sell';
  status: number;
  /** Minor units (see OrderRow `price_all`, `fee`: a stock row keeps the value and its charges). */
  price_all: number;
  fee: number;
}

/**
 * What one group of an order's postings must be: those whose reason matches `reasons` are
 * `count` postings (or at least `min`, at most `max`) summing to `sum` (when given).
 */
export interface Expectation {
  what: string;
  reasons: RegExp;
  count?: number;
  min?: number;
  max?: number;
  sum?: number;
}

const BUY = /^buy/;
const SELL = /^sell/;
const REFUND = /^orderRefund$/;
const HELD = /^(buy|orderRefund$)/;
const CHARGES = /^transactionExpenses$/;
const FREEZE = /^ipoFreeze$/;
const IPO_REFUND = /^ipoRefund$/;
const IPO_MONEY = /^ipo(Freeze|Refund)$/;

const none = (what: string, reasons: RegExp): Expectation => ({ what, reasons, count: 0, sum: 0 });
const once = (what: string, reasons: RegExp, amount: number): Expectation => ({
  what,
  reasons,
  count: amount !== 0 ? 1 : 0,
  sum: amount,
});

/**
 * The postings an order row in its state implies, by the writers above: the ledger audit reads
 * them back. An unknown status is a problem of its own (a string).
 */
export function expectedPostings(o: OrderFacts): Expectation[] | string {
  const paid = once('charges', CHARGES, -o.fee);
  if (o.side === 'sell') {
    // A stock sell moves money only once filled; a lot's sale row is written when it is sold.
    const sold = o.kind !== 'stock' || o.status === STOCK_STATUS.success;
    if (!sold) return [none('sale proceeds', SELL), none('charges', CHARGES)];
    return [once('sale proceeds', SELL, o.price_all), paid];
  }
  if (o.kind === 'stock') {
    const base: Expectation = { what: 'buy', reasons: BUY, min: 1 };
    if (o.status === STOCK_STATUS.pending)
      return [base, { what: 'reservation', reasons: HELD, sum: -reservedBy(o) }, none('charges', CHARGES)];
    if (o.status === STOCK_STATUS.success)
      return [base, { what: 'net', reasons: HELD, sum: -o.price_all }, paid];
    return [
      base,
      { what: 'refund', reasons: REFUND, min: 1 },
      { what: 'a closed buy refunded exactly', reasons: HELD, sum: 0 },
      none('charges', CHARGES),
    ];
  }
  if (o.kind === 'ipo') {
    const freeze: Expectation = { what: 'ipoFreeze', reasons: FREEZE, count: 1 };
    if (o.status === IPO_STATUS.pending) return [freeze, none('refund of a pending application', IPO_REFUND)];
    if (o.status === IPO_STATUS.allotted)
      return [
        freeze,
        { what: 'ipoRefund', reasons: IPO_REFUND, max: 1 },
        { what: 'net', reasons: IPO_MONEY, sum: -o.price_all },
      ];
    if (o.status === IPO_STATUS.refunded)
      return [
        freeze,
        { what: 'ipoRefund', reasons: IPO_REFUND, count: 1 },
        { what: 'net', reasons: IPO_MONEY, sum: 0 },
      ];
    return `unknown IPO status ${o.status}`;
  }
  // Block trading / QIP: value and charges leave together, or the order is not a success.
  if (o.status !== BLOCK_STATUS.success) return [none('buy', BUY), none('fee', CHARGES)];
  return [
    { what: 'buy', reasons: BUY, count: 1, sum: -(o.price_all - o.fee) },
    once('charges', CHARGES, -o.fee),
  ];
}
