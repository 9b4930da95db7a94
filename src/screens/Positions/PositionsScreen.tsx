import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { DayPosition } from '../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode, POLL_MS } from '../../shared/rules';
import { Button, EmptyState, IconTrade, ListStates, PageHeader, StaleLine, ui, useDates } from '../../ui';
import { regionPrice, SignedMoney } from '../_parts/invest/parts';
import { PortfolioSwitch } from '../_parts/trading/PortfolioSwitch';
import ts from '../_parts/trading/trading.module.css';
import { ExitDialog } from './ExitDialog';
import s from './positions.module.css';

/**
 * Positions: what today's session traded, per instrument and product — net quantity, average,
 * last price and P&L, all the server's (`positions`, polled with the prices) — with an intraday
 * position's square-off time, Exit for one position and Exit all for the intraday ones. Each exit
 * is an ordinary market sell, confirmed with what is sold and its charges; its result is the
 * order as the server left it.
 */
export default function PositionsScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const positions = useWatch('positions', {}, POLL_MS.prices);
  const [exiting, setExiting] = useState<DayPosition[] | null>(null);
  const rows = positions.data?.rows;
  const open = rows?.filter((r) => r.net !== 0) ?? [];
  const closed = rows?.filter((r) => r.net === 0) ?? [];
  const intraday = open.filter((r) => r.product === 'intraday' && r.exitable > 0);

  return (
    <main className={`${ui.page} ${ts.page}`}>
      <PageHeader
        title={t('todayPositions.title')}
        noBack
        actions={
          <Link to={PATHS.records} className={ts.headerLink}>
            {t('holdings.records')}
          </Link>
        }
      />
      <PortfolioSwitch current="positions" />
      <StaleLine of={positions} />
      <ListStates
        rows={rows}
        error={positions.error}
        onRetry={positions.reload}
        skeleton={{ rows: 3, height: 96 }}
        empty={
          <EmptyState title={t('todayPositions.empty')} icon={<IconTrade size={28} />}>
            <p className={s.muted}>{t('todayPositions.emptyHint')}</p>
            <Link to={PATHS.markets}>{t('holdings.explore')}</Link>
          </EmptyState>
        }
      >
        {() => (
          <>
            <section className={s.summary} aria-label={t('todayPositions.today')}>
              <div>
                <span className={s.summaryLabel}>{t('todayPositions.today')}</span>
                <strong className={s.summaryValue} data-testid="positions-pnl">
                  <SignedMoney amount={positions.data?.pnl ?? '0.00'} currency={config.currency} />
                </strong>
                <span className={s.muted}>{t('todayPositions.beforeCharges')}</span>
              </div>
              {intraday.length > 0 && (
                <Button variant="ghost" onClick={() => setExiting(intraday)} data-testid="exit-all">
                  {t('todayPositions.exitAll')}
                </Button>
              )}
            </section>
            {open.length > 0 && (
              <section aria-labelledby="positions-open">
                <h2 id="positions-open" className={s.heading}>
                  {t('todayPositions.open', { n: open.length })}
                </h2>
                <ul className={`${ui.plainList} ${s.list}`} data-testid="positions-open">
                  {open.map((row) => (
                    <Position key={`${row.product}:${row.stock}`} row={row} onExit={(r) => setExiting([r])} />
                  ))}
                </ul>
              </section>
            )}
            {closed.length > 0 && (
              <section aria-labelledby="positions-closed">
                <h2 id="positions-closed" className={s.heading}>
                  {t('todayPositions.closed', { n: closed.length })}
                </h2>
                <ul className={`${ui.plainList} ${s.list}`} data-testid="positions-closed">
                  {closed.map((row) => (
                    <Position key={`${row.product}:${row.stock}`} row={row} onExit={(r) => setExiting([r])} />
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </ListStates>
      {exiting && (
        <ExitDialog
          positions={exiting}
          onClose={() => setExiting(null)}
          onSettled={() => positions.reload()}
        />
      )}
    </main>
  );
}

/** One position: what it is, its figures, and Exit while it has units to sell. */
function Position({ row, onExit }: { row: DayPosition; onExit: (row: DayPosition) => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const code = displayCode(row.stock);
  const price = (p: number) => regionPrice(config, row.region, p, row.decimals);
  const long = row.net > 0;
  return (
    <li className={s.position} data-testid="position" data-symbol={row.stock} data-product={row.product}>
      <div className={s.head}>
        <span className={s.name}>
          <span className={s.title}>{row.name}</span> <span className={s.code}>{code}</span>
        </span>
        <span className={row.product === 'intraday' ? s.tagIntraday : s.tag}>
          {t(`trade.product.${row.product}`)}
        </span>
      </div>
      <dl className={s.figures}>
        <div>
          <dt>{t('todayPositions.net')}</dt>
          <dd data-testid="position-net">{formatNumber(row.net, 0)}</dd>
        </div>
        <div>
          <dt>{t(row.net === 0 ? 'todayPositions.avgBuySell' : 'todayPositions.avg')}</dt>
          <dd>
            {row.net === 0
              ? `${price(row.buy_avg)} → ${price(row.sell_avg)}`
              : price(long ? row.buy_avg : row.sell_avg)}
          </dd>
        </div>
        <div>
          <dt>{t('todayPositions.ltp')}</dt>
          <dd>{row.as_of ? price(row.prasent) : '—'}</dd>
        </div>
        <div>
          <dt>{t('todayPositions.pnl')}</dt>
          <dd data-testid="position-pnl">
            <SignedMoney amount={row.pnl} currency={config.currency} />
          </dd>
        </div>
      </dl>
      <p className={s.muted}>
        {t('todayPositions.traded', {
          bought: formatNumber(row.buy_count, 0),
          sold: formatNumber(row.sell_count, 0),
          charges: formatMoney(row.charges, config.currency),
        })}
      </p>
      {row.square_at !== null && (
        <p className={s.squareOff} data-testid="position-square-off">
          {t('todayPositions.squareOff', {
            time: exchange(row.square_at, scheduleOf(row.market, row.region), 'clock'),
          })}
        </p>
      )}
      {row.exitable > 0 && (
        <div className={s.actions}>
          <Button
            variant="sell"
            onClick={() => onExit(row)}
            aria-label={t('todayPositions.exitOne', { code })}
          >
            {t('todayPositions.exit')}
          </Button>
        </div>
      )}
    </li>
  );
}
