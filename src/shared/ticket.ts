import type { OrderProduct, OrderValidity } from './contract/trading';
import { priceToTicks, ticksToPrice } from './money';
import {
  checkSellQuantity,
  checkStockQuantity,
  DEFAULT_POSITION_SIZE,
  type PositionSize,
  parseQuantity,
  protectedLimit,
  quantityMaximum,
} from './rules';

/**
 * The order ticket's rules, written once for the app and the server: which fields go together
 * (`orderShapeError`), where a stop's and an OCO's prices may sit against the quote (`stopPriceError`,
 * `checkOco`), and the ticket itself — its fields as typed (`TicketState`, changed by
 * `ticketReducer`) and what they make with the market as the app knows it (`evaluateTicket`: the
 * choices in force, each field's error, why the order cannot be sent, and the order to send).
 * The server refuses what the ticket never sends with the same keys (server/trading/deals.ts,
 * stops.ts). Pure: no clock, no I/O.
 */

export type Side = 'buy' | 'sell';
/** The ticket's order types (an OCO is a GTT of the `oco` kind). */
export type TicketType = 'market' | 'limit' | 'sl' | 'slm' | 'gtt';
/** An order as the contract names it (dealBuy/dealSell `order_type`). */
export type WireType = TicketType | 'oco';
/** A GTT with one trigger, or OCO: a sell of a holding at a target or a stop, whichever first. */
export type GttKind = 'single' | 'oco';
export type Product = OrderProduct;
export type Validity = OrderValidity;

/** A GTT (and an OCO) is valid for 1 to 365 days. */
export const GTT_MAX_DAYS = 365;

/** The stock order fields of dealBuy/dealSell beside tag, count and mold. */
export interface OrderFields {
  price: number;
  order_type?: WireType;
  trigger?: number;
  valid_days?: number;
  stop_trigger?: number;
  stop_price?: number;
  product?: Product;
  validity?: Validity;
}

const waitsForTrigger = (type: WireType | undefined) =>
  type === 'sl' || type === 'slm' || type === 'gtt' || type === 'oco';

/**
 * Which fields go together, whatever the prices: the first rule an order breaks (an i18n key), or
 * null. Only an OCO has a stop leg; an OCO sells a holding; a GTT or OCO has its validity in days
 * and lives for days (never intraday); a stop or GTT needs its trigger; an order that waits for a
 * trigger is never IOC.
 */
export function orderShapeError(side: Side, o: OrderFields): string | null {
  const type = o.order_type;
  if (type !== 'oco' && (o.stop_trigger !== undefined || o.stop_price !== undefined)) return 'errors.ocoOnly';
  if (type === 'oco') {
    if (side === 'buy') return 'errors.ocoSellOnly';
    if (o.trigger === undefined || o.stop_trigger === undefined || o.stop_price === undefined)
      return 'errors.ocoBothTriggers';
  }
  if (o.valid_days !== undefined && ((type !== 'gtt' && type !== 'oco') || o.valid_days > GTT_MAX_DAYS))
    return 'errors.gttValidity';
  if ((type === 'sl' || type === 'slm' || type === 'gtt') && o.trigger === undefined)
    return 'errors.triggerMissing';
  if (o.product === 'intraday' && (type === 'gtt' || type === 'oco')) return 'errors.invalidInput';
  if (o.validity === 'ioc' && waitsForTrigger(type)) return 'errors.invalidInput';
  return null;
}

/**
 * A stop's or GTT's trigger and limit against the quote (all in one unit: ticks on the server,
 * prices in the app): a stop triggers on a move to come (a buy above the quote, a sell below), a
 * GTT on either side but never at it; a stop-loss's or GTT's limit is at or beyond its trigger (a
 * buy's at or above, a sell's at or below). `limit` null: a stop-loss-market (its limit is the
 * trigger's protection).
 */
export function stopPriceError(
  side: Side,
  type: 'sl' | 'slm' | 'gtt',
  trigger: number,
  limit: number | null,
  quote: number,
): string | null {
  if (type === 'gtt' ? trigger === quote : side === 'buy' ? trigger <= quote : trigger >= quote)
    return type === 'gtt' ? 'errors.gttTrigger' : 'errors.triggerSide';
  if (type === 'slm') return null;
  if (limit === null) return 'trade.limit.invalid';
  return (side === 'buy' ? limit < trigger : limit > trigger) ? 'errors.triggerLimit' : null;
}

