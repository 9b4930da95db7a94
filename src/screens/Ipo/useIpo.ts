import { useState } from 'react';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { currencyFor, useConfig } from '../../api/useConfig';
import type { Ipo } from '../../shared/contract/invest';
import { formatMoney } from '../../shared/format';
import { priceToTicks, toMinor, tradeValueMinor } from '../../shared/money';
import { clampIpoQuantity, IPO_QTY_STEP, ipoQuantityBounds, POLL_MS } from '../../shared/rules';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';
import { useQuantityStepper } from '../_parts/invest/useQuantityStepper';
import { useUsdRate } from '../_parts/invest/useUsdRate';

/** The IPO list (SPEC §2) and the available balance the application dialog checks against. */
export function useIpo() {
  const list = useWatch('ipoList', {}, 0);
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  return { list, info };
}

/**
 * One application (SPEC §5 IPO buy): the quantity is typed as digits and clamped between the
 * IPO's min and max in whole lots of 100 when the field is left, stepped, or submitted; the
 * amount to be frozen is the issue price × quantity in account currency, exactly as the server
 * freezes it.
 */
export function useIpoApply(ipo: Ipo, balance: string | undefined, onDone: () => void) {
  const config = useConfig();
  const bounds = ipoQuantityBounds(ipo.min, ipo.max);
  const clamp = (qty: number) => clampIpoQuantity(qty, ipo.min, ipo.max);
  // An empty field means the smallest application; anything typed counts as clamped.
  const qty = useQuantityStepper({
    initial: bounds.min,
    lot: IPO_QTY_STEP,
    read: (typed) => clamp(typed ?? bounds.min),
    land: clamp,
  });
  const clamped = qty.quantity;
  const [busy, setBusy] = useState(false);
  const apply = useMoneyCall('ipoBuy');

  // A US issue is frozen at the server's USD rate now (server/trading/fx.ts), not one the app knows.
  const unit = currencyFor(config, ipo.region).unit;
  const usd = useUsdRate(unit === 'USD');
  const rate = usd.ticksFor(unit);
  const rateRefused = usd.refusedFor(unit);
  const frozenMinor = rate === null ? null : tradeValueMinor(priceToTicks(ipo.issue_price), clamped, rate);
  const balanceMinor = balance === undefined ? null : toMinor(balance);
  const insufficient = balanceMinor !== null && frozenMinor !== null && frozenMinor > balanceMinor;

  async function submit(): Promise<void> {
    qty.settle();
    if (insufficient) {
      toast('errors.insufficientFunds', 'error');
      return;
    }
    if (frozenMinor === null || rateRefused) {
      toast('errors.rateNotUpdated', 'error');
      return;
    }
    setBusy(true);
    const result = await apply({ id: ipo.id, tag: ipo.symbol, count: clamped, price: ipo.issue_price });
    setBusy(false);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'ipo.failed');
      return;
    }
    // SPEC's words, and beside them what they mean: an application blocks money until allotment.
    toast(
      'ipo.success',
      'success',
      { amount: formatMoney(result.data.price_all, config.currency) },
      'ipo.successDetail',
    );
    onDone();
  }

  return {
    call: apply,
    text: qty.text,
    change: qty.change,
    settle: qty.settle,
    decrease: qty.decrease,
    increase: qty.increase,
    atMin: clamped <= bounds.min,
    atMax: clamped >= bounds.max,
    bounds,
    quantity: clamped,
    /** Null while a US issue's USD rate is not known. */
    frozenMinor,
    insufficient,
    /** A US issue cannot be applied for without a fresh USD rate (SPEC §8). */
    rateRefused,
    usd,
    busy,
    submit,
  };
}
