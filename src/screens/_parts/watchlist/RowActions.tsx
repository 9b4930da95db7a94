import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { stockPath, tradingPath } from '../../../paths';
import { displayCode } from '../../../shared/rules';
import { Dialog, IconBell, IconChart, IconTrade, IconTrash, ui } from '../../../ui';
import s from './watchlist.module.css';

/** What a watchlist row's actions need to know about its instrument. */
export interface RowInstrument {
  symbol: string;
  name: string;
  market: string;
}

export interface RowActionHandlers {
  onAlert: (row: RowInstrument) => void;
  onRemove: (row: RowInstrument) => void;
}

/** Buy, Sell, Chart, Alert, Remove: the same five for the swipe and the long-press sheet. */
function useActions(row: RowInstrument, handlers: RowActionHandlers) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tradable = row.market !== '' && row.market !== 'INDEX';
  const all: Array<{ key: string; label: string; icon: ReactNode; tone?: string; run: () => void }> = [
    ...(tradable
      ? [
          {
            key: 'buy',
            label: t('watch.row.buy'),
            icon: <IconTrade size={18} />,
            tone: s.buy,
            run: () => navigate(tradingPath(row.symbol, row.market, row.name, 'buy')),
          },
          {
            key: 'sell',
            label: t('watch.row.sell'),
            icon: <IconTrade size={18} />,
            tone: s.sell,
            run: () => navigate(tradingPath(row.symbol, row.market, row.name, 'sell')),
          },
        ]
      : []),
    {
      key: 'chart',
      label: t('watch.row.chart'),
      icon: <IconChart size={18} />,
      run: () => navigate(stockPath(row.symbol, row.name, row.market || undefined)),
    },
    {
      key: 'alert',
      label: t('watch.row.alert'),
      icon: <IconBell size={18} />,
      run: () => handlers.onAlert(row),
    },
    {
      key: 'remove',
      label: t('watch.row.remove'),
      icon: <IconTrash size={18} />,
      tone: s.remove,
      run: () => handlers.onRemove(row),
    },
  ];
  return all;
}

/** Width of the swiped-in buttons of a row: 56 px each. */
export const actionsWidth = (row: RowInstrument) =>
  56 * (row.market !== '' && row.market !== 'INDEX' ? 5 : 3);

/** The buttons a swipe reveals. */
export function SwipeActions({ row, handlers }: { row: RowInstrument; handlers: RowActionHandlers }) {
  const actions = useActions(row, handlers);
  const { t } = useTranslation();
  const code = displayCode(row.symbol);
  return (
    <>
      {actions.map((a) => (
        <button
          key={a.key}
          type="button"
          data-row-action={a.key}
          className={`${s.swipeButton} ${a.tone ?? ''}`}
          aria-label={t('watch.row.actionOn', { action: a.label, code })}
          onClick={a.run}
        >
          {a.icon}
          <span aria-hidden="true">{a.label}</span>
        </button>
      ))}
    </>
  );
}

/** The same actions as a bottom sheet (long press, context-menu key). */
export function ActionsSheet({
  row,
  handlers,
  onClose,
}: {
  row: RowInstrument | null;
  handlers: RowActionHandlers;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={row !== null}
      onClose={onClose}
      title={row ? `${row.name} · ${displayCode(row.symbol)}` : ''}
      sheet
    >
      {row && <SheetBody row={row} handlers={handlers} onClose={onClose} />}
    </Dialog>
  );
}

function SheetBody({
  row,
  handlers,
  onClose,
}: {
  row: RowInstrument;
  handlers: RowActionHandlers;
  onClose: () => void;
}) {
  const actions = useActions(row, handlers);
  return (
    <ul className={`${ui.plainList} ${s.sheetList}`}>
      {actions.map((a) => (
        <li key={a.key}>
          <button
            type="button"
            className={`${s.sheetButton} ${a.tone ?? ''}`}
            onClick={() => {
              onClose();
              a.run();
            }}
          >
            {a.icon}
            {a.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
