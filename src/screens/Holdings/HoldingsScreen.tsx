import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { PATHS, tradingPath } from '../../paths';
import type { HoldingRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber, formatPercent, trendClass } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { toMinor } from '../../shared/money';
import { displayCode, HOLDING_TYPES, type HoldingKind, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import {
  EmptyState,
  IconTrade,
  ListStates,
  LoadMore,
  PageHeader,
  Segmented,
  StaleLine,
  ui,
  useDates,
} from '../../ui';
import { LotSellDialog, type LotToSell } from '../_parts/invest/LotSellDialog';
import { regionPrice, SignedMoney } from '../_parts/invest/parts';
import { Signed, TotalsCard, usePortfolioSummary } from '../_parts/portfolio/parts';
import p from '../_parts/portfolio/portfolio.module.css';
import { PortfolioSwitch } from '../_parts/trading/PortfolioSwitch';

import s from '../_parts/trading/trading.module.css';
import { useHoldings } from './useHoldings';

/**
 * Holdings (SPEC §2): the portfolio's summary, type buttons with that type's totals, a
 * table of everything held — positions and block/QIP/IPO lots, a lot's lock-in tagged — valued by
 * the server, infinite paging. A lot is sold whole from its row (the lot sale sheet).
 */
export default function HoldingsScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const { type, setType, noNav, first, paging, hasMore } = useHoldings();
  const summary = usePortfolioSummary();
  const rows = first.data?.rows;
  const ofType = summary.data?.by_type[type];
  const [selling, setSelling] = useState<HoldingRow | null>(null);

  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader
        title={t('holdings.title')}
        noBack={!noNav}
        actions={
          <Link to={PATHS.records} className={s.headerLink}>
            {t('holdings.records')}
          </Link>
        }
      />
      <PortfolioSwitch current="holdings" />
      <TotalsCard
        title={t('portfolio.summary')}
        totals={summary.data?.overall}
        updatedAt={summary.updatedAt}
        stale={summary.stale}
        every={summary.intervalMs}
        action={
          <Link to={PATHS.statement} className={ui.textLink}>
            {t('portfolio.statementLink')}
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
      {ofType && ofType.positions > 0 && (
        <p className={p.typeLine} data-testid="type-totals">
          {t('portfolio.typeLine', {
            type: t(`holdings.types.${type}`),
            invested: formatMoney(ofType.invested, config.currency),
            value: formatMoney(ofType.value, config.currency),
          })}{' '}
          · <Signed amount={ofType.pnl} percent={ofType.pnl_percent} currency={config.currency} />
        </p>
      )}
      <StaleLine of={first} />
      <ListStates
        rows={rows}
        error={first.error}
        onRetry={first.reload}
        skeleton={{ rows: 4, height: 56 }}
        empty={
          <EmptyState title={t(`holdings.empty.${type}`)} icon={<IconTrade size={28} />}>
            <Link to={EXPLORE[type]}>{t('holdings.explore')}</Link>
          </EmptyState>
        }
      >
        {(rows) => (
          <>
            <section className={s.table} aria-label={t(`holdings.types.${type}`)}>
              <div className={s.tableHead} aria-hidden="true">
                <span>{t('holdings.col.stock')}</span>
                <span>{t('holdings.col.quantityCost')}</span>
                <span>{t('holdings.col.valueProfit')}</span>
              </div>
              <ul className={ui.plainList}>
                {rows.map((row) => (
                  <Holding key={row.lot?.no ?? row.stock} row={row} onSellLot={setSelling} />
                ))}
                {paging.rest.map((page) => (
                  <HoldingsPage
                    key={page}
                    type={type}
                    page={page}
                    onSettled={paging.settle}
                    onSellLot={setSelling}
                  />
                ))}
              </ul>
            </section>
            <LoadMore hasMore={hasMore} loading={paging.loading} onMore={paging.more} />
          </>
        )}
      </ListStates>
      {selling?.lot && (
        <LotSellDialog
          order={lotToSell(selling)}
          onClose={() => setSelling(null)}
          onDone={() => {
            setSelling(null);
            first.reload();
            summary.reload();
          }}
        />
      )}
    </main>
  );
}

/** A lot row as the sale sheet takes it: the order's number, units, price and lock. */
function lotToSell(row: HoldingRow): LotToSell {
  return {
    no: row.lot?.no ?? '',
    tag: row.stock,
    count: row.count,
    price: row.avg_price,
    type: row.region,
    market: row.market,
    unlock_at: row.lot?.unlock_at ?? null,
  };
}

