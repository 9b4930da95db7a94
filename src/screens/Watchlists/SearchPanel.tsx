import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { stockPath } from '../../paths';
import type { StockRow } from '../../shared/contract/market';
import { formatPrice } from '../../shared/format';
import { displayCode } from '../../shared/rules';
import { IconCheck, IconPlus, ui } from '../../ui';
import { SearchResults } from '../_parts/market/MarketSearch';
import w from '../_parts/watchlist/watchlist.module.css';

/**
 * Instant results of the watchlist's search field (the shared `SearchResults`: name or code, every
 * market), each with an add/remove button for the selected list. `has` says what the list holds.
 */
export function SearchPanel({
  term,
  listName,
  has,
  onToggle,
}: {
  term: string;
  listName: string;
  has: (symbol: string) => boolean;
  onToggle: (row: StockRow, on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <SearchResults term={term}>
      {(rows) => (
        <InstrumentPicks
          label={t('markets.search.results')}
          rows={rows}
          listName={listName}
          has={has}
          onToggle={onToggle}
        />
      )}
    </SearchResults>
  );
}

/** Instruments with a one-tap add to (or remove from) the selected list. */
export function InstrumentPicks({
  label,
  rows,
  listName,
  has,
  onToggle,
}: {
  label: string;
  rows: readonly StockRow[];
  listName: string;
  has: (symbol: string) => boolean;
  onToggle: (row: StockRow, on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className={ui.cardList} aria-label={label}>
      {rows.map((row) => {
        const on = has(row.stock);
        const code = displayCode(row.stock);
        return (
          <li key={row.stock} className={`${ui.cardRow} ${w.popularRow}`}>
            <Link to={stockPath(row.stock, row.name, row.market)} className={w.popularName}>
              <span className={ui.name}>{row.name}</span>
              <span>
                {code} · {row.exchange_name} ·{' '}
                <span className="num">{formatPrice(row.prasent, row.decimals)}</span>
              </span>
            </Link>
            <button
              type="button"
              className={w.pick}
              aria-pressed={on}
              aria-label={t(on ? 'watch.search.remove' : 'watch.search.add', { code, list: listName })}
              onClick={() => onToggle(row, !on)}
            >
              {on ? <IconCheck size={20} /> : <IconPlus size={20} />}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
