import type { OrderRow } from '../../../shared/contract/trading';
import { type CurrencyDisplay, formatMoney } from '../../../shared/format';
import { MONEY_SCALE, PRICE_SCALE, priceToTicks } from '../../../shared/money';
import { IPO_QUANTITY_STATUSES } from '../../../shared/status';
import type { Tone } from '../../../ui';
import { ORDER_TYPE_LABEL, orderTypeOf } from './ModifyOrderSheet';
import { filledQuantity, OUTCOME, type Outcome, orderOutcome, outcomeReason } from './outcome';

/** What a lot or an IPO application is, in the place a stock order names its type. */
const MOLD_TYPE = {
  ipo: 'records.row.ipo',
  bulk: 'records.row.block',
  finalize: 'records.row.qip',
} as const;

/**
 * How one order reads in a list, every mold alike: its type, product and validity words, what
 * filled of it, the price that describes it, and its status from the server's final state with the
 * reason it ended unfilled. Message keys and numbers only: the row and its detail translate them.
 */
interface OrderLineView {
  outcome: Outcome;
  statusKey: string;
  tone: Tone;
  typeKey: string;
  productKey: string;
  /** A stock order's validity; a lot or an application is settled at once and has none. */
  validityKey: string | null;
  filled: number;
  /** Null where SPEC hides an IPO order's quantity (only statuses 0 and 2 show it). */
  count: number | null;
  /** Null while an armed OCO's legs carry the prices. */
  price: number | null;
  /** Why a cancelled, expired or rejected order did not fill; null otherwise. */
  reasonKey: string | null;
  /** The same, short enough for its row (the detail says it in full). */
  shortReasonKey: string | null;
}

/** A row's few words for the reasons whose full sentence is the detail's. */
const SHORT_REASON: Record<string, string> = {
  'errors.iocUnfilled': 'records.reason.iocUnfilled',
  'errors.iocMarketClosed': 'records.reason.iocMarketClosed',
  'trade.result.cancelledHint': 'records.reason.byYou',
  'trade.result.expiredHint': 'records.reason.expired',
};

export function orderLine(order: OrderRow): OrderLineView {
  const outcome = orderOutcome(order);
  const stock = order.mold === 'stock';
  const reasonKey = outcome === 'filled' || outcome === 'pending' ? null : outcomeReason(order);
  const count = order.mold === 'ipo' && !IPO_QUANTITY_STATUSES.includes(order.status) ? null : order.count;
  return {
    outcome,
    statusKey: OUTCOME[outcome].status,
    tone: OUTCOME[outcome].tone,
    typeKey: order.mold === 'stock' ? ORDER_TYPE_LABEL[orderTypeOf(order)] : MOLD_TYPE[order.mold],
    productKey: order.product === 'intraday' ? 'trade.product.intraday' : 'trade.product.delivery',
    validityKey: stock ? (order.validity === 'ioc' ? 'trade.validity.ioc' : 'trade.validity.day') : null,
    filled: filledQuantity(order),
    count,
    price: linePrice(order, outcome),
    reasonKey,
    shortReasonKey: reasonKey === null ? null : (SHORT_REASON[reasonKey] ?? reasonKey),
  };
}

/**
 * The one price that says what an order is: a fill's price (a sale's sell price), else the limit it
 * rests or rested at. An armed OCO has two limits and none is the order's yet.
 */
function linePrice(order: OrderRow, outcome: Outcome): number | null {
  const sell = order.state === 'sell';
  if (outcome === 'filled') return sell && order.sell_price !== null ? order.sell_price : order.price;
  if (order.mold !== 'stock') return order.price;
  if (order.order_type === 'oco' && order.fired_leg === null) return null;
  return order.limit_price ?? order.price;
}

/**
 * A per-unit price as money: prices are exact to 1/10,000 (money.ts PRICE_SCALE), a rupee amount
 * is shown to the paisa, half up — through the one money formatter, so no price reads "₹1,969.0960".
 */
export function priceAsMoney(price: number, currency: CurrencyDisplay): string {
  return formatMoney(Math.round(priceToTicks(price) / (PRICE_SCALE / MONEY_SCALE)), currency);
}
