import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { POLL_MS } from '../../../shared/rules';
import { EmptyState, ListStates, StaleLine, ui } from '../../../ui';
import { StockListRow } from './InstrumentRow';
import { ListHead } from './ListHead';
import s from './market.module.css';

export interface MarketRowsText {
  label: string;
  /** SPEC §8: 'No futures data available' / 'No treasury debt data available'. */
  empty: string;
  /** SPEC §8: 'No matching futures found' / 'No matching treasury debt found'. */
  noMatch: string;
  /** SPEC §8: 'Failed to load ... list'. */
  failed: string;
}

/** Futures (FUTURE) or treasury debt (CGI): one list, live every 5 s; a row opens the detail. */
export function MarketRows({
  market,
  code,
  text,
}: {
  market: 'FUTURE' | 'CGI';
  code: string;
  text: MarketRowsText;
}) {
  const { t } = useTranslation();
  const list = useWatch('marketList', code ? { market, code } : { market }, POLL_MS.prices);
  return (
    <ListStates
      rows={list.data?.rows}
      error={list.error && (code ? 'markets.lists.searchFailed' : text.failed)}
      onRetry={list.reload}
      skeleton={{ rows: 6, height: 52 }}
      empty={<EmptyState title={t(code ? text.noMatch : text.empty)} />}
    >
      {(rows) => (
        <>
          <StaleLine of={list} />
          <ListHead />
          <ul className={`${ui.plainList} ${s.rows}`} aria-label={t(text.label)}>
            {rows.map((row) => (
              <StockListRow key={row.stock} row={row} />
            ))}
          </ul>
        </>
      )}
    </ListStates>
  );
}
