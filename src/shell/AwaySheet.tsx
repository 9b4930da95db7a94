import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AwaySummary } from '../../workers/away';
import { listen } from '../api/client';
import { isClaimed } from '../api/money';
import { useConfig } from '../api/useConfig';
import { loadAllMessages } from '../i18n/index';
import { PATHS } from '../paths';
import { reasonKey } from '../screens/_parts/wallet/status';
import { formatMoney, formatNumber } from '../shared/format';
import { displayCode } from '../shared/rules';
import { toast } from '../store/ui';
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
 * "While you were away" (issue 11): after more than a minute without the server, when it answers
 * again, a sheet lists what changed meanwhile — orders filled, expired or allotted, money in and
 * out, customer-service replies — from the server's own lists (workers/away.ts).
 */
/** What a money call was, for the notice of one that settled after its screen was left. */
const MONEY_ACTION: Record<string, string> = {
  dealBuy: 'trade.buy',
  dealSell: 'trade.sell',
  recharge: 'wallet.recharge.title',
  withdraw: 'wallet.withdraw.title',
  loanApply: 'wallet.loan.title',
  loanRepay: 'wallet.loanRecords.repay',
  ipoBuy: 'ipo.title',
  fundPurchase: 'fund.title',
  orderCancel: 'records.cancel',
  orderModify: 'records.modify.open',
};

/**
 * A money call that was unconfirmed when its screen was left still gets its answer: the shell
 * announces it (a screen that waits on the call shows it itself).
 */
export function useMoneyNotices(): void {
  const { t } = useTranslation();
  useEffect(
    () =>
      listen('money', (view) => {
        const result = view.result;
        // A reply its screen awaited is that screen's to show (it may have just stopped waiting).
        if (!result || !view.late || isClaimed(view.key)) return;
        // The words of any screen's call and of any refusal (src/i18n: the first screen has only its own).
        void loadAllMessages().then(() => {
          const what = t(MONEY_ACTION[view.name] ?? 'trade.buy');
          if (result.ok) toast('core.money.settled', 'success', { what });
          else toast('core.money.settledRejected', 'error', { what: `${what} — ${t(result.error)}` });
        });
      }),
    [t],
  );
}

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
