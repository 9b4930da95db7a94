import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS, stockPath } from '../../paths';
import { ERR } from '../../shared/call';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import {
  AsOf,
  EmptyState,
  LoadError,
  MoneyButton,
  ObjectStates,
  PageHeader,
  Skeleton,
  Tabs,
  ui,
} from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { regionPrice, SignedMoney, Stat } from '../_parts/invest/parts';
import { DepthLadder } from '../_parts/market/DepthLadder';
import { CancelOrderDialog } from '../_parts/trading/CancelOrderDialog';
import { ModifyOrderSheet } from '../_parts/trading/ModifyOrderSheet';
import { ChangeText } from '../_parts/trading/parts';
import { useCancelOrder } from '../_parts/trading/useCancelOrder';
import { useModifyOrder } from '../_parts/trading/useModifyOrder';
import { blockedReason, NeedLine, OrderForm } from './OrderForm';
import { OrderDialog } from './OrderReview';
import { PendingOrder } from './PendingOrder';
import s from './trading.module.css';
import { type Side, useStockTrading } from './useStockTrading';

/** Stock trading (SPEC §2): buy/sell tabs, live price, position, quantity stepper, confirmation. */
export default function StockTradingScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const tr = useStockTrading();
  const { quote } = tr;
  const q = quote.data;
  const code = displayCode(tr.symbol);
  const cancel = useCancelOrder(() => {
    tr.pending.reload();
    tr.positions.reload();
  });
  // The same Modify sheet as the orders screen (/records).
  const modify = useModifyOrder(() => {
    tr.pending.reload();
    tr.positions.reload();
  });
  const price = (p: number | undefined) =>
    p === undefined ? <Skeleton width={64} /> : regionPrice(config, tr.region, p, tr.decimals);

  if (!q && quote.error) {
    return (
      <main className={`${ui.page} ${s.page}`}>
        <PageHeader title={code} back={PATHS.markets} />
        {quote.error === 'errors.unknownSymbol' || quote.error === ERR.notFound ? (
          <EmptyState title={t('trade.notFound', { code })} />
        ) : (
          <LoadError error={quote.error} onRetry={quote.reload} />
        )}
      </main>
    );
  }

  const pendingRows = tr.pending.data?.rows ?? [];
  const why = blockedReason(tr);
  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader
        title={
          <span className={s.title}>
            <span>{code}</span>
            <span className={`${ui.twoLines} ${s.titleName}`}>{tr.name}</span>
          </span>
        }
        back={stockPath(tr.symbol, tr.name)}
      />

      <section className={s.quote} aria-label={t('trade.quote')}>
        <div className={s.quoteTop}>
          <strong className={`${s.lastPrice} num`} data-testid="trade-price">
            {q ? regionPrice(config, tr.region, q.price, tr.decimals) : <Skeleton width={140} height={32} />}
          </strong>
          {q && <ChangeText change={q.change} percent={q.changePercent} decimals={tr.decimals} />}
        </div>
        {q && (
          <AsOf
            at={q.as_of}
            fetchedAt={quote.updatedAt}
            stale={quote.stale}
            every={quote.intervalMs}
            schedule={scheduleOf(q.market, q.region)}
          />
        )}
      </section>

      <div className={s.tabs}>
        <Tabs<Side>
          id="trade-side"
          label={t('trade.side')}
          value={tr.side}
          onChange={tr.setSide}
          items={[
            { value: 'buy', label: t('trade.buy') },
            // Nothing to sell: the tab is quietly off (never an error on entry).
            { value: 'sell', label: t('trade.sell'), disabled: !tr.canSell && tr.side !== 'sell' },
          ]}
        />
      </div>
      <OrderForm tr={tr} code={code} />
      {/* The day's figures under the ticket: the first screen is the price, the quantity and the price asked. */}
      <dl className={`${s.quoteStats} ${s.card} ${s.dayStats}`} data-testid="trade-day-stats">
        <Stat label={t('trade.high')}>{price(q?.high)}</Stat>
        <Stat label={t('trade.low')}>{price(q?.low)}</Stat>
        <Stat label={t('trade.open')}>{price(q?.open)}</Stat>
        <Stat label={t('trade.prevClose')}>{price(q?.prev_close)}</Stat>
      </dl>

      <DepthLadder symbol={tr.symbol} />
      <section className={s.positions} aria-labelledby="positions-title">
        <h2 id="positions-title" className={ui.sectionTitle}>
          {t('trade.positionsTitle')}
        </h2>
        {/* The answer holds every position of this kind; this symbol's may not be among them. */}
        <ObjectStates
          data={tr.positions.data}
          error={tr.positions.error}
          onRetry={tr.positions.reload}
          loading={<Skeleton height={72} />}
        >
          {() =>
            tr.position ? (
              <dl
                className={`${ui.statRow} ${inv.stats} ${inv.stats3} ${s.card}`}
                data-testid="trade-position"
              >
                <Stat label={t('trade.held')}>{formatNumber(tr.position.count, 0)}</Stat>
                <Stat label={t('trade.available')}>{formatNumber(tr.position.available, 0)}</Stat>
                <Stat label={t('trade.avgCost')}>
                  {regionPrice(config, tr.position.region, tr.position.avg_price, tr.position.decimals)}
                </Stat>
                <Stat label={t('trade.cost')}>{formatMoney(tr.position.cost, config.currency)}</Stat>
                <Stat label={t('trade.value')}>{formatMoney(tr.position.value, config.currency)}</Stat>
                <Stat label={t('trade.profit')}>
                  <SignedMoney amount={tr.position.profit} currency={config.currency} />
                </Stat>
              </dl>
            ) : (
              <p className={s.muted}>{t('trade.noPosition', { code })}</p>
            )
          }
        </ObjectStates>
        {pendingRows.length > 0 && (
          <>
            <h3 className={s.subTitle}>{t('trade.pendingTitle')}</h3>
            <ul className={`${ui.plainList} ${s.pendingList}`}>
              {pendingRows.map((order) => (
                <PendingOrder
                  key={order.no}
                  order={order}
                  decimals={tr.decimals}
                  onCancel={cancel.setConfirming}
                  onModify={modify.open}
                />
              ))}
            </ul>
          </>
        )}
      </section>

      <div className={`${s.actionBar} ${tr.side === 'sell' ? s.formSell : s.formBuy}`}>
        <NeedLine tr={tr} />
        <MoneyButton
          variant={tr.side}
          block
          disabled={tr.blocked !== null}
          reason={why && t(why.key, why.values)}
          onClick={tr.openConfirm}
        >
          {t(tr.side === 'buy' ? 'trade.buyAction' : 'trade.sellAction', { code })}
        </MoneyButton>
      </div>

      <OrderDialog tr={tr} code={code} />
      <CancelOrderDialog cancel={cancel} />
      <ModifyOrderSheet modify={modify} />
    </main>
  );
}
