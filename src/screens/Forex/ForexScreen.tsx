import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { holdingsPath } from '../../paths';
import type { CurrencyRow } from '../../shared/contract/market';
import { POLL_MS } from '../../shared/rules';
import { StockListRow } from '../_parts/market/InstrumentRow';
import { ListHead } from '../_parts/market/ListHead';
import { MarketListScreen } from '../_parts/market/MarketListScreen';
import { NoMatch } from '../_parts/market/MarketRows';
import { PagedList } from '../_parts/market/PagedList';

/** The market code of currency pairs (their detail lists the other pairs). */
const FOREX_MARKET = 'FOREX';

/** Forex (SPEC §2, /forex): code search, an infinite list of pairs with price, change and percent. */
export default function ForexScreen() {
  const { t } = useTranslation();
  const renderRow = useCallback(
    (row: CurrencyRow) => <StockListRow key={row.stock} row={{ ...row, market: FOREX_MARKET }} />,
    [],
  );
  return (
    <MarketListScreen
      title={t('markets.forex.title')}
      positions={holdingsPath('forex', '1')}
      searchLabel={t('markets.forex.search')}
    >
      {(code, clear) => (
        <>
          <ListHead />
          <PagedList
            name="currencyList"
            input={code ? { code } : {}}
            intervalMs={POLL_MS.prices}
            label={t('markets.forex.title')}
            renderRow={renderRow}
            empty={
              <NoMatch
                code={code}
                title={t(code ? 'markets.forex.noMatch' : 'markets.forex.empty')}
                onClear={clear}
              />
            }
            failed={code ? 'markets.lists.searchFailed' : 'markets.forex.failed'}
          />
        </>
      )}
    </MarketListScreen>
  );
}
