import { useTranslation } from 'react-i18next';
import { useWatch } from '../api/hooks';
import { useQuote } from '../api/quotes';
import { currencyFor, useConfig } from '../api/useConfig';
import { stockPath } from '../paths';
import { formatChange, formatPercent, formatPrice, trendClass } from '../shared/format';
import { scheduleOf } from '../shared/market-hours';
import { displayCode, POLL_MS } from '../shared/rules';
import { AsOf } from '../ui/AsOf';
import { Sparkline } from '../ui/Sparkline';
import { Skeleton } from '../ui/States';
import s from './widget.module.css';

/**
 * The embeddable quote (iframe.html?symbol=…&market=…): name, price, day change and the session's
 * sparkline, from the same worker and device store as the app, so it shows the last known quote
 * (with its as-of time) offline.
 */
export function Widget({ symbol, market }: { symbol: string; market: string | null }) {
  const { t } = useTranslation();
  const config = useConfig();
  const watched = useWatch('quote', symbol ? { symbol } : null, POLL_MS.prices);
  const live = useQuote(symbol || null);
  if (!symbol) return <p className={s.message}>{t('core.widget.noSymbol')}</p>;

  const q = watched.data;
  const lq = live.quote;
  // The live price wins when it is newer than the polled answer (another poll may price it first).
  const useLive = lq !== undefined && (!q || lq.asOf >= q.as_of);
  const price = useLive ? lq.price : q?.price;
  const change = (useLive ? lq.change : q?.change) ?? 0;
  const percent = (useLive ? lq.percent : q?.changePercent) ?? 0;
  const decimals = q?.decimals ?? lq?.decimals ?? 2;
  const name = q?.name ?? lq?.name ?? displayCode(symbol);
  const region = q?.region ?? (market === 'US' ? 'US' : 'IN');
  const stale = useLive ? live.stale : watched.stale;
  const asOf = useLive ? lq.asOf : q?.as_of;
  const closes = q?.rows.map((r) => r.close);
  const href = stockPath(symbol, name);

  if (price === undefined) {
    if (watched.loading || watched.error === null) {
      return (
        <div className={s.card} aria-busy="true">
          <Skeleton width="60%" height={18} />
          <Skeleton width="40%" height={28} />
        </div>
      );
    }
    return <p className={s.message}>{t('core.widget.unavailable')}</p>;
  }

  return (
    <article className={s.card} aria-label={name}>
      <header className={s.head}>
        <div>
          <h1 className={s.name}>{name}</h1>
          <span className={s.code}>{displayCode(symbol)}</span>
        </div>
        <Sparkline values={closes} trend={change} width={112} height={40} />
      </header>
      <div className={s.row}>
        <span className={`${s.price} num`}>
          {currencyFor(config, region).symbol}
          {formatPrice(price, decimals)}
        </span>
        <span className={`${s.change} num ${trendClass(change)}`}>
          {formatChange(change, decimals)} ({formatPercent(percent)})
        </span>
      </div>
      <footer className={s.foot}>
        {stale || asOf ? (
          <AsOf at={asOf} stale={stale} schedule={scheduleOf(q?.market ?? market ?? undefined, region)} />
        ) : (
          <span />
        )}
        <a href={href} target="_blank" rel="noopener" className={s.open}>
          {t('core.widget.open')}
        </a>
      </footer>
    </article>
  );
}
