import { useTranslation } from 'react-i18next';
import { holdingsPath } from '../../paths';
import { MarketListScreen } from '../_parts/market/MarketListScreen';
import { MarketRows } from '../_parts/market/MarketRows';

const TEXT = {
  label: 'markets.futures.title',
  empty: 'markets.futures.empty',
  noMatch: 'markets.futures.noMatch',
  failed: 'markets.futures.failed',
};

/** Futures (SPEC §2, /futures): search, list with exchange, name, price and change. */
export default function FuturesScreen() {
  const { t } = useTranslation();
  return (
    <MarketListScreen
      title={t('markets.futures.title')}
      positions={holdingsPath('futures', 'ok')}
      searchLabel={t('markets.futures.search')}
    >
      {(code, clear) => <MarketRows market="FUTURE" code={code} text={TEXT} onClear={clear} />}
    </MarketListScreen>
  );
}
