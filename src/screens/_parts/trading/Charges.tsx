import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import type { ChargesBreakdown } from '../../../shared/contract/trading';
import { formatMoney } from '../../../shared/format';
import { SummaryRow } from '../invest/parts';

const PARTS = ['brokerage', 'stt', 'exchange', 'sebi', 'stamp', 'gst'] as const;

/**
 * An order's charges as the server computed them (server/trading/charges.ts), one row each and
 * their total: the review sheet before an order and the contract note after it.
 */
export function ChargesRows({ charges }: { charges: ChargesBreakdown }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  return (
    <>
      {PARTS.map((part) => (
        <SummaryRow key={part} label={t(`trade.charges.${part}`)}>
          {formatMoney(charges[part], currency)}
        </SummaryRow>
      ))}
      <SummaryRow label={t('trade.charges.total')}>
        <strong>{formatMoney(charges.total, currency)}</strong>
      </SummaryRow>
    </>
  );
}
