import { useEffect, useReducer, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { useConfig } from '../../api/useConfig';
import type { OrderRow } from '../../shared/contract/trading';
import {
  isMarketOpen,
  lastSession,
  nextSession,
  type ScheduleId,
  scheduleOf,
} from '../../shared/market-hours';
import {
  checkStockQuantity,
  holdingTypeOfMarket,
  POLL_MS,
  type PositionSize,
  STOCK_QTY_MAX,
  STOCK_QTY_MIN,
} from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import {
  evaluateTicket,
  type GttKind,
  INITIAL_TICKET,
  type Product,
  type Side,
  type TicketMarket,
  type TicketType,
  ticketReducer,
  type Validity,
} from '../../shared/ticket';
import { useNow, useServerNow } from '../../ui/clock';
import { freshness } from '../../ui/freshness';
import { DEPTH_POLL_MS } from '../_parts/market/DepthLadder';

export type { GttKind, Product, Side, Validity } from '../../shared/ticket';
export type OrderType = TicketType;

/** The largest page the holdings call gives: the position of this symbol is looked up in it. */
const POSITIONS_LIMIT = 100;

/**
 * The buy/sell screen (SPEC §2, §5): live price every 3 s, the user's position and pending orders
 * in this symbol, and the ticket — its fields kept by `ticketReducer` and read by `evaluateTicket`
 * (#shared/ticket: the rules the server checks too) against what the server says of the market.
 *
 * Every money figure before the fill — value, each charge, the total, the balance and what it
 * affords — is the server's `orderQuote` for the order as typed (charges are computed
 * once, on the server); the fill is the server's too, at its quote (DESIGN rule 3).
 */
export function useStockTrading() {
  const { limitBandBps } = useConfig();
  const params = useParams<{ symbol: string; market: string; name?: string }>();
  const symbol = params.symbol ?? '';
  const [search, setSearch] = useSearchParams();
  const side: Side = search.get('type') === 'sell' ? 'sell' : 'buy';

  const quote = useWatch('quote', { symbol }, POLL_MS.stockTrading);
  const market = quote.data?.market ?? params.market ?? '';
  const kind = holdingTypeOfMarket(market);
  const positions = useWatch(
    'holdings',
    { type: kind, page: 1, limit: POSITIONS_LIMIT },
    POLL_MS.stockTrading,
  );
  const pending = useWatch('orderList', { tag: symbol, status: STOCK_STATUS.pending }, POLL_MS.stockTrading);
  // The same poll as the order book on this screen (one request for both).
  const depth = useWatch('depth', symbol ? { symbol } : null, DEPTH_POLL_MS);
  // The position itself: a lot of the same stock (sold whole, from Holdings) is not what the ticket sells.
  const position = positions.data?.rows.find((r) => r.stock === symbol && !r.lot) ?? null;

  const [fields, dispatch] = useReducer(ticketReducer, INITIAL_TICKET);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [filled, setFilled] = useState<OrderRow | null>(null);
  const buy = useMoneyCall('dealBuy');
  const sell = useMoneyCall('dealSell');

  // No market order on a price that is not live: limit only, and the quote is fetched
  // afresh before the confirmation.
  const now = useNow();
  // The server's clock: a price's time and a market's session are the server's, not the phone's.
  const serverNow = useServerNow();
  const q = quote.data;
  const quoteTier = q
    ? freshness({
        at: q.as_of,
        fetchedAt: quote.updatedAt,
        now,
        serverNow,
        intervalMs: quote.intervalMs,
        stale: quote.stale,
        schedule: scheduleOf(q.market, q.region),
      })
    : 'stale';
  // Open or closed is the server's (its clock decides what an order does), from the depth poll the
  // ticket's order book makes anyway; until it answers, the trading hours on the server's clock.
  const session = marketSession(
    q ? scheduleOf(q.market, q.region) : scheduleOf(market, undefined),
    serverNow,
    depth.data?.session,
  );
  const decimals = q?.decimals ?? 2;
  const available = position?.available ?? 0;
  const marketOf = (affordable: number | null): TicketMarket => ({
    side,
    last: q?.price ?? null,
    decimals,
    live: quoteTier !== 'stale',
    open: session.open,
    held: available,
    affordable,
    bandBps: limitBandBps,
  });
  // The order as typed, before the server's figures: what to ask them for.
  const draft = evaluateTicket(fields, marketOf(null));
  // The server's figures for this order; a quantity outside SPEC's range asks for one unit, which
  // still answers the balance, the shares held and what the balance affords.
  const specQty =
    draft.qty !== null && checkStockQuantity(draft.qty, 'full') === null ? draft.qty : STOCK_QTY_MIN;
  const asked =
    symbol && (draft.orderType === 'market' || draft.quotedAt !== null)
      ? {
          tag: symbol,
          side,
          count: specQty,
          product: draft.product,
          // Market or limit: on a closed market a market buy is priced with its protection.
          ...(draft.orderType === 'market' || draft.orderType === 'limit'
            ? { order_type: draft.orderType }
            : {}),
          ...(draft.quotedAt !== null ? { price: draft.quotedAt } : {}),
        }
      : null;
  const ticket = useWatch('orderQuote', asked, POLL_MS.stockTrading);
  const t = ticket.data;
  // What the balance affords depends on the price asked: an answer for another price (the poll keeps
  // the last one until the next arrives) is no maximum for this one, so it is being checked.
  const priced = t && t.side === side && (draft.quotedAt === null || t.price === draft.quotedAt) ? t : null;
  const maxPending = side === 'buy' && asked !== null && priced === null;
  const view = evaluateTicket(fields, marketOf(side === 'buy' ? (priced?.affordable ?? null) : null));
  // The answer shown must be for this very order (a poll keeps the last one until the next arrives).
  const figures =
    t && t.side === side && t.count === view.qty && (view.quotedAt === null || t.price === view.quotedAt)
      ? t
      : null;

  // A limit order's price starts at the last price whenever the ticket has one and the user has not
  // typed there: a limit forced by a price that is not live, or chosen before the quote arrived.
  const last = q?.price ?? null;
  const wantsPrefill = view.orderType === 'limit' && fields.limit === '' && !fields.limitEdited;
  useEffect(() => {
    if (wantsPrefill && last !== null) dispatch({ type: 'prefill', last, decimals });
  }, [wantsPrefill, last, decimals]);

  function setSide(next: Side) {
    setSearch(next === 'sell' ? { type: 'sell' } : {}, { replace: true });
    setFilled(null);
    setFailure(null);
  }

  function openConfirm() {
    if (view.blocked !== null) return;
    if (!view.marketAllowed) quote.reload();
    setFailure(null);
    setFilled(null);
    setConfirming(true);
  }

  function closeConfirm() {
    setConfirming(false);
    setFailure(null);
    setFilled(null);
  }

  async function submit() {
    if (view.input === null) return;
    setBusy(true);
    setFailure(null);
    const input = { tag: symbol, mold: 'stock' as const, ...view.input };
    const result = side === 'buy' ? await buy(input) : await sell(input);
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    setFilled(result.data);
    positions.reload();
    pending.reload();
  }

  return {
    ...view,
    maxPending,
    call: side === 'buy' ? buy : sell,
    symbol,
    name: params.name ?? q?.name ?? symbol,
    market,
    side,
    setSide,
    quote,
    position,
    positions,
    pending,
    /** The fields as typed, and their changes. */
    fields,
    set: (field: 'qty' | 'limit' | 'trigger' | 'stop' | 'stopLimit' | 'days', value: string) =>
      dispatch({ type: 'text', field, value }),
    setOrderType: (value: TicketType) =>
      dispatch({ type: 'orderType', value, last: q?.price ?? null, decimals }),
    setGttKind: (value: GttKind) => dispatch({ type: 'gttKind', value }),
    setProduct: (value: Product) => dispatch({ type: 'product', value }),
    setValidity: (value: Validity) => dispatch({ type: 'validity', value }),
    setSize: (value: PositionSize) => dispatch({ type: 'size', value }),
    step: (delta: 1 | -1) => dispatch({ type: 'step', delta, max: view.max.qty }),
    size: fields.size,
    positionMax: STOCK_QTY_MAX[fields.size],
    canSell: available > 0,
    ticket,
    figures,
    session,
    decimals,
    region: q?.region ?? 'IN',
    confirming,
    openConfirm,
    closeConfirm,
    submit,
    busy,
    failure,
    filled,
  };
}

/**
 * The instrument's market now: open or not, today's close (or the last one) and the next open, the
 * exchange's times (shown in its zone, labelled: src/shared/format.ts).
 */
export interface MarketSession {
  schedule: ScheduleId;
  open: boolean;
  /** The close of the session running now, or of the last one. */
  close: number;
  /** The next session's open. */
  nextOpen: number;
}

export function marketSession(
  schedule: ScheduleId,
  now: number,
  server?: { open: boolean; opens_at: number | null; closes_at: number },
): MarketSession {
  const open = server ? server.open : isMarketOpen({ schedule }, now);
  return {
    schedule,
    open,
    close: server ? server.closes_at : lastSession(schedule, now).close,
    nextOpen: server?.opens_at ?? nextSession(schedule, now).open,
  };
}

/** The ticket's state and actions, handed to each part of the screen. */
export type Ticket = ReturnType<typeof useStockTrading>;
