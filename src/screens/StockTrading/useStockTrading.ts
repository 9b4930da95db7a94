import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { currencyFor, useConfig } from '../../api/useConfig';
import type { OrderRow } from '../../shared/contract/trading';
import { conversionRateTicks, feeMinor, priceToTicks, tradeValueMinor } from '../../shared/money';
import {
  checkSellQuantity,
  checkStockQuantity,
  DEFAULT_POSITION_SIZE,
  holdingTypeOfMarket,
  POLL_MS,
  type PositionSize,
  parseQuantity,
  STOCK_FEE_BPS,
  STOCK_QTY_MAX,
  STOCK_STATUS,
  stepStockQuantity,
} from '../../shared/rules';
import { useMoneyCall } from '../invest/useMoneyCall';

export type Side = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';

/** The largest page the holdings call gives: the position of this symbol is looked up in it. */
const POSITIONS_LIMIT = 100;

/**
 * A typed limit price: a positive decimal with at most the instrument's decimals. The server takes
 * it as the price the user saw (contract dealBuy/dealSell), so it is sent as typed, never rounded.
 */
export function parseLimitPrice(text: string, decimals: number): number | null {
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > decimals) return null;
  const price = Number(text.trim());
  return price > 0 ? price : null;
}

/**
 * The buy/sell screen (SPEC §2, §5): live price every 3 s, the user's position and pending orders
 * in this symbol, the quantity stepper with its half/full position limits, and the order itself.
 *
 * What it shows before the fill is an estimate at the live price with the server's own rules
 * (tradeValueMinor, the configured USD rate, STOCK_FEE_BPS); the fill is the server's, at its quote
 * (DESIGN rule 3), and its figures replace the estimate once it answers.
 */
export function useStockTrading() {
  const params = useParams<{ symbol: string; market: string; name?: string }>();
  const symbol = params.symbol ?? '';
  const [search, setSearch] = useSearchParams();
  const side: Side = search.get('type') === 'sell' ? 'sell' : 'buy';
  const config = useConfig();

  const quote = useWatch('quote', { symbol }, POLL_MS.stockTrading);
  const market = quote.data?.market ?? params.market ?? '';
  const kind = holdingTypeOfMarket(market);
  const positions = useWatch(
    'holdings',
    { type: kind, page: 1, limit: POSITIONS_LIMIT },
    POLL_MS.stockTrading,
  );
  const pending = useWatch('orderList', { tag: symbol, status: STOCK_STATUS.pending }, POLL_MS.stockTrading);
  const position = positions.data?.rows.find((r) => r.stock === symbol) ?? null;

  const [size, setSize] = useState<PositionSize>(DEFAULT_POSITION_SIZE);
  const [qtyText, setQtyText] = useState('1');
  const [orderType, setOrderType] = useState<OrderType>('market');
  const [limitText, setLimitText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [filled, setFilled] = useState<OrderRow | null>(null);
  const buy = useMoneyCall('dealBuy');
  const sell = useMoneyCall('dealSell');

  const decimals = quote.data?.decimals ?? 2;
  const qty = parseQuantity(qtyText);
  const available = position?.available ?? 0;
  const qtyError =
    checkStockQuantity(qty, size) ??
    (side === 'sell' && qty !== null ? checkSellQuantity(qty, available) : null);
  const limit = orderType === 'limit' ? parseLimitPrice(limitText, decimals) : null;
  const limitError = orderType === 'limit' && limit === null ? 'trade.limit.invalid' : null;
  const price = orderType === 'limit' ? limit : (quote.data?.price ?? null);

  const region = quote.data?.region ?? 'IN';
  const rate = conversionRateTicks(currencyFor(config, region).unit, config.rate);
  const value =
    price !== null && qty !== null && qtyError === null
      ? tradeValueMinor(priceToTicks(price), qty, rate)
      : null;
  const fee = value === null ? null : feeMinor(value, STOCK_FEE_BPS);
  const total = value === null || fee === null ? null : side === 'buy' ? value + fee : value - fee;

  function setSide(next: Side) {
    setSearch(next === 'sell' ? { type: 'sell' } : {}, { replace: true });
    setFilled(null);
    setFailure(null);
  }

  function step(delta: 1 | -1) {
    setQtyText(String(stepStockQuantity(qty, delta, size)));
  }

  function openConfirm() {
    if (qtyError || limitError || price === null) return;
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
    if (qty === null || price === null || qtyError || limitError) return;
    setBusy(true);
    setFailure(null);
    const input = { tag: symbol, count: qty, price, mold: 'stock' as const };
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
    symbol,
    name: params.name ?? quote.data?.name ?? symbol,
    market,
    side,
    setSide,
    quote,
    position,
    positions,
    pending,
    size,
    setSize,
    maxQty: STOCK_QTY_MAX[size],
    qtyText,
    setQtyText,
    qty,
    qtyError,
    step,
    orderType,
    setOrderType,
    limitText,
    setLimitText,
    limitError,
    price,
    decimals,
    region,
    fee,
    total,
    confirming,
    openConfirm,
    closeConfirm,
    submit,
    busy,
    failure,
    filled,
  };
}