/** Where to find something to hold of each type. */
const EXPLORE: Record<HoldingKind, string> = {
  stock: PATHS.markets,
  forex: PATHS.forex,
  futures: PATHS.futures,
  treasury: PATHS.treasuryDebt,
};

function HoldingsPage({
  type,
  page,
  onSettled,
  onSellLot,
}: {
  type: HoldingKind;
  page: number;
  onSettled: (page: number) => void;
  onSellLot: (row: HoldingRow) => void;
}) {
  const { data, loading } = useWatch('holdings', { type, page, limit: PAGE_SIZE }, POLL_MS.prices);
  useEffect(() => {
    if (!loading) onSettled(page);
  }, [loading, page, onSettled]);
  return (
    <>
      {data?.rows.map((row) => (
        <Holding key={row.lot?.no ?? row.stock} row={row} onSellLot={onSellLot} />
      ))}
    </>
  );
}

/** Lot kinds as a holding's tag. */
const LOT_TAG = {
  bulk: 'holdings.lot.bulk',
  finalize: 'holdings.lot.finalize',
  ipo: 'holdings.lot.ipo',
} as const;

/**
 * One holding: a position opens the sell ticket; a lot (sold whole by its number) opens its sale
 * sheet, which says when a locked lot becomes sellable.
 */
function Holding({ row, onSellLot }: { row: HoldingRow; onSellLot: (row: HoldingRow) => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const code = displayCode(row.stock);
  const lot = row.lot;
  // Named by what it shows, in the order shown (WCAG 2.5.3), and then where it goes.
  const cells = (
    <>
      <span className={s.cell}>
        <span className={s.cellMain}>{row.name}</span> <span className={s.cellName}>{code}</span>
        {lot && (
          <>
            {' '}
            <span className={s.lotTag}>{t(LOT_TAG[lot.mold])}</span>
          </>
        )}
      </span>{' '}
      <span className={s.cell}>
        <span className={s.cellMain}>{formatNumber(row.count, 0)}</span>{' '}
        <span className={s.cellSub}>
          {t('portfolio.avg', { price: regionPrice(config, row.region, row.avg_price, row.decimals) })}
        </span>{' '}
        <span className={s.cellSub}>
          {row.as_of
            ? t('portfolio.ltp', { price: regionPrice(config, row.region, row.prasent, row.decimals) })
            : t('portfolio.noQuote')}
        </span>{' '}
        {lot?.unlock_at != null ? (
          <span className={`${s.cellSub} ${s.locked}`} data-testid="lot-lock">
            {t('holdings.lot.lockedUntil', {
              count: row.count,
              time: exchange(lot.unlock_at, scheduleOf(row.market, row.region), 'dayMonthClock'),
            })}
          </span>
        ) : (
          row.available < row.count && (
            <span className={s.cellSub}>{t('holdings.available', { count: row.available })}</span>
          )
        )}
      </span>{' '}
      <span className={s.cell}>
        <span className={s.cellMain}>{formatMoney(row.value, config.currency)}</span>{' '}
        <span className={s.cellSub}>
          <SignedMoney amount={row.profit} currency={config.currency} />
        </span>{' '}
        <span className={s.cellSub}>
          {/* Its own span: cellSub's grey would win over the global up/down colour. */}
          <span className={trendClass(row.profit_percent)}>{formatPercent(row.profit_percent)}</span>
        </span>{' '}
        <span className={s.cellSub} data-testid="row-today">
          {t('portfolio.todayShort', {
            amount: `${(toMinor(row.today_pnl) ?? 0) > 0 ? '+' : ''}${formatMoney(row.today_pnl, config.currency)}`,
          })}
        </span>
      </span>
    </>
  );
  return (
    <li className={s.holdingItem} data-symbol={row.stock} data-lot={lot?.no}>
      {lot ? (
        <button type="button" className={s.holding} onClick={() => onSellLot(row)}>
          {cells}
          <span className="visually-hidden"> {t('holdings.lot.opensSale')}</span>
        </button>
      ) : (
        <Link to={tradingPath(row.stock, row.market, row.name, 'sell')} className={s.holding}>
          {cells}
          <span className="visually-hidden"> {t('holdings.opensSell')}</span>
        </Link>
      )}
    </li>
  );
}
