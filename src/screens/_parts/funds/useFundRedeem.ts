import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoneyCall } from '../../../api/money';
import type { Fund, FundOrder, FundPosition } from '../../../shared/contract/funds';
import { parseNav, parseUnits, unitsValue } from '../../../shared/funds';
import { toast } from '../../../store/ui';
import { toastMoneyFailure } from '../invest/useMoneyCall';
import { useNavDate } from './labels';

/** Units as they are typed: digits and one point, at most three decimals. */
function typedUnits(text: string): string {
  const clean = text.replace(',', '.').replace(/[^\d.]/g, '');
  const [whole = '', ...rest] = clean.split('.');
  return rest.length ? `${whole.slice(0, 12)}.${rest.join('').slice(0, 3)}` : whole.slice(0, 12);
}

/**
 * A redemption at the next NAV: units (or all the free ones), what they are worth at the last
 * published NAV as a guide only, and the order. The money is what the server pays at the next NAV.
 */
export function useFundRedeem(fund: Fund, position: FundPosition, onDone: (order: FundOrder) => void) {
  const { t } = useTranslation();
  const navDate = useNavDate();
  const redeem = useMoneyCall('fundRedeem');
  const free = parseUnits(position.free_units) ?? 0;
  const [text, setText] = useState('');
  const [all, setAll] = useState(false);
  const [busy, setBusy] = useState(false);
  const units = all ? free : text === '' ? null : parseUnits(text);
  const error =
    !all && text !== '' && units === null
      ? t('fund.unitsInvalid')
      : units !== null && (units > free || units <= 0)
        ? t('fund.unitsOver', { units: position.free_units })
        : null;
  const nav = parseNav(fund.nav);
  const valid = units !== null && units > 0 && units <= free;

  async function submit(): Promise<void> {
    if (!valid || busy) return;
    setBusy(true);
    const result = await redeem(
      all ? { project_id: fund.id, all: true } : { project_id: fund.id, units: text },
    );
    setBusy(false);
    if (result.ok) {
      toast('fund.redeemPlaced', 'success', { name: fund.name, date: navDate(result.data.nav_date) });
      onDone(result.data);
    } else {
      toastMoneyFailure(result.error, 'fund.redeemFailed');
    }
  }

  return {
    text: all ? position.free_units : text,
    change: (next: string) => {
      setAll(false);
      setText(typedUnits(next));
    },
    all,
    chooseAll: () => setAll(true),
    free,
    estimateMinor: valid && nav !== null ? unitsValue(units, nav) : null,
    error,
    valid,
    busy,
    call: redeem,
    submit,
  };
}
