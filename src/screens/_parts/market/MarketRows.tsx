import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { POLL_MS } from '../../../shared/rules';
import { Button, EmptyState, IconSearch, ListStates, StaleLine, ui } from '../../../ui';
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

/** A list with nothing to show; after a search, the way back to the whole list. */
export function NoMatch({ code, title, onClear }: { code: string; title: string; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={title} icon={<IconSearch size={28} />}>
      {code && (
        <Button variant="secondary" onClick={onClear}>
          {t('markets.lists.showAll')}
        </Button>
      )}
    </EmptyState>
  );
}

/** Futures (FUTURE) or treasury debt (CGI): one list, live every 5 s; a row opens the detail. */
export function MarketRows({
  market,
  code,
  text,
  onClear,
}: {
  market: 'FUTURE' | 'CGI';
  code: string;
  text: MarketRowsText;
  /** Shows the whole list again: what a search that matched nothing offers. */
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const list = useWatch('marketList', code ? { market, code } : { market }, POLL_MS.prices);
  return (
    <ListStates
      rows={list.data?.rows}
      error={list.error && (code ? 'markets.lists.searchFailed' : text.failed)}
      onRetry={list.reload}
      skeleton={{ rows: 6, height: 52 }}
      empty={<NoMatch code={code} title={t(code ? text.noMatch : text.empty)} onClear={onClear} />}
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
