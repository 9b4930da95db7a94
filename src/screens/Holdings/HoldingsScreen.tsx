import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import type { HoldingRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber, formatPercent } from '../../shared/format';
import { displayCode, HOLDING_TYPES, type HoldingKind, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { AsOf, EmptyState, ErrorState, LoadMore, PageHeader, Segmented, SkeletonList } from '../../ui';
import { regionPrice, SignedMoney } from '../invest/parts';
import { tradingPath } from '../trade/parts';
import s from '../trade/trade.module.css';
import { useHoldings } from './useHoldings';

/** Holdings (SPEC §2): type buttons, a table of positions valued by the server, infinite paging. */
export default function HoldingsScreen() {
  const { t } = useTranslation();
  const { type, setType, noNav, first, paging, hasMore } = useHoldings();
  const rows = first.data?.rows;

  return (
    <main className={s.page}>
      <PageHeader
        title={t('holdings.title')}
        noBack={!noNav}
        actions={
          <Link to="/records" className={s.headerLink}>
            {t('holdings.records')}
          </Link>
        }
      />
      <div className={s.typeBar}>
        <Segmented<HoldingKind>
          label={t('holdings.type')}
          value={type}
          onChange={setType}
          items={HOLDING_TYPES.map((value) => ({ value, label: t(`holdings.types.${value}`) }))}
        />
      </div>
      {first.stale && (
        <div className={s.asOfLine}>
          <AsOf at={first.updatedAt} stale />
        </div>
      )}
      {rows === undefined ? (
        first.error ? (
          <ErrorState message={t(first.error)} onRetry={first.reload} />
        ) : (
          <SkeletonList rows={4} height={56} />
        )
      ) : rows.length === 0 ? (
        <EmptyState title={t(`holdings.empty.${type}`)}>
          <Link to={EXPLORE[type]}>{t('holdings.explore')}</Link>
        </EmptyState>
      ) : (
        <>
          <section className={s.table} aria-label={t(`holdings.types.${type}`)}>
            <div className={s.tableHead} aria-hidden="true">
              <span>{t('holdings.col.stock')}</span>
              <span>{t('holdings.col.quantityCost')}</span>
              <span>{t('holdings.col.valueProfit')}</span>
            </div>
            <ul className={s.holdingList}>
              {rows.map((row) => (
                <Holding key={row.stock} row={row} />
              ))}
              {paging.rest.map((page) => (
                <HoldingsPage key={page} type={type} page={page} onSettled={paging.settle} />
              ))}
            </ul>
          </section>
          <LoadMore hasMore={hasMore} loading={paging.loading} onMore={paging.more} />
        </>
      )}
    </main>
  );
}

/** Where to find something to hold of each type. */
const EXPLORE: Record<HoldingKind, string> = {
  stock: '/markets',
  forex: '/forex',
  futures: '/futures',
  treasury: '/treasury-debt',
};

function HoldingsPage({
  type,
  page,
  onSettled,
}: {
  type: HoldingKind;
  page: number;
  onSettled: (page: number) => void;
}) {
  const { data, loading } = useWatch('holdings', { type, page, limit: PAGE_SIZE }, POLL_MS.prices);
  useEffect(() => {
    if (!loading) onSettled(page);
  }, [loading, page, onSettled]);
  return (
    <>
      {data?.rows.map((row) => (
        <Holding key={row.stock} row={row} />
      ))}
    </>
  );
}

function Holding({ row }: { row: HoldingRow }) {
  const { t } = useTranslation();
  const config = useConfig();
  const code = displayCode(row.stock);
  const label = t('holdings.rowLabel', {
    code,
    name: row.name,
    count: row.count,
    value: formatMoney(row.value, config.currency),
    profit: formatMoney(row.profit, config.currency),
  });
  return (
    <li className={s.holdingItem} data-symbol={row.stock}>
      <Link
        to={tradingPath(row.stock, row.market, row.name, 'sell')}
        className={s.holding}
        aria-label={label}
      >
        <span className={s.cell}>
          <span className={s.cellMain}>{code}</span>
          <span className={s.cellSub}>{row.name}</span>
          <span className={s.cellSub}>
            {row.as_of ? regionPrice(config, row.region, row.prasent, row.decimals) : '—'}
          </span>
        </span>
        <span className={s.cell}>
          <span className={s.cellMain}>{formatNumber(row.count, 0)}</span>
          <span className={s.cellSub}>{formatMoney(row.cost, config.currency)}</span>
          {row.available < row.count && (
            <span className={s.cellSub}>{t('holdings.available', { count: row.available })}</span>
          )}
        </span>
        <span className={s.cell}>
          <span className={s.cellMain}>{formatMoney(row.value, config.currency)}</span>
          <span className={s.cellSub}>
            <SignedMoney amount={row.profit} currency={config.currency} />
          </span>
          <span
            className={`${s.cellSub} ${row.profit_percent > 0 ? s.up : row.profit_percent < 0 ? s.down : ''}`}
          >
            {formatPercent(row.profit_percent)}
          </span>
        </span>
      </Link>
    </li>
  );
}
