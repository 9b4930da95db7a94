import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import type { StockRow } from '../../../shared/contract/market';
import { EmptyState, IconSearch, ListStates, TextField, ui } from '../../../ui';
import s from './market.module.css';
import { useDebounced } from './useDebounced';

/**
 * The always-visible search of Watchlists and Markets: a field whose text is searched by
 * name or code across every market (`marketSearch`, /v2/search: stocks, indices, forex, futures,
 * treasury debt) 300 ms after the last keystroke. `term` is the trimmed text once typing pauses;
 * '' means no search (the screen shows its own content).
 */
export function useMarketSearch(initial = '') {
  const [text, setText] = useState(initial);
  const term = useDebounced(text.trim());
  return { text, setText, term };
}

/** The search field itself, under the screen's title. */
export function SearchField({
  text,
  onChange,
  autoFocus,
}: {
  text: string;
  onChange: (text: string) => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <search className={s.search}>
      <TextField
        label={t('watch.search.label')}
        type="search"
        value={text}
        onChange={onChange}
        placeholder={t('watch.search.placeholder')}
        autoFocus={autoFocus}
        autoComplete="off"
        enterKeyHint="search"
        start={<IconSearch size={18} />}
      />
    </search>
  );
}

/**
 * The results of a (debounced, non-empty) term: loading → error → none → the rows, which each
 * screen draws its own way (Markets: instrument rows with the star; Watchlists: add to the list).
 */
export function SearchResults({
  term,
  children,
}: {
  term: string;
  children: (rows: readonly StockRow[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const results = useWatch('marketSearch', { q: term, limit: 20 }, 0);
  return (
    <ListStates
      rows={results.data?.rows}
      error={results.error}
      onRetry={results.reload}
      skeleton={{ rows: 4, height: 56 }}
      empty={
        <EmptyState title={t('markets.search.none', { term })} icon={<IconSearch size={28} />}>
          <p className={ui.centredNote}>{t('markets.search.noneHint')}</p>
        </EmptyState>
      }
    >
      {children}
    </ListStates>
  );
}