/** What is wrong with each field of an OCO (an i18n key), or null; all null when it may be sent. */
export interface OcoErrors {
  target: string | null;
  targetLimit: string | null;
  stop: string | null;
  stopLimit: string | null;
}

/**
 * An OCO's legs (a sell): both given, the target above the quote and the stop below it, each limit
 * at or below its trigger. `last` null (no price yet): only what can be said without it.
 */
export function checkOco(
  legs: { target: number | null; targetLimit: number | null; stop: number | null; stopLimit: number | null },
  last: number | null,
): OcoErrors {
  const { target, targetLimit, stop, stopLimit } = legs;
  return {
    target:
      target === null
        ? 'errors.ocoBothTriggers'
        : last !== null && target <= last
          ? 'errors.ocoTarget'
          : null,
    targetLimit:
      targetLimit === null
        ? 'trade.limit.invalid'
        : target !== null && targetLimit > target
          ? 'errors.triggerLimit'
          : null,
    stop: stop === null ? 'errors.ocoBothTriggers' : last !== null && stop >= last ? 'errors.ocoStop' : null,
    stopLimit:
      stopLimit === null
        ? 'trade.limit.invalid'
        : stop !== null && stopLimit > stop
          ? 'errors.triggerLimit'
          : null,
  };
}

/** The first of an OCO's errors, in the order the server checks them. */
export function firstOcoError(e: OcoErrors): string | null {
  return e.target ?? e.stop ?? e.targetLimit ?? e.stopLimit;
}

/**
 * A typed price: a positive decimal with at most the instrument's decimals. The server takes it as
 * the price the user saw, so it is sent as typed, never rounded.
 */
export function parseLimitPrice(text: string, decimals: number): number | null {
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > decimals) return null;
  const price = Number(text.trim());
  return price > 0 ? price : null;
}

/** A GTT's validity as typed: whole days, 1 to GTT_MAX_DAYS. */
export function parseValidDays(text: string): number | null {
  return /^\d{1,3}$/.test(text) && Number(text) >= 1 && Number(text) <= GTT_MAX_DAYS ? Number(text) : null;
}

/** The ticket's fields as the user chose and typed them. */
export interface TicketState {
  orderType: TicketType;
  gttKind: GttKind;
  product: Product;
  validity: Validity;
  size: PositionSize;
  qty: string;
  /** The limit (limit, stop-loss, GTT; an OCO's target limit). */
  limit: string;
  /** A stop's or GTT's trigger; an OCO's target. */
  trigger: string;
  /** An OCO's stop and its limit. */
  stop: string;
  stopLimit: string;
  days: string;
  /** The user has typed in the limit field: an empty one stays empty (never refilled under them). */
  limitEdited: boolean;
}

export const INITIAL_TICKET: TicketState = {
  orderType: 'market',
  gttKind: 'single',
  product: 'delivery',
  validity: 'day',
  size: DEFAULT_POSITION_SIZE,
  qty: '1',
  limit: '',
  trigger: '',
  stop: '',
  stopLimit: '',
  days: String(GTT_MAX_DAYS),
  limitEdited: false,
};

type TextField = 'qty' | 'limit' | 'trigger' | 'stop' | 'stopLimit' | 'days';

export type TicketAction =
  /** A type chosen; a limit order's price starts at the last price (`last`, shown with `decimals`). */
  | { type: 'orderType'; value: TicketType; last: number | null; decimals: number }
  | { type: 'text'; field: TextField; value: string }
  /**
   * A limit order whose price is still empty and untouched starts at the last price: a limit the
   * ticket chose itself (a price that is not live), or one chosen before the quote arrived.
   */
  | { type: 'prefill'; last: number; decimals: number }
  | { type: 'gttKind'; value: GttKind }
  | { type: 'product'; value: Product }
  | { type: 'validity'; value: Validity }
  | { type: 'size'; value: PositionSize }
  /** The stepper: one unit, kept within 1..max. */
  | { type: 'step'; delta: 1 | -1; max: number };

