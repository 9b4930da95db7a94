import { useTranslation } from 'react-i18next';
import { cardLastFour, maskCardNumber } from '../shared/format';

/**
 * A bank card number, masked the one way (`maskCardNumber`: "•••• 3456"); a screen reader hears
 * "Card ending in 3456" instead of the dots.
 */
export function CardNumber({ value, className }: { value: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={className}>
      <span aria-hidden="true">{maskCardNumber(value)}</span>
      <span className="visually-hidden">{t('bankCards.endsIn', { last: cardLastFour(value) })}</span>
    </span>
  );
}
