import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AwaySummary } from '../../workers/away';
import { listen } from '../api/client';
import { useConfig } from '../api/useConfig';
import { loadAllMessages } from '../i18n/index';
import { PATHS } from '../paths';
import { reasonKey } from '../screens/_parts/wallet/status';
import { formatMoney, formatNumber } from '../shared/format';
import { displayCode } from '../shared/rules';
import { asOfText } from '../ui/AsOf';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import ui from '../ui/ui.module.css';
import s from './core.module.css';

/** Stock order statuses (0 pending … 4 failed) and IPO application statuses (1 pending, 2 allotted, 3 refunded). */
const ORDER_STATUS: Record<number, string> = {
  1: 'records.status.success',
  2: 'records.status.cancelled',
  3: 'records.status.expired',
  4: 'records.status.failed',
};
const IPO_STATUS: Record<number, string> = { 2: 'ipo.status.success', 3: 'ipo.status.failed' };

/**
 * "While you were away": after more than a minute without the server, when it answers
 * again, a sheet lists what changed meanwhile — orders filled, expired or allotted, money in and
 * out, customer-service replies — from the server's own lists (workers/away.ts).
 */
export function AwaySheet() {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  const [summary, setSummary] = useState<AwaySummary | null>(null);
  // Shown once the words of orders and money are there (src/i18n).
  useEffect(() => listen('away', (away) => void loadAllMessages().then(() => setSummary(away))), []);
  if (!summary) return null;
  const locale = i18n.language === 'en' ? undefined : i18n.language;
  const close = () => setSummary(null);
  return (
    <Dialog open sheet onClose={close} title={t('core.away.title')}>
      <p className={s.awaySince}>
        {t('core.away.since', { time: asOfText(summary.since, Date.now(), locale) })}
      </p>
      {summary.orders.length > 0 && (
        <section aria-label={t('core.away.orders')}>
          <h3 className={s.awayHead}>{t('core.away.orders')}</h3>
          <ul className={ui.plainList}>
            {summary.orders.map((o) => (
              <li key={`${o.mold}-${o.no}`} className={s.awayRow} data-away-order={o.no}>
                <span>
                  {t(o.state === 'sell' ? 'trade.sell' : 'trade.buy')} {displayCode(o.tag)} ×{' '}
                  {formatNumber(o.count, 0)}
                </span>
                <span className={s.awayStatus}>
                  {t((o.mold === 'ipo' ? IPO_STATUS : ORDER_STATUS)[o.status] ?? 'records.status.unknown')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {summary.bills.length > 0 && (
        <section aria-label={t('core.away.money')}>
          <h3 className={s.awayHead}>{t('core.away.money')}</h3>
          <ul className={ui.plainList}>
            {summary.bills.map((b) => (
              <li key={b.id} className={s.awayRow}>
                <span>{t(reasonKey(b.reason, (k) => i18n.exists(k)))}</span>
                <span className="num">
                  {b.type === 'income' ? '+' : '−'}
                  {formatMoney(b.amount, config.currency)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {summary.replies.length > 0 && (
        <section aria-label={t('core.away.replies')}>
          <h3 className={s.awayHead}>{t('core.away.replies')}</h3>
          <ul className={ui.plainList}>
            {summary.replies.map((m) => (
              <li key={m.id} className={s.awayRow}>
                <Link to={PATHS.customerService} onClick={close}>
                  {t('core.away.reply', { text: m.body.length > 60 ? `${m.body.slice(0, 60)}…` : m.body })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className={s.awayActions}>
        {summary.orders.length > 0 && (
          <Link to={PATHS.records} className={s.awayLink} onClick={close}>
            {t('core.away.open')}
          </Link>
        )}
        <Button onClick={close}>{t('core.away.done')}</Button>
      </div>
    </Dialog>
  );
}
