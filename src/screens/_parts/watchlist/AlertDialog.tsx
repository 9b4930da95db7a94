import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useQuote } from '../../../api/quotes';
import type { AlertKind, AlertRow } from '../../../shared/contract/watchlist';
import { formatPrice } from '../../../shared/format';
import {
  ALERT_FIRES_PER_DAY,
  ALERT_MOVE_MAX,
  ALERT_MOVE_MIN,
  ALERTS_MAX,
  displayCode,
} from '../../../shared/rules';
import { toast } from '../../../store/ui';
import { Button, Dialog, Segmented, TextField, ui } from '../../../ui';
import { askNotificationPermission } from './notify';
import s from './watchlist.module.css';

/** Values the alert refusals interpolate (the server names the key; the bounds are shared rules). */
const ALERT_LIMITS = { min: ALERT_MOVE_MIN, max: ALERT_MOVE_MAX };

/**
 * Makes (or edits) a price alert: above or below a price, or a move of N % in the day. The server
 * checks the level against its quote (a level already past is refused: the user means the next
 * crossing). The first alert made asks for permission to show system notifications — never earlier.
 */
export function AlertDialog({
  target,
  editing,
  onClose,
  onSaved,
}: {
  target: { symbol: string; name: string } | null;
  editing?: AlertRow | null;
  onClose: () => void;
  onSaved?: (row: AlertRow) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      title={t(editing ? 'watch.alerts.editTitle' : 'watch.alerts.newTitle')}
      sheet
    >
      {target && <AlertForm target={target} editing={editing ?? null} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function AlertForm({
  target,
  editing,
  onClose,
  onSaved,
}: {
  target: { symbol: string; name: string };
  editing: AlertRow | null;
  onClose: () => void;
  onSaved?: (row: AlertRow) => void;
}) {
  const { t } = useTranslation();
  const { quote } = useQuote(target.symbol);
  const decimals = quote?.decimals ?? editing?.decimals ?? 2;
  const price = quote?.price ?? editing?.ref_price;
  const [kind, setKind] = useState<AlertKind>(editing?.kind ?? 'above');
  const [text, setText] = useState(editing ? String(editing.value) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** A starting level 1 % away from the price (a move: 2 %), so one tap makes a sensible alert. */
  const suggest = (k: AlertKind) => {
    if (k === 'move') return '2';
    if (price === undefined) return '';
    return (price * (k === 'above' ? 1.01 : 0.99)).toFixed(decimals);
  };
  const shown = text === '' && !editing ? suggest(kind) : text;

  async function save() {
    const value = Number(shown);
    if (!Number.isFinite(value) || value <= 0) {
      setError(t('watch.alerts.enterValue'));
      return;
    }
    setBusy(true);
    const result = editing
      ? await call('alertUpdate', { id: editing.id, kind, value })
      : await call('alertCreate', { symbol: target.symbol, kind, value });
    setBusy(false);
    if (!result.ok) {
      setError(
        t(result.error, {
          ...ALERT_LIMITS,
          max:
            result.error === 'errors.alertLimit'
              ? ALERTS_MAX
              : result.error === 'errors.alertDailyLimit'
                ? ALERT_FIRES_PER_DAY
                : ALERT_MOVE_MAX,
        }),
      );
      return;
    }
    if (!editing) await askNotificationPermission();
    toast(editing ? 'watch.alerts.saved' : 'watch.alerts.created', 'success', {
      code: displayCode(target.symbol),
    });
    onSaved?.(result.data);
    onClose();
  }

  return (
    <form
      className={ui.dialogForm}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className={s.formLead}>
        {target.name} · {displayCode(target.symbol)}
        {price !== undefined && (
          <span className="num"> · {t('watch.alerts.now', { price: formatPrice(price, decimals) })}</span>
        )}
      </p>
      <Segmented
        label={t('watch.alerts.kind')}
        value={kind}
        onChange={(k) => {
          setKind(k);
          if (!editing) setText('');
          setError(null);
        }}
        items={(['above', 'below', 'move'] as const).map((k) => ({
          value: k,
          label: t(`watch.alerts.kinds.${k}`),
        }))}
      />
      <TextField
        label={t(kind === 'move' ? 'watch.alerts.percent' : 'watch.alerts.price')}
        value={shown}
        onChange={(v) => {
          setText(v);
          setError(null);
        }}
        inputMode="decimal"
        autoComplete="off"
        error={error}
        hint={kind === 'move' ? t('watch.alerts.moveHint', ALERT_LIMITS) : undefined}
      />
      <div className={s.formActions}>
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={busy}>
          {t(editing ? 'watch.alerts.save' : 'watch.alerts.create')}
        </Button>
      </div>
    </form>
  );
}

/** How an alert reads in a list: "Above 1,234.50", "Below …", "Moves 2% in a day". */
export function alertText(
  a: Pick<AlertRow, 'kind' | 'value' | 'decimals'>,
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  return a.kind === 'move'
    ? t('watch.alerts.describe.move', { value: a.value })
    : t(`watch.alerts.describe.${a.kind}`, { value: formatPrice(a.value, a.decimals) });
}
