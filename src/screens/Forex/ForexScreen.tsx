import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrencyRow } from '../../shared/contract/market';
import { POLL_MS } from '../../shared/rules';
import { EmptyState } from '../../ui';
import { InstrumentRow } from '../markets/InstrumentRow';
import { ListHead } from '../markets/ListHead';
import { stockPath } from '../markets/links';
import { MarketListScreen } from '../markets/MarketListScreen';
import { PagedList } from '../markets/PagedList';

/** The market code of currency pairs (their detail lists the other pairs). */
const FOREX_MARKET = 'FOREX';

/** Forex (SPEC §2, /forex): code search, an infinite list of pairs with price, change and percent. */
export default function ForexScreen() {
  const { t } = useTranslation();
  const renderRow = useCallback(
    (row: CurrencyRow) => (
      <InstrumentRow
        key={row.stock}
        to={stockPath(row.stock, row.name, FOREX_MARKET)}
        symbol={row.stock}
        name={row.name}
        price={row.prasent}
        change={row.change}
        percent={row.percent_change}
        decimals={row.decimals}
      />
    ),
    [],
  );
  return (
    <MarketListScreen
      title={t('markets.forex.title')}
      positions="/trade-no-nav/forex/1"
      searchLabel={t('markets.forex.search')}
    >
      {(code) => (
        <>
          <ListHead />
          <PagedList
            name="currencyList"
            input={code ? { code } : {}}
            intervalMs={POLL_MS.prices}
            label={t('markets.forex.title')}
            renderRow={renderRow}
            empty={<EmptyState title={t(code ? 'markets.forex.noMatch' : 'markets.forex.empty')} />}
          />
        </>
      )}
    </MarketListScreen>
  );
}
