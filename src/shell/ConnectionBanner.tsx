import { useTranslation } from 'react-i18next';
import { retryNow, useConnectionState, useLastFresh, useLowData } from '../api/connection';
import { asOfText } from '../ui/AsOf';
import { IconOffline } from '../ui/icons';
import s from './core.module.css';

/**
 * The connection as the sync worker sees it: offline, unreachable (the phone is online
 * but the server does not answer) or slow, named in the user's language with the time data was
 * last fresh and, when unreachable, "Retry now". It clears on the first good answer. Low-data mode
 * is shown in the same place while it is on.
 *
 * The live region is always in the page, empty while all is well: a screen reader announces text
 * that arrives in a region it already knows, and often misses a region that arrives filled.
 */
export function ConnectionBanner() {
  return (
    <div className={s.bannerRegion} role="status">
      <BannerContent />
    </div>
  );
}

function BannerContent() {
  const { t, i18n } = useTranslation();
  const state = useConnectionState();
  const lowData = useLowData();
  const lastFresh = useLastFresh();
  const locale = i18n.language === 'en' ? undefined : i18n.language;
  const fresh = lastFresh
    ? t('core.connection.lastFresh', { time: asOfText(lastFresh, Date.now(), locale) })
    : null;
  if (state === 'online') return lowData ? <LowDataLine /> : null;
  const down = state !== 'slow';
  return (
    <div className={`${s.banner} ${down ? s.bannerDown : s.bannerSlow}`} data-connection={state}>
      <IconOffline size={18} />
      <span className={s.bannerText}>
        <strong>{t(`core.connection.${state}`)}</strong>
        <span>
          {down
            ? `${fresh ? `${fresh}. ` : ''}${t('core.connection.pausedMoney')}`
            : t('core.connection.slowDetail')}
        </span>
      </span>
      {state === 'unreachable' && (
        <button type="button" className={s.bannerAction} onClick={retryNow}>
          {t('core.connection.retry')}
        </button>
      )}
    </div>
  );
}

function LowDataLine() {
  const { t } = useTranslation();
  return (
    <div className={`${s.banner} ${s.bannerQuiet}`} data-connection="low-data">
      <span className={s.bannerText}>{t('core.connection.lowData')}</span>
    </div>
  );
}
