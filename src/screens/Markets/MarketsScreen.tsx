import { useCallback, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { StockRow } from '../../shared/contract/market';
import { POLL_MS } from '../../shared/rules';
import { SimulatedMark } from '../../shell/SimulatedMark';
import {
  AsOf,
  EmptyState,
  IconMarkets,
  ObjectStates,
  PageHeader,
  Segmented,
  Skeleton,
  Tabs,
  ui,
} from '../../ui';
import { IndexCard } from '../_parts/market/IndexCard';
import { StockListRow } from '../_parts/market/InstrumentRow';
import { ListHead } from '../_parts/market/ListHead';
import { SearchField, SearchResults, useMarketSearch } from '../_parts/market/MarketSearch';
import m from '../_parts/market/market.module.css';
import { categoryName } from '../_parts/market/names';
import { PagedList } from '../_parts/market/PagedList';
import s from './markets.module.css';
import { useMarkets } from './useMarkets';

/**
 * Markets (SPEC §2, /markets): the search field (every market), region, index tabs with
 * the index card, the region's stocks.
 */
export default function MarketsScreen() {
  const { t } = useTranslation();
  const { categories, category, indices, rows, index, choose, search, setSearch } = useMarkets();
  const panelId = useId();
  const renderRow = useCallback((row: StockRow) => <StockListRow key={row.stock} row={row} />, []);
  // The text lives in the address too (?search=), so coming back from a result shows the same
  // results; Home's search button arrives with an empty one and the field takes the focus.
  const { text, setText, term } = useMarketSearch(search ?? '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new term is written to the address
  useEffect(() => {
    if (term !== (search ?? '')) setSearch(term === '' ? null : term);
  }, [term]);

  return (
    <main className={ui.page}>
      <PageHeader noBack title={t('markets.title')} />
      {/* Always in view: instant results across every market replace the lists below. */}
      <SearchField text={text} onChange={setText} autoFocus={search !== null && search === ''} />
      {term !== '' ? (
        <section className={m.searchResults} aria-labelledby="markets-results">
          <h2 id="markets-results" className={`${ui.sectionTitle} ${m.listTitle}`}>
            {t('markets.search.results')}
          </h2>
          <ListHead />
          <SearchResults term={term}>
            {(found) => (
              <ul className={`${ui.plainList} ${m.rows}`} aria-label={t('markets.search.results')}>
                {found.map((row) => (
                  <StockListRow key={row.stock} row={row} />
                ))}
              </ul>
            )}
          </SearchResults>
        </section>
      ) : (
        <>
          <div className={s.top}>
            <ObjectStates
              data={categories.data}
              error={categories.error}
              onRetry={categories.reload}
              loading={<Skeleton height={44} />}
            >
              {(regions) => (
                <Segmented
                  label={t('markets.region')}
                  value={category?.category_code ?? ''}
                  onChange={(region) => choose({ region })}
                  items={regions.categories.map((c) => ({
                    value: c.category_code,
                    label: categoryName(t, c),
                  }))}
                />
              )}
            </ObjectStates>
            <div className={s.marks}>
              <SimulatedMark />
              {indices.stale && <AsOf at={indices.updatedAt} stale />}
            </div>
          </div>

          {category && (
            <section className={s.indices} aria-label={t('markets.indices')}>
              {/*
                Until this region's indices arrive: right after a region change the answer still
                held is the previous region's, which has none of this one's rows.
              */}
              <ObjectStates
                data={rows.length > 0 ? rows : undefined}
                error={indices.error}
                onRetry={indices.reload}
                loading={
                  <div className={s.indexPanel}>
                    <Skeleton height={44} />
                    <Skeleton height={132} className={m.gapAbove} />
                  </div>
                }
              >
                {(shown) => (
                  <>
                    <Tabs
                      id={panelId}
                      label={t('markets.indices')}
                      value={index?.symbol ?? ''}
                      onChange={(symbol) => choose({ index: symbol })}
                      items={shown.map((r) => ({ value: r.symbol, label: r.name }))}
                    />
                    <div
                      className={s.indexPanel}
                      role="tabpanel"
                      aria-labelledby={index ? `${panelId}-${index.symbol}` : undefined}
                    >
                      {index && <IndexCard index={index} size="wide" />}
                    </div>
                  </>
                )}
              </ObjectStates>
            </section>
          )}

          {category && (
            <section className={s.stocks} aria-labelledby="markets-stocks">
              <h2 id="markets-stocks" className={`${ui.sectionTitle} ${m.listTitle}`}>
                {t('markets.stocks', { region: categoryName(t, category) })}
              </h2>
              <ListHead />
              <PagedList
                name="stockList"
                input={{ category: category.category_code }}
                intervalMs={POLL_MS.prices}
                label={t('markets.stocks', { region: categoryName(t, category) })}
                renderRow={renderRow}
                empty={<EmptyState title={t('markets.empty')} icon={<IconMarkets size={28} />} />}
              />
            </section>
          )}
        </>
      )}
    </main>
  );
}
