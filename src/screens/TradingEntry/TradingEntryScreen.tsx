import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { PATHS, tradingPath } from '../../paths';
import { displayCode } from '../../shared/rules';
import { EmptyState, ErrorState, PageHeader, SkeletonList } from '../../ui';

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
    <main className={s.page}>
      <PageHeader title={displayCode(code)} back={PATHS.markets} />
      {result.state === 'loading' ? (
        <SkeletonList rows={3} height={72} />
      ) : result.state === 'error' ? (
        <ErrorState message={t(result.error)} onRetry={retry} />
      ) : (
        <EmptyState title={t('trade.notFound', { code: displayCode(code) })}>
          <Link to={PATHS.markets}>{t('records.browse')}</Link>
        </EmptyState>
      )}
    </main>
  );
}
