import { useEffect, useState } from 'react';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { currencyFor, useConfig } from '../../api/useConfig';
import type { BlockItem } from '../../shared/contract/invest';
import type { OrderRow } from '../../shared/contract/trading';
import { PRICE_SCALE, priceToTicks, toMinor, tradeValueMinor } from '../../shared/money';
import {
  BLOCK_DEFAULT_MIN_QTY,
  checkBlockQuantity,
  checkTradePassword,
  POLL_MS,
  QUANTITY_MAX,
  SEARCH_DEBOUNCE_MS,
} from '../../shared/rules';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';
import { useQuantityStepper } from '../_parts/invest/useQuantityStepper';
import type { UsdRate } from '../_parts/invest/useUsdRate';

export type BlockMold = BlockItem['mold'];

/** Block trading (mold bulk) or QIP (mold finalize): the searched list, polled for its market prices. */
export function useBlockTrading(mold: BlockMold) {
  const [search, setSearch] = useState('');
  const [code, setCode] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setCode(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);
  const list = useWatch('blockList', code ? { mold, code } : { mold }, POLL_MS.prices);
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  return { search, setSearch, searchNow: () => setCode(search.trim()), code, list, info };
}

/** The − and + buttons move in round lots. */
const STEPPER_LOT = 100;

/** How long a quantity may stay below the minimum before the hint says so (SPEC §5). */
const BELOW_MINIMUM_HINT_MS = 3000;

/**
 * The buy of a block/QIP lot, as the stock ticket's: order → review → result. The
 * order step keeps SPEC §5's rules (digits only; at least the row's minimum — toast with the
 * minimum, a hint after 3 s, the minus button stops there; at most what the balance pays for and
 * the offer has left); every money figure — value, each charge, the total, what the balance
 * affords — is the server's `orderQuote` for a buy of this many at the block price (a lot pays a
 * stock buy's charges: server/trading/postings.ts `blockBuyAmounts`). The review repeats them
 * itemised and asks for the transaction password; the result is the order row the server answered
 * (`OrderResultSheet`), with its contract note. A USD lot converts at the server's rate; without a
 * fresh one it cannot be bought (SPEC §8 "Exchange rate has not been updated").
 */
export function useBlockBuy(item: BlockItem, usd: UsdRate, onDone: () => void) {
  const config = useConfig();
  const minimum = Math.max(1, item.count || BLOCK_DEFAULT_MIN_QTY);
  const [step, setStep] = useState<'order' | 'review'>('order');
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [hint, setHint] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<OrderRow | null>(null);
  const buy = useMoneyCall('dealBuy');

  const local = currencyFor(config, item.type);
  const converts = local.unit !== config.currency.unit;
  const rateRefused = usd.refusedFor(local.unit);
  // As typed: never above what the balance pays for; a step lands between the minimum and that
  // (`cap` reads the server's figures below when it is called).
  const qty = useQuantityStepper({
    initial: minimum,
    lot: STEPPER_LOT,
    read: (digits) => digits ?? 0,
    land: (n) => cap(Math.max(minimum, n)),
    cap: (digits) => cap(Math.min(digits, QUANTITY_MAX)),
  });
  const { text, quantity } = qty;
  // The server's figures for the quantity as typed (the minimum's while it is outside SPEC's range).
  const quote = useWatch(
    'orderQuote',
    {
      tag: item.tag,
      side: 'buy',
      count: quantity >= 1 && quantity <= QUANTITY_MAX ? quantity : minimum,
      price: item.price,
    },
    POLL_MS.stockTrading,
  );
  const affords = quote.data?.affordable ?? null;
  // No more than the balance covers, charges included, nor than the offer has left.
  const maximum = Math.min(item.remaining, affords ?? QUANTITY_MAX);
  const affordable = affords === null || maximum >= minimum;
  function cap(n: number) {
    return affords !== null && affordable ? Math.min(n, maximum) : n;
  }
  const below = text !== '' && checkBlockQuantity(quantity, minimum) !== null;
  // The answer shown must be for this very quantity (a poll keeps the last one until the next).
  const figures = quote.data && quote.data.count === quantity ? quote.data : null;

  // The hint appears once the quantity has stayed below the minimum for 3 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each keystroke restarts the 3 s
  useEffect(() => {
    setHint(false);
    if (!below) return;
    const id = setTimeout(() => setHint(true), BELOW_MINIMUM_HINT_MS);
    return () => clearTimeout(id);
  }, [below, text]);

  function decrease() {
    // The minus button stops at the minimum and says why.
    if (quantity <= minimum) toast('block.minToast', 'error', { min: minimum });
    qty.decrease();
  }

  function leave() {
    if (below) toast('block.minToast', 'error', { min: minimum });
  }

  const short = figures !== null && (toMinor(figures.net) ?? 0) > (toMinor(figures.available) ?? 0);
  /** Why the order cannot go to review yet (an i18n key), or null. */
  const blocked =
    text === ''
      ? 'block.requiredFields'
      : below
        ? 'errors.belowMinimumQuantity'
        : rateRefused
          ? 'errors.rateNotUpdated'
          : short || !affordable || quantity > maximum
            ? 'errors.insufficientFunds'
            : null;

  function review() {
    if (blocked !== null) {
      if (below) setHint(true);
      toast(blocked, 'error');
      return;
    }
    setFailure(null);
    setStep('review');
  }

  async function submit(): Promise<void> {
    const pinProblem = pin === '' ? 'block.requiredFields' : checkTradePassword(pin);
    if (pinProblem) {
      setPinError(pin === '' ? 'hint.tradePasswordInvalid' : pinProblem);
      toast('block.requiredFields', 'error');
      return;
    }
    setBusy(true);
    setFailure(null);
    const answer = await buy({
      tag: item.tag,
      count: quantity,
      price: item.price,
      mold: item.mold,
      id: item.id,
      stock_password: pin,
    });
    setBusy(false);
    if (!answer.ok) {
      if (answer.error === 'errors.fundPasswordWrong' || answer.error === 'hint.tradePasswordInvalid') {
        setPin('');
        setPinError(answer.error);
      }
      // The refusal stays on the review, as the ticket's does; a transport fault says so too.
      setFailure(answer.error);
      toastMoneyFailure(answer.error, 'block.failed');
      return;
    }
    setPin('');
    setResult(answer.data);
    onDone();
  }

  return {
    call: buy,
    step,
    review,
    back: () => {
      setStep('order');
      setFailure(null);
    },
    text,
    change: qty.change,
    decrease,
    increase: qty.increase,
    leave,
    useMax: () => qty.set(maximum),
    quantity,
    pin,
    setPin: (v: string) => {
      setPin(v);
      setPinError(null);
    },
    pinError,
    failure,
    hint,
    minimum,
    maximum,
    affordable,
    atMax: affords !== null && affordable && quantity >= maximum,
    blocked,
    short,
    busy,
    submit,
    /** The server's figures for this quantity at the block price (null while they are asked for). */
    figures,
    quote,
    /** The order as the server answered it: the result sheet's. */
    result,
    local,
    converts,
    rateRefused,
    /** Price × quantity in the instrument's currency (a USD lot's amount before conversion). */
    valueLocalMinor: tradeValueMinor(priceToTicks(item.price), quantity, PRICE_SCALE),
  };
}

export type BlockBuy = ReturnType<typeof useBlockBuy>;
