import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { PATHS, stockPath } from '../../paths';
import type { AlertRow } from '../../shared/contract/watchlist';
import { formatDateTime, formatPrice } from '../../shared/format';
import { ALERTS_MAX, displayCode } from '../../shared/rules';
import { toast } from '../../store/ui';
import {
  ConfirmDialog,
  EmptyState,
  IconBell,
  IconButton,
  IconEdit,
  IconTrash,
  ListStates,
  PageHeader,
  ui,
} from '../../ui';
import s from '../_parts/trading/trading.module.css';
import { AlertDialog, alertText } from '../_parts/watchlist/AlertDialog';
import w from '../_parts/watchlist/watchlist.module.css';

/**
 * Price alerts: every alert of the user, active first, with its level and state; edit
 * (which arms a fired alert again) and delete. New alerts are made from stock detail or a
 * watchlist row. Fired alerts land in the inbox.
 */
export default function AlertsScreen() {
  const { t, i18n } = useTranslation();
  const alerts = useWatch('alertList', {}, 10_000);
  const [editing, setEditing] = useState<AlertRow | null>(null);
  const [deleting, setDeleting] = useState<AlertRow | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove(a: AlertRow) {
    setBusy(true);
    const result = await call('alertDelete', { id: a.id });
    setBusy(false);
    if (!result.ok) {
      toast(result.error, 'error');
      return;
    }
    setDeleting(null);
    toast('watch.alerts.deleted', 'success', { code: displayCode(a.symbol) });
    alerts.reload();
  }

  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader
        title={t('watch.alerts.title')}
        back={PATHS.watchlists}
        actions={
          <Link to={PATHS.notifications} className={s.headerLink}>
            {t('watch.inbox.title')}
          </Link>
        }
      />
      {alerts.data && (
        <p className={w.toolbar}>
          {t('watch.alerts.active', {
            count: alerts.data.rows.length,
            max: ALERTS_MAX,
            active: alerts.data.active,
          })}
        </p>
      )}
      <ListStates
        rows={alerts.data?.rows}
        error={alerts.error}
        onRetry={alerts.reload}
        skeleton={{ rows: 4, height: 64 }}
        empty={
          <EmptyState title={t('watch.alerts.empty')} icon={<IconBell size={28} />}>
            {t('watch.alerts.emptyHint')}
          </EmptyState>
        }
      >
        {(rows) => (
          <ul className={`${ui.cardList} ${w.items}`} aria-label={t('watch.alerts.title')}>
            {rows.map((a) => (
              <li key={a.id} className={`${ui.cardRow} ${w.item}`} data-alert={a.id}>
                <Link to={stockPath(a.symbol, a.name)} className={w.itemMain}>
                  <span className={w.itemTitle}>
                    {a.name} · {displayCode(a.symbol)}
                  </span>
                  <span className={w.itemSub}>
                    {alertText(a, t)}{' '}
                    <span className={`${w.status} ${a.status === 'fired' ? w.statusFired : ''}`}>
                      {t(`watch.alerts.status.${a.status}`)}
                    </span>
                  </span>
                  {a.status === 'fired' && a.fired_at !== null && (
                    <span className={w.itemSub}>
                      {t('watch.alerts.firedAt', {
                        time: formatDateTime(a.fired_at, i18n.language),
                        price: formatPrice(a.fired_price, a.decimals),
                      })}
                    </span>
                  )}
                </Link>
                <IconButton
                  label={t('watch.alerts.edit', { code: displayCode(a.symbol) })}
                  onClick={() => setEditing(a)}
                >
                  <IconEdit size={20} />
                </IconButton>
                <IconButton
                  label={t('watch.alerts.delete', { code: displayCode(a.symbol) })}
                  onClick={() => setDeleting(a)}
                >
                  <IconTrash size={20} />
                </IconButton>
              </li>
            ))}
          </ul>
        )}
      </ListStates>
      <AlertDialog
        target={editing && { symbol: editing.symbol, name: editing.name }}
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => alerts.reload()}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('watch.alerts.deleteTitle')}
        message={deleting && `${deleting.name} · ${alertText(deleting, t)}`}
        confirmLabel={t('watchlist.delete')}
        danger
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </main>
  );
}
