import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { PATHS, tradingPath } from '../../paths';
import { displayCode } from '../../shared/rules';
import { EmptyState, IconSearch, ListStates, PageHeader, ui } from '../../ui';

import s from '../_parts/trading/trading.module.css';
import { useTradingEntry } from './useTradingEntry';

/** /trading/{code}: sends the user on to the buy/sell screen of that code, or says it is unknown. */
export default function TradingEntryScreen() {
  const { t } = useTranslation();
  const code = useParams<{ code: string }>().code ?? '';
  const { result, retry } = useTradingEntry(code);
  if (result.state === 'found') {
    const q = result.quote;
    return <Navigate replace to={tradingPath(q.symbol, q.market, q.name)} />;
  }
  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader title={displayCode(code)} back={PATHS.markets} />
      <ListStates
        rows={result.state === 'notFound' ? [] : undefined}
        error={result.state === 'error' ? result.error : null}
        onRetry={retry}
        skeleton={{ rows: 3, height: 72 }}
        empty={
          <EmptyState
            title={t('trade.notFound', { code: displayCode(code) })}
            icon={<IconSearch size={28} />}
          >
            <Link to={PATHS.markets}>{t('records.browse')}</Link>
          </EmptyState>
        }
      >
        {/* A found code has already navigated away; only the ladder's first three rungs show here. */}
        {() => null}
      </ListStates>
    </main>
  );
}
