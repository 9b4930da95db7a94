import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { formatExchangeSession, formatPrice } from '../../../shared/format';
import { isMarketOpen, lastSession, nextSession, scheduleOf } from '../../../shared/market-hours';
import { useServerNow } from '../../../ui/clock';
import ui from '../../../ui/ui.module.css';
import d from './depth.module.css';

/**
 * Open / closed from the market's trading hours (src/shared/market-hours.ts), computed on the
 * device so it is right offline too: "Open · closes 15:30 IST" or "Closed · opens Mon 09:15 IST" (the
 * exchange's time, whatever the phone's zone).
 */
export function MarketStatusChip({
  market,
  region,
}: {
  market: string | undefined;
  region: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  // The server's clock decides whether the market is open, not the phone's.
  const now = useServerNow();
  const scheduled = { schedule: scheduleOf(market, region) };
  const open = isMarketOpen(scheduled, now);
  const at = open ? lastSession(scheduled.schedule, now).close : nextSession(scheduled.schedule, now).open;
  const time = formatExchangeSession(at, scheduled.schedule, now, i18n.language);
  return (
    <span className={`${ui.chip} ${d.chip} ${open ? d.chipOpen : ''}`} data-testid="market-status">
      {t(open ? 'watch.facts.openUntil' : 'watch.facts.closedUntil', { time })}
    </span>
  );
}

/** Today's range and the 52-week range as bars with the price marked (52 weeks from `/v2/depth`). */
export function InstrumentFacts({
  symbol,
  price,
  low,
  high,
  decimals,
}: {
  symbol: string;
  price: number | undefined;
  low: number | undefined;
  high: number | undefined;
  decimals: number;
}) {
  const { t } = useTranslation();
  // The same poll as the depth ladder (one request for both).
  const depth = useWatch('depth', symbol ? { symbol } : null, 3000);
  const y = depth.data;
  return (
    <div className={d.facts}>
      {low !== undefined && high !== undefined && (
        <RangeBar label={t('watch.facts.today')} low={low} high={high} price={price} decimals={decimals} />
      )}
      {y && (
        <RangeBar
          label={t('watch.facts.year')}
          low={Math.min(y.low_52w, low ?? y.low_52w)}
          high={Math.max(y.high_52w, high ?? y.high_52w)}
          price={price}
          decimals={decimals}
        />
      )}
    </div>
  );
}

function RangeBar({
  label,
  low,
  high,
  price,
  decimals,
}: {
  label: string;
  low: number;
  high: number;
  price: number | undefined;
  decimals: number;
}) {
  const { t } = useTranslation();
  const span = high - low;
  const at =
    price === undefined || span <= 0 ? null : Math.min(100, Math.max(0, ((price - low) / span) * 100));
  const lowText = formatPrice(low, decimals);
  const highText = formatPrice(high, decimals);
  return (
    <div className={d.range}>
      <span className={d.rangeLabel}>{label}</span>
      <span className="num">{lowText}</span>
      <div
        className={d.track}
        role="img"
        aria-label={t('watch.facts.rangeLabel', {
          label,
          low: lowText,
          high: highText,
          price: price === undefined ? '—' : formatPrice(price, decimals),
        })}
      >
        {at !== null && <span className={d.marker} style={{ left: `${at}%` }} />}
      </div>
      <span className="num">{highText}</span>
    </div>
  );
}
