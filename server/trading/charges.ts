import type { ChargesBreakdown, OrderProduct } from '#shared/contract/trading';
import { feeMinor, fromMinor, perCroreOfMinor } from '#shared/money';
import type { ChargeSchedule } from '../config';
import type { Instrument } from '../market/provider';

/** The order columns that keep each charge of a fill (`ch_*`, added by migration 048). */
export { CHARGE_COLUMNS } from '../db/migrations/048_order_charges';

/**
 * The charges model: what an executed stock/forex/futures/treasury order costs beyond its
 * value, computed here only — the quote call, the fill and the contract note all use these
 * functions, and the app shows their figures, never its own.
 *
 * Each component is a rate of the order's value in account currency (minor units), rounded HALF_UP
 * to the minor unit on its own; GST is 18 % of the three rounded service charges (brokerage,
 * exchange charge, SEBI fee) and is rounded once more. Brokerage is capped per order.
 *
 * STT, stamp duty, the exchange charge and the SEBI fee are Indian levies on securities traded on
 * an Indian exchange, so they apply to instruments of region IN and kind stock only; every other
 * instrument (US stocks, forex, futures, treasury) pays brokerage and its GST.
 *
 * The product decides two of them: a delivery order pays STT on both sides and the
 * delivery stamp duty on a buy; an intraday order — squared off the same session, never delivered —
 * pays the non-delivery STT on its sell side only and the non-delivery stamp duty on its buy.
 */

/** Charges of one order, minor units. */
export interface Charges {
  brokerage: number;
  stt: number;
  exchange: number;
  sebi: number;
  stamp: number;
  gst: number;
  total: number;
}

const NO_CHARGES: Charges = { brokerage: 0, stt: 0, exchange: 0, sebi: 0, stamp: 0, gst: 0, total: 0 };

/** Whether the Indian exchange levies (STT, stamp, exchange charge, SEBI fee) apply to an instrument. */
function leviesApply(instrument: Pick<Instrument, 'kind' | 'region'> | undefined): boolean {
  return instrument?.kind === 'stock' && instrument.region === 'IN';
}

/** The STT and stamp-duty rates (per crore) of one side of one product. */
function productRates(s: ChargeSchedule, side: 'buy' | 'sell', product: OrderProduct) {
  if (product === 'intraday')
    return {
      stt: side === 'sell' ? s.sttIntradayPerCrore : 0,
      stamp: side === 'buy' ? s.stampIntradayPerCrore : 0,
    };
  return { stt: s.sttPerCrore, stamp: side === 'buy' ? s.stampPerCrore : 0 };
}

export function computeCharges(
  s: ChargeSchedule,
  side: 'buy' | 'sell',
  valueMinor: number,
  levies: boolean,
  product: OrderProduct = 'delivery',
): Charges {
  if (valueMinor <= 0) return NO_CHARGES;
  const rates = productRates(s, side, product);
  const brokerage = Math.min(perCroreOfMinor(valueMinor, s.brokeragePerCrore), s.brokerageMaxMinor);
  const stt = levies ? perCroreOfMinor(valueMinor, rates.stt) : 0;
  const exchange = levies ? perCroreOfMinor(valueMinor, s.exchangePerCrore) : 0;
  const sebi = levies ? perCroreOfMinor(valueMinor, s.sebiPerCrore) : 0;
  const stamp = levies ? perCroreOfMinor(valueMinor, rates.stamp) : 0;
  const gst = feeMinor(brokerage + exchange + sebi, s.gstBps);
  return {
    brokerage,
    stt,
    exchange,
    sebi,
    stamp,
    gst,
    total: brokerage + stt + exchange + sebi + stamp + gst,
  };
}

/**
 * The charges of an order of `product` in `instrument` worth `valueMinor`, by the server's
 * configured schedule. The product is required: every fill knows whether it is delivery or intraday.
 */
export function chargesFor(
  schedule: ChargeSchedule,
  instrument: Pick<Instrument, 'kind' | 'region'> | undefined,
  side: 'buy' | 'sell',
  valueMinor: number,
  product: OrderProduct,
): Charges {
  return computeCharges(schedule, side, valueMinor, leviesApply(instrument), product);
}

/** The order columns that keep a fill's charges (migration 048): the contract note reads them back. */
export function chargeColumns(c: Charges) {
  return {
    fee: c.total,
    ch_brokerage: c.brokerage,
    ch_stt: c.stt,
    ch_exchange: c.exchange,
    ch_sebi: c.sebi,
    ch_stamp: c.stamp,
    ch_gst: c.gst,
  };
}

export function chargesOfRow(r: {
  ch_brokerage: number;
  ch_stt: number;
  ch_exchange: number;
  ch_sebi: number;
  ch_stamp: number;
  ch_gst: number;
}): Charges {
  const c = {
    brokerage: Number(r.ch_brokerage),
    stt: Number(r.ch_stt),
    exchange: Number(r.ch_exchange),
    sebi: Number(r.ch_sebi),
    stamp: Number(r.ch_stamp),
    gst: Number(r.ch_gst),
  };
  return { ...c, total: c.brokerage + c.stt + c.exchange + c.sebi + c.stamp + c.gst };
}

export function toBreakdown(c: Charges): ChargesBreakdown {
  return {
    brokerage: fromMinor(c.brokerage),
    stt: fromMinor(c.stt),
    exchange: fromMinor(c.exchange),
    sebi: fromMinor(c.sebi),
    stamp: fromMinor(c.stamp),
    gst: fromMinor(c.gst),
    total: fromMinor(c.total),
  };
}

/**
 * The largest quantity (≤ `cap`) whose value plus charges a balance covers at `priceTicks`: what
 * "the balance affords" on the ticket. Value and charges only grow with the quantity.
 */
export function affordableQuantity(balanceMinor: number, cap: number, cost: (qty: number) => number): number {
  let lo = 0;
  let hi = cap;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= balanceMinor) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
