import { useTranslation } from 'react-i18next';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { formatNumber } from '../../shared/format';
import s from '../_parts/invest/invest.module.css';
import type { BlockMold } from './useBlockTrading';

/** A market quote older than this is not "live" for the QIP's reference rate. */
const LIVE_RATE_MS = 5 * 60_000;

/**
 * What a buyer reads before a block or QIP purchase (issue 14): who may buy, the lock-in, the
 * risk. QIP also shows the live USD quote in the account currency beside the rate the order is
 * charged at (the configured one), and says when neither is fresh (SPEC §8).
 */
export function ProductNotes({ mold }: { mold: BlockMold }) {
  const { t } = useTranslation();
  const config = useConfig();
  const pair = `USD${config.currency.unit}=X`;
  const wanted = mold === 'finalize' && config.currency.unit !== 'USD';
  const quote = useWatch('quote', wanted ? { symbol: pair } : null, 15_000);
  const q = quote.data;
  const live = q && !quote.stale && Date.now() - q.as_of < LIVE_RATE_MS ? q : null;
  const configured = Number(config.rate);
  const hasConfigured = Number.isFinite(configured) && configured > 0;
  const key = mold === 'finalize' ? 'qip' : 'block';
  return (
    <section className={s.rateNote} aria-labelledby={`${key}-notes`} data-testid="product-notes">
      <h2 id={`${key}-notes`} className="visually-hidden">
        {t('watch.product.before')}
      </h2>
      {/* Paragraphs, not a list: the page's list is the offers. */}
      <p>{t(`watch.product.${key}.eligibility`)}</p>
      <p>{t(`watch.product.${key}.lockIn`)}</p>
      <p>{t(`watch.product.${key}.risk`)}</p>
      {mold === 'finalize' && config.currency.unit !== 'USD' && (
        <p className={s.notesRate}>
          {live ? (
            <>
              {t('watch.product.liveRate', {
                unit: config.currency.unit,
                rate: formatNumber(live.price, live.decimals),
              })}
            </>
          ) : hasConfigured ? (
            t('watch.product.noLiveRate')
          ) : (
            t('watch.product.rateStale')
          )}
        </p>
      )}
    </section>
  );
}
