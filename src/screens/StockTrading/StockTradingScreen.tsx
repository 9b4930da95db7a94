import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { ERR } from '../../shared/contract/define';
import type { OrderRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../shared/format';
import { fromMinor } from '../../shared/money';
import { displayCode, type PositionSize, STOCK_STATUS } from '../../shared/rules';
import {
  AsOf,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  MoneyButton,
  PageHeader,
  Segmented,
  Skeleton,
  Tabs,
  TextField,
} from '../../ui';
import inv from '../invest/invest.module.css';
import {
  QuantityStepper,
  regionPrice,
  SignedMoney,
  Stat,
  StatusChip,
  SummaryRow,
  stockPath,
} from '../invest/parts';
import { CancelOrderDialog } from '../trade/CancelOrderDialog';
import { ChangeText } from '../trade/parts';
import { useCancelOrder } from '../trade/useCancelOrder';
import s from './trading.module.css';
import { type OrderType, type Side, useStockTrading } from './useStockTrading';

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
  const price = (p: number | undefined) =>
    p === undefined ? <Skeleton width={64} /> : regionPrice(config, tr.region, p, tr.decimals);

  if (!q && quote.error) {
    return (
      <main className={s.page}>
        <PageHeader title={code} back="/markets" />
        {quote.error === 'errors.unknownSymbol' || quote.error === ERR.notFound ? (
          <EmptyState title={t('trade.notFound', { code })} />
        ) : (
          <ErrorState message={t(quote.error)} onRetry={quote.reload} />
        )}
      </main>
    );
  }

  const pendingRows = tr.pending.data?.rows ?? [];
  return (
    <main className={s.page}>
      <PageHeader
        title={
          <span className={s.title}>
            <span>{code}</span>
            <span className={s.titleName}>{tr.name}</span>
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
        <dl className={s.quoteStats}>
          <Stat label={t('trade.high')}>{price(q?.high)}</Stat>
          <Stat label={t('trade.low')}>{price(q?.low)}</Stat>
          <Stat label={t('trade.open')}>{price(q?.open)}</Stat>
          <Stat label={t('trade.prevClose')}>{price(q?.prev_close)}</Stat>
        </dl>
        {q && <AsOf at={q.as_of} stale={quote.stale} />}
      </section>

      <div className={s.tabs}>
        <Tabs<Side>
          id="trade-side"
          label={t('trade.side')}
          value={tr.side}
          onChange={tr.setSide}
          items={[
            { value: 'buy', label: t('trade.buy') },
            { value: 'sell', label: t('trade.sell') },
          ]}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`trade-side-${tr.side}`} className={s.form}>
        <Segmented<OrderType>
          label={t('trade.orderType')}
          value={tr.orderType}
          onChange={tr.setOrderType}
          items={[
            { value: 'market', label: t('trade.market') },
            { value: 'limit', label: t('trade.limit.label') },
          ]}
        />
        {tr.orderType === 'limit' && (
          <TextField
            label={t('trade.limit.price')}
            inputMode="decimal"
            autoComplete="off"
            value={tr.limitText}
            onChange={(v) => tr.setLimitText(v.replace(/[^\d.]/g, ''))}
            error={tr.limitText !== '' && tr.limitError ? t(tr.limitError) : null}
            hint={t('trade.limit.hint')}
          />
        )}
        <div className={inv.field}>
          <span className={inv.fieldLabel}>{t('trade.position')}</span>
          <Segmented<PositionSize>
            label={t('trade.position')}
            value={tr.size}
            onChange={tr.setSize}
            items={[
              { value: 'half', label: t('trade.half') },
              { value: 'full', label: t('trade.full') },
            ]}
          />
        </div>
        <QuantityStepper
          label={t('trade.quantity')}
          value={tr.qtyText}
          onChange={tr.setQtyText}
          onDecrease={() => tr.step(-1)}
          onIncrease={() => tr.step(1)}
          decreaseDisabled={tr.qty !== null && tr.qty <= 1}
          increaseDisabled={tr.qty !== null && tr.qty >= tr.maxQty}
          aside={<span className={s.maxHint}>{t('trade.max', { max: tr.maxQty })}</span>}
          hint={
            tr.side === 'sell'
              ? t('trade.availableToSell', { count: tr.position?.available ?? 0 })
              : undefined
          }
          error={tr.qtyError ? t(tr.qtyError, { max: tr.maxQty }) : null}
        />
        <dl className={inv.summary}>
          <SummaryRow label={t('trade.estFee')}>
            {tr.fee === null ? '—' : formatMoney(tr.fee, config.currency)}
          </SummaryRow>
          <SummaryRow label={t(tr.side === 'buy' ? 'trade.estCost' : 'trade.estProceeds')} total>
            <span data-testid="trade-estimate">
              {tr.total === null ? '—' : formatMoney(tr.total, config.currency)}
            </span>
          </SummaryRow>
        </dl>
      </section>

      <section className={s.positions} aria-labelledby="positions-title">
        <h2 id="positions-title" className={s.sectionTitle}>
          {t('trade.positionsTitle')}
        </h2>
        {tr.positions.data === undefined ? (
          tr.positions.error ? (
            <ErrorState message={t(tr.positions.error)} onRetry={tr.positions.reload} />
          ) : (
            <Skeleton height={72} />
          )
        ) : tr.position ? (
          <dl className={`${inv.stats} ${inv.stats3} ${s.card}`} data-testid="trade-position">
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
        )}
        {pendingRows.length > 0 && (
          <>
            <h3 className={s.subTitle}>{t('trade.pendingTitle')}</h3>
            <ul className={s.pendingList}>
              {pendingRows.map((order) => (
                <PendingOrder
                  key={order.no}
                  order={order}
                  decimals={tr.decimals}
                  onCancel={cancel.setConfirming}
                />
              ))}
            </ul>
          </>
        )}
      </section>

      <div className={s.actionBar}>
        <MoneyButton
          variant={tr.side}
          block
          disabled={tr.qtyError !== null || tr.limitError !== null || tr.price === null}
          onClick={tr.openConfirm}
        >
          {t(tr.side === 'buy' ? 'trade.buyAction' : 'trade.sellAction', { code })}
        </MoneyButton>
      </div>

      <OrderDialog tr={tr} code={code} />
      <CancelOrderDialog cancel={cancel} />
    </main>
  );
}

