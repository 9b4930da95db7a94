import { useTranslation } from 'react-i18next';
import { holdingsPath } from '../../paths';
import { MarketListScreen } from '../_parts/market/MarketListScreen';
import { MarketRows } from '../_parts/market/MarketRows';

const TEXT = {
  label: 'markets.treasury.title',
  empty: 'markets.treasury.empty',
  noMatch: 'markets.treasury.noMatch',
  failed: 'markets.treasury.failed',
};

/** Treasury debt (SPEC §2, /treasury-debt): search, list with exchange, name, price and change. */
export default function TreasuryDebtScreen() {
  const { t } = useTranslation();
  return (
    <MarketListScreen
      title={t('markets.treasury.title')}
      positions={holdingsPath('treasury', 'ok')}
      searchLabel={t('markets.treasury.search')}
    >
      {(code, clear) => <MarketRows market="CGI" code={code} text={TEXT} onClear={clear} />}
    </MarketListScreen>
  );
}
