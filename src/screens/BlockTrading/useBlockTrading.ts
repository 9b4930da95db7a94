import { useEffect, useState } from 'react';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { currencyFor, useConfig } from '../../api/useConfig';
import type { BlockItem } from '../../shared/contract/invest';
import { feeMinor, PRICE_SCALE, priceToTicks, toMinor, tradeValueMinor } from '../../shared/money';
import {
  BLOCK_DEFAULT_MIN_QTY,
  BLOCK_FEE_BPS,
  blockCostMinor,
  blockMaxQuantity,
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
 * The buy dialog's rules (SPEC §5 block/QIP buy): digits only; at least the row's minimum (toast
 * with the minimum, a hint after 3 s, the minus button stops there); at most the default maximum
 * floor(balance / (price + 0.03 %)) the balance pays for; a 6-digit transaction code; the amounts
 * as the server will post them, at the server's USD rate (`usd`); without a fresh one a USD lot
 * cannot be bought (SPEC §8 "Exchange rate has not been updated").
 */
export function useBlockBuy(item: BlockItem, balance: string | undefined, usd: UsdRate, onDone: () => void) {
  const config = useConfig();
  const minimum = Math.max(1, item.count || BLOCK_DEFAULT_MIN_QTY);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [hint, setHint] = useState(false);
  const [busy, setBusy] = useState(false);
  const buy = useMoneyCall('dealBuy');

  const priceTicks = priceToTicks(item.price);
  const local = currencyFor(config, item.type);
  // Null while the USD rate is not known yet: the converted amounts show "—".
  const rate = usd.ticksFor(local.unit);
  const converts = local.unit !== config.currency.unit;
  const rateRefused = usd.refusedFor(local.unit);
  const balanceMinor = balance === undefined ? null : toMinor(balance);
  // No more than the balance covers, nor than the offer has left.
  const maximum = Math.min(
    item.remaining,
    balanceMinor === null || rate === null ? QUANTITY_MAX : blockMaxQuantity(balanceMinor, priceTicks, rate),
  );
  const affordable = maximum >= minimum;
  const cap = (n: number) => (affordable ? Math.min(n, maximum) : n);
  // As typed: never above what the balance pays for; a step lands between the minimum and that.
  const qty = useQuantityStepper({
    initial: minimum,
    lot: STEPPER_LOT,
    read: (typed) => typed ?? 0,
    land: (n) => cap(Math.max(minimum, n)),
    cap: (typed) => cap(Math.min(typed, QUANTITY_MAX)),
  });
  const { text, quantity } = qty;
  const below = text !== '' && checkBlockQuantity(quantity, minimum) !== null;

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

  const valid = text !== '' && !below && checkTradePassword(pin) === null && rate !== null && !rateRefused;

  async function submit(): Promise<void> {
    if (text === '' || pin === '') {
      toast('block.requiredFields', 'error');
      return;
    }
    if (below) {
      setHint(true);
      toast('errors.belowMinimumQuantity', 'error');
      return;
    }
    const pinProblem = checkTradePassword(pin);
    if (pinProblem) {
      setPinError(pinProblem);
      toast('block.requiredFields', 'error');
      return;
    }
    if (rate === null || rateRefused) {
      toast('errors.rateNotUpdated', 'error');
      return;
    }
    if (!affordable || quantity > maximum) {
      toast('errors.insufficientFunds', 'error');
      return;
    }
    setBusy(true);
    const result = await buy({
      tag: item.tag,
      count: quantity,
      price: item.price,
      mold: item.mold,
      id: item.id,
      stock_password: pin,
    });
    setBusy(false);
    if (!result.ok) {
      if (result.error === 'errors.fundPasswordWrong' || result.error === 'hint.tradePasswordInvalid') {
        setPin('');
        setPinError(result.error);
      }
      toastMoneyFailure(result.error, 'block.failed');
      return;
    }
    toast('block.success', 'success');
    onDone();
  }

  const valueLocal = tradeValueMinor(priceTicks, quantity, PRICE_SCALE);
  const valueAccount = rate === null ? null : tradeValueMinor(priceTicks, quantity, rate);
  return {
    call: buy,
    text,
    change: qty.change,
    decrease,
    increase: qty.increase,
    leave,
    useMax: () => qty.set(maximum),
    pin,
    setPin: (v: string) => {
      setPin(v);
      setPinError(null);
    },
    pinError,
    hint,
    minimum,
    maximum,
    affordable,
    atMax: affordable && quantity >= maximum,
    valid,
    busy,
    submit,
    local,
    converts,
    rateRefused,
    /** Price × quantity plus the fee, in the instrument's currency. */
    totalLocalMinor: valueLocal + feeMinor(valueLocal, BLOCK_FEE_BPS),
    /** What the account is charged: the converted value plus the fee on it; null without a rate. */
    chargeMinor: rate === null ? null : blockCostMinor(priceTicks, quantity, rate),
    feeMinor: valueAccount === null ? null : feeMinor(valueAccount, BLOCK_FEE_BPS),
  };
}
