import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import { formatNumber } from '../../../shared/format';
import { AsOf, Skeleton, ui } from '../../../ui';
import s from './invest.module.css';
import { rateDecimals, type UsdRate } from './useUsdRate';

/**
 * "1 USD = ₹88.50" — the rate every USD amount is converted at now — with where it comes from
 * and its as-of time (DESIGN rule 7): the live quote, the operator's rate, or, when neither is
 * fresh, the last one known labelled stale beside SPEC's "Exchange rate has not been updated".
 */
export function UsdRateLine({ rate }: { rate: UsdRate }) {
  const { t } = useTranslation();
  const config = useConfig();
  const fx = rate.fx;
  if (fx === undefined) return rate.error ? null : <Skeleton width={160} />;
  const stale = !fx.fresh || rate.stale;
  return (
    <span
      className={s.rateLine}
      data-testid="usd-rate"
      data-source={fx.source ?? 'none'}
      data-fresh={fx.fresh}
    >
      {fx.rate !== null && (
        <span>
          {t('qip.rate', {
            unit: 'USD',
            rate: `${config.currency.symbol}${formatNumber(fx.rate, rateDecimals(fx.rate), fx.unit)}`,
          })}
        </span>
      )}
      {fx.fresh && fx.source && <span className={s.rateSource}>{t(`qip.source.${fx.source}`)}</span>}
      <AsOf
        at={fx.as_of}
        stale={stale}
        every={rate.intervalMs}
        fetchedAt={rate.updatedAt}
        schedule={fx.source === 'live' ? 'FX' : undefined}
        // Told in the account's zone (its rupees are India's), not the currency market's UTC.
        zone={fx.unit === 'INR' ? 'NSE' : undefined}
      />
      {!fx.fresh && (
        <span className={ui.error} role="alert">
          {t('errors.rateNotUpdated')}
        </span>
      )}
    </span>
  );
}