/** What the user typed, kept to the characters each field takes. */
const KEEP: Record<TextField, RegExp> = {
  qty: /\D/g,
  limit: /[^\d.]/g,
  trigger: /[^\d.]/g,
  stop: /[^\d.]/g,
  stopLimit: /[^\d.]/g,
  days: /\D/g,
};

export function ticketReducer(state: TicketState, action: TicketAction): TicketState {
  switch (action.type) {
    case 'orderType': {
      const prefill = action.value === 'limit' && state.limit === '' && action.last !== null;
      return {
        ...state,
        orderType: action.value,
        limit: prefill ? (action.last as number).toFixed(action.decimals) : state.limit,
      };
    }
    case 'text':
      return {
        ...state,
        [action.field]: action.value.replace(KEEP[action.field], ''),
        limitEdited: state.limitEdited || action.field === 'limit',
      };
    case 'prefill':
      return state.limit === '' && !state.limitEdited
        ? { ...state, limit: action.last.toFixed(action.decimals) }
        : state;
    case 'step': {
      const qty = parseQuantity(state.qty);
      const from = qty ?? 1 - action.delta;
      const next = Math.min(Math.max(action.max, 1), Math.max(1, from + action.delta));
      return { ...state, qty: String(next) };
    }
    default:
      return { ...state, [action.type]: action.value };
  }
}

/** What the ticket knows of the market and the account, from the server's answers. */
export interface TicketMarket {
  side: Side;
  /** The last price, or null before it is known. */
  last: number | null;
  decimals: number;
  /** The price is live (not stale): a market order may be placed on it. */
  live: boolean;
  /** The market trades now (the server's session). */
  open: boolean;
  /** Units free to sell. */
  held: number;
  /** The largest quantity the balance pays for (the server's orderQuote), or null before it answers. */
  affordable: number | null;
  /**
   * How far from the quote a limit may rest, in basis points (the server's LIMIT_BAND_BPS, from
   * /v2/config), or undefined while unknown: then only the server says so.
   */
  bandBps?: number;
}

/** The ticket as it stands: the choices in force, each field's error, and the order it sends. */
export interface TicketView {
  orderType: TicketType;
  gttKind: GttKind;
  product: Product;
  validity: Validity;
  marketAllowed: boolean;
  intradayAllowed: boolean;
  iocAllowed: boolean;
  stop: boolean;
  gtt: boolean;
  oco: boolean;
  /** The order has a limit price field (limit, stop-loss, GTT). */
  limited: boolean;
  /** A market or limit order on a closed market: an after-market order, sent at the open. */
  amo: boolean;
  qty: number | null;
  limit: number | null;
  trigger: number | null;
  stopTrigger: number | null;
  stopLimit: number | null;
  validDays: number | null;
  max: ReturnType<typeof quantityMaximum>;
  qtyError: string | null;
  limitError: string | null;
  /** The band a resting limit must stay within, in percent (`errors.limitOutsideBand`'s `pct`). */
  bandPct: number | null;
  ocoErrors: OcoErrors | null;
  /** The price sent: what the user saw (the limit, or the last price). */
  price: number | null;
  /** The price the server's figures are asked at (null: its quote); an AMO's protection is the server's. */
  quotedAt: number | null;
  /** Why the order cannot be sent now (an i18n key), or null. */
  blocked: string | null;
  /** The order to send, or null while `blocked`. */
  input: (OrderFields & { count: number }) | null;
}

/**
 * A day limit the server would refuse to rest (server/trading/placement.ts `assertMayRest`): more than
 * `bandBps` from the quote on the side where it waits — a buy under the market, a sell over it (one
 * that crosses the market fills at once, and is not held to the band). An after-market order rests
 * until the open whatever its side, so either way counts.
 */
export function restsOutsideBand(
  side: Side,
  limitTicks: number,
  quoteTicks: number,
  bandBps: number,
  afterMarket: boolean,
): boolean {
  const waits = afterMarket || (side === 'buy' ? limitTicks < quoteTicks : limitTicks > quoteTicks);
  return waits && Math.abs(limitTicks - quoteTicks) * 10_000 > quoteTicks * bandBps;
}

