import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StockRow } from '../../shared/contract/market';
import { POLL_MS } from '../../shared/rules';
import { SimulatedMark } from '../../shell/SimulatedMark';
import {
  AsOf,
  Dialog,
  EmptyState,
  ErrorState,
  IconSearch,
  PageHeader,
  Segmented,
  Skeleton,
  Tabs,
  TextField,
} from '../../ui';
import { IndexCard } from '../_parts/market/IndexCard';
import { StockListRow } from '../_parts/market/InstrumentRow';
import { ListHead } from '../_parts/market/ListHead';
import m from '../_parts/market/market.module.css';
import { PagedList } from '../_parts/market/PagedList';
import { useDebounced } from '../_parts/market/useDebounced';
import s from './markets.module.css';
import { useMarkets } from './useMarkets';

/** Markets (SPEC §2, /markets): region, index tabs with the index card, the region's stocks, search. */
export default function MarketsScreen() {
  const { t } = useTranslation();
  const { categories, category, indices, rows, index, choose, search, setSearch } = useMarkets();
  const panelId = useId();
  const renderRow = useCallback((row: StockRow) => <StockListRow key={row.stock} row={row} />, []);

  return (
    <main className={m.page}>
      <PageHeader noBack title={t('markets.title')} />
      {/* Always in view (issue 14): a tap opens the search with its instant results. */}
      <button
        type="button"
        className={s.searchBar}
        aria-label={t('markets.search.open')}
        onClick={() => setSearch('')}
      >
        <IconSearch size={18} />
        <span>{t('watch.search.placeholder')}</span>
      </button>
      <div className={s.top}>
        {categories.data ? (
          <Segmented
            label={t('markets.region')}
            value={category?.category_code ?? ''}
            onChange={(region) => choose({ region })}
            items={categories.data.categories.map((c) => ({
              value: c.category_code,
              label: c.category_name,
            }))}
          />
        ) : categories.error ? (
          <ErrorState message={t(categories.error)} onRetry={categories.reload} />
        ) : (
          <Skeleton height={44} />
        )}
        <div className={s.marks}>
          <SimulatedMark />
          {indices.stale && <AsOf at={indices.updatedAt} stale />}
        </div>
      </div>

      {category && (
        <section className={s.indices} aria-label={t('markets.indices')}>
          {rows.length > 0 ? (
            <>
              <Tabs
                id={panelId}
                label={t('markets.indices')}
                value={index?.symbol ?? ''}
                onChange={(symbol) => choose({ index: symbol })}
                items={rows.map((r) => ({ value: r.symbol, label: r.name }))}
              />
              <div
                className={s.indexPanel}
                role="tabpanel"
                aria-labelledby={index ? `${panelId}-${index.symbol}` : undefined}
              >
                {index && <IndexCard index={index} size="wide" />}
              </div>
            </>
          ) : indices.error ? (
            <ErrorState message={t(indices.error)} onRetry={indices.reload} />
          ) : (
            <div className={s.indexPanel}>
              <Skeleton height={44} />
              <Skeleton height={132} className={m.gapAbove} />
            </div>
          )}
        </section>
      )}

      {category && (
        <section className={s.stocks} aria-labelledby="markets-stocks">
          <h2 id="markets-stocks" className={s.sectionTitle}>
            {t('markets.stocks', { region: category.category_name })}
          </h2>
          <ListHead />
          <PagedList
            name="stockList"
            input={{ category: category.category_code }}
            intervalMs={POLL_MS.prices}
            label={t('markets.stocks', { region: category.category_name })}
            renderRow={renderRow}
            empty={<EmptyState title={t('markets.empty')} />}
          />
        </section>
      )}
      {search !== null && (
        <SearchDialog initial={search} onTerm={setSearch} onClose={() => setSearch(null)} />
      )}
    </main>
  );
}

/** Search by name or code across every market's stocks, 300 ms after the last keystroke. */
function SearchDialog({
  initial,
  onTerm,
  onClose,
}: {
  initial: string;
  onTerm: (term: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const term = useDebounced(text.trim());
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new term is written to the address
  useEffect(() => {
    if (term !== initial) onTerm(term);
  }, [term]);
  const scroller = useRef<HTMLDivElement>(null);
  // Opening a result leaves this screen, which closes the dialog with it.
  const renderRow = useCallback((row: StockRow) => <StockListRow key={row.stock} row={row} />, []);
  return (
    <Dialog open onClose={onClose} title={t('markets.search.title')}>
      <TextField
        label={t('markets.search.label')}
        type="search"
        value={text}
        onChange={setText}
        placeholder={t('markets.search.placeholder')}
        autoFocus
        autoComplete="off"
        autoCapitalize="characters"
        enterKeyHint="search"
        start={<IconSearch size={18} />}
      />
      <div ref={scroller} className={s.results}>
        {term === '' ? (
          <p className={s.searchHint}>{t('markets.search.hint')}</p>
        ) : (
          <PagedList
            name="stockList"
            input={{ symbol: term }}
            intervalMs={0}
            label={t('markets.search.results')}
            renderRow={renderRow}
            root={scroller}
            empty={<EmptyState title={t('markets.search.none', { term })} />}
          />
        )}
      </div>
    </Dialog>
  );
}