function PendingOrder({
  order,
  decimals,
  onCancel,
}: {
  order: OrderRow;
  decimals: number;
  onCancel: (o: OrderRow) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <li className={s.pendingRow}>
      <span className={`${inv.side} ${order.state === 'sell' ? inv.sideSell : inv.sideBuy}`}>
        {t(order.state === 'sell' ? 'trade.sell' : 'trade.buy')}
      </span>
      <span className="num">
        {formatNumber(order.count, 0)} @{' '}
        {regionPrice(config, order.type, order.limit_price ?? order.price, decimals)}
      </span>
      <Button variant="ghost" className={s.cancelButton} onClick={() => onCancel(order)}>
        {t('records.cancel')}
      </Button>
    </li>
  );
}

/** The confirmation (an estimate at the live price) and then the server's figures of the order. */
function OrderDialog({ tr, code }: { tr: ReturnType<typeof useStockTrading>; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const buying = tr.side === 'buy';
  const done = tr.filled;
  if (done) {
    const pending = done.status === STOCK_STATUS.pending;
    const fillPrice = done.state === 'sell' ? done.sell_price : done.price;
    return (
      <Dialog
        open={tr.confirming}
        sheet
        onClose={tr.closeConfirm}
        title={t(pending ? 'trade.result.pendingTitle' : 'trade.result.filledTitle')}
      >
        <div className={s.resultHead}>
          <StatusChip tone={pending ? 'warn' : 'success'}>
            {t(pending ? 'records.status.pending' : 'records.status.success')}
          </StatusChip>
          <span className={inv.orderNo}>{done.no}</span>
        </div>
        <dl className={inv.summary} data-testid="trade-result">
          <SummaryRow label={t(pending ? 'trade.result.limit' : 'trade.result.price')}>
            {regionPrice(
              config,
              done.type,
              pending ? (done.limit_price ?? done.price) : (fillPrice ?? done.price),
              tr.decimals,
            )}
          </SummaryRow>
          <SummaryRow label={t('trade.quantity')}>{formatNumber(done.count, 0)}</SummaryRow>
          <SummaryRow label={t('trade.fee')}>{formatMoney(done.fee, config.currency)}</SummaryRow>
          {done.profit !== null && (
            <SummaryRow label={t('trade.realised')}>
              <SignedMoney amount={done.profit} currency={config.currency} />
            </SummaryRow>
          )}
          <SummaryRow label={t(pending ? 'trade.result.reserved' : 'trade.total')} total>
            {formatMoney(done.price_all, config.currency)}
          </SummaryRow>
        </dl>
        {pending && <p className={inv.summaryHint}>{t('trade.result.pendingHint')}</p>}
        <div className={inv.dialogActions}>
          <Link to="/records" className={s.linkButton}>
            {t('trade.result.records')}
          </Link>
          <Button onClick={tr.closeConfirm}>{t('trade.result.done')}</Button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={tr.confirming}
      sheet
      onClose={tr.closeConfirm}
      title={t(buying ? 'trade.confirm.buyTitle' : 'trade.confirm.sellTitle', { code })}
    >
      <dl className={inv.summary} data-testid="trade-confirm">
        <SummaryRow label={t(tr.orderType === 'limit' ? 'trade.limit.price' : 'trade.confirm.marketPrice')}>
          {tr.price === null ? '—' : regionPrice(config, tr.region, tr.price, tr.decimals)}
        </SummaryRow>
        <SummaryRow label={t('trade.quantity')}>{formatNumber(tr.qty ?? 0, 0)}</SummaryRow>
        <SummaryRow label={t('trade.estFee')}>
          {tr.fee === null ? '—' : formatMoney(fromMinor(tr.fee), config.currency)}
        </SummaryRow>
        <SummaryRow label={t(buying ? 'trade.estCost' : 'trade.estProceeds')} total>
          {tr.total === null ? '—' : formatMoney(tr.total, config.currency)}
        </SummaryRow>
      </dl>
      <p className={inv.summaryHint}>{t('trade.confirm.hint')}</p>
      {tr.failure && (
        <div className={s.failure} role="alert">
          <strong>{t('trade.submitFailed')}</strong>
          {tr.failure !== ERR.server && <span>{t(tr.failure)}</span>}
        </div>
      )}
      <div className={inv.dialogActions}>
        <Button variant="ghost" onClick={tr.closeConfirm}>
          {t('common.cancel')}
        </Button>
        <MoneyButton variant={tr.side} loading={tr.busy} onClick={() => void tr.submit()}>
          {t(buying ? 'trade.confirm.buy' : 'trade.confirm.sell')}
        </MoneyButton>
      </div>
    </Dialog>
  );
}