export function evaluateTicket(s: TicketState, m: TicketMarket): TicketView {
  // A price that is not live allows only a limit; stops too, as they trigger at later quotes.
  const orderType: TicketType = m.live || s.orderType !== 'market' ? s.orderType : 'limit';
  const stop = orderType === 'sl' || orderType === 'slm' || orderType === 'gtt';
  const gtt = orderType === 'gtt';
  const gttKind: GttKind = m.side === 'sell' ? s.gttKind : 'single';
  const oco = gtt && gttKind === 'oco';
  const plain = orderType === 'market' || orderType === 'limit';
  // A GTT lives for days: delivery only. IOC: market and limit, while the market trades.
  const intradayAllowed = !gtt;
  const product: Product = intradayAllowed ? s.product : 'delivery';
  const iocAllowed = plain && m.open;
  const validity: Validity = iocAllowed ? s.validity : 'day';
  const amo = plain && !m.open;
  const limited = orderType === 'limit' || orderType === 'sl' || gtt;
  const limit = limited ? parseLimitPrice(s.limit, m.decimals) : null;
  const trigger = stop ? parseLimitPrice(s.trigger, m.decimals) : null;
  const stopTrigger = oco ? parseLimitPrice(s.stop, m.decimals) : null;
  const stopLimit = oco ? parseLimitPrice(s.stopLimit, m.decimals) : null;
  const validDays = gtt ? parseValidDays(s.days) : null;
  const ocoErrors = oco
    ? checkOco({ target: trigger, targetLimit: limit, stop: stopTrigger, stopLimit }, m.last)
    : null;
  const limitError =
    limited && limit === null
      ? 'trade.limit.invalid'
      : stop && trigger === null
        ? 'errors.triggerMissing'
        : orderType === 'limit' &&
            validity === 'day' &&
            limit !== null &&
            m.last !== null &&
            m.bandBps !== undefined &&
            restsOutsideBand(m.side, priceToTicks(limit), priceToTicks(m.last), m.bandBps, amo)
          ? 'errors.limitOutsideBand'
          : null;
  const price = limited ? limit : m.last;
  // Where the server prices the order: its limit, a stop-loss-market's protected trigger, an OCO's
  // stop limit (the least it would sell for), an AMO market order's last price (the server adds the
  // protection it holds on top, named: orderQuote `protection`).
  const protect = (p: number) => ticksToPrice(protectedLimit(m.side, priceToTicks(p)));
  const quotedAt = oco
    ? stopLimit
    : (limit ?? (trigger !== null ? protect(trigger) : amo && m.last !== null ? m.last : null));
  const qty = parseQuantity(s.qty);
  const canSell = m.held > 0;
  const max = quantityMaximum(s.size, m.side, m.side === 'buy' ? m.affordable : canSell ? m.held : null);
  const qtyError =
    checkStockQuantity(qty, s.size) ??
    (qty !== null && m.side === 'sell' && canSell ? checkSellQuantity(qty, m.held) : null) ??
    (qty !== null && m.side === 'buy' && m.affordable !== null && qty > m.affordable
      ? 'trade.qty.maxFunds'
      : null);
  const blocked =
    (m.side === 'sell' && !canSell ? 'trade.why.noShares' : null) ??
    qtyError ??
    limitError ??
    (ocoErrors ? firstOcoError(ocoErrors) : null) ??
    (gtt && validDays === null ? 'errors.gttValidity' : null) ??
    (price === null ? 'trade.why.noPrice' : null);
  const wire: WireType = oco ? 'oco' : orderType;
  const input =
    blocked !== null || qty === null || price === null
      ? null
      : {
          count: qty,
          price,
          order_type: wire,
          ...(stop && trigger !== null ? { trigger } : {}),
          ...(oco && stopTrigger !== null && stopLimit !== null
            ? { stop_trigger: stopTrigger, stop_price: stopLimit }
            : {}),
          ...(gtt && validDays !== null ? { valid_days: validDays } : {}),
          product,
          validity,
        };
  return {
    orderType,
    gttKind,
    product,
    validity,
    marketAllowed: m.live,
    intradayAllowed,
    iocAllowed,
    stop,
    gtt,
    oco,
    limited,
    amo,
    qty,
    limit,
    trigger,
    stopTrigger,
    stopLimit,
    validDays,
    max,
    qtyError,
    limitError,
    bandPct: m.bandBps === undefined ? null : m.bandBps / 100,
    ocoErrors,
    price,
    quotedAt,
    blocked,
    input,
  };
}
