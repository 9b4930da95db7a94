import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS, stockPath } from '../../paths';
import { ERR } from '../../shared/call';
import type { OrderRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { fromMinor, toMinor } from '../../shared/money';
import { displayCode, type PositionSize } from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import {
  AsOf,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  MoneyButton,
  ObjectStates,
  PageHeader,
  Segmented,
  Skeleton,
  StatusChip,
  Tabs,
  TextField,
  ui,
} from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, SignedMoney, Stat, SummaryRow } from '../_parts/invest/parts';
import { DepthLadder } from '../_parts/market/DepthLadder';
import { CancelOrderDialog } from '../_parts/trading/CancelOrderDialog';
import { ChargesRows } from '../_parts/trading/Charges';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { ModifyOrderSheet, ORDER_TYPE_LABEL } from '../_parts/trading/ModifyOrderSheet';
import { useOcoTexts } from '../_parts/trading/oco';
import { ChangeText } from '../_parts/trading/parts';
import { useCancelOrder } from '../_parts/trading/useCancelOrder';
import { useModifyOrder } from '../_parts/trading/useModifyOrder';
import s from './trading.module.css';
import { type GttKind, type OrderType, type Side, useStockTrading } from './useStockTrading';

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
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));

  if (!q && quote.error) {
    return (
      <main className={`${ui.page} ${s.page}`}>
        <PageHeader title={code} back={PATHS.markets} />
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
        <dl className={s.quoteStats}>
          <Stat label={t('trade.high')}>{price(q?.high)}</Stat>
          <Stat label={t('trade.low')}>{price(q?.low)}</Stat>
          <Stat label={t('trade.open')}>{price(q?.open)}</Stat>
          <Stat label={t('trade.prevClose')}>{price(q?.prev_close)}</Stat>
        </dl>
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
      <section role="tabpanel" aria-labelledby={`trade-side-${tr.side}`} className={`${ui.form} ${s.form}`}>
        <Segmented<OrderType>
          label={t('trade.orderType')}
          value={tr.orderType}
          onChange={tr.setOrderType}
          items={[
            { value: 'market', label: t('trade.market'), disabled: !tr.marketAllowed },
            { value: 'limit', label: t('trade.limit.label') },
            { value: 'sl', label: t('trade.stop.sl') },
            { value: 'slm', label: t('trade.stop.slm') },
            { value: 'gtt', label: t('trade.gtt.label') },
          ]}
        />
        {tr.gtt && (
          <div className={ui.field}>
            <span className={ui.label}>{t('trade.gtt.kind')}</span>
            <Segmented<GttKind>
              label={t('trade.gtt.kind')}
              value={tr.gttKind}
              onChange={tr.setGttKind}
              items={[
                { value: 'single', label: t('trade.gtt.single') },
                // OCO sells a holding: a buy GTT has one trigger.
                { value: 'oco', label: t('trade.gtt.oco'), disabled: tr.side === 'buy' },
              ]}
            />
            <span className={s.muted}>
              {t(tr.oco ? 'trade.gtt.ocoHint' : tr.side === 'buy' ? 'trade.gtt.ocoBuy' : 'trade.gtt.hint')}
            </span>
          </div>
        )}
        {tr.oco && <OcoFields tr={tr} />}
        {tr.stop && !tr.oco && (
          <TextField
            label={t('trade.stop.trigger')}
            inputMode="decimal"
            autoComplete="off"
            value={tr.triggerText}
            onChange={(v) => tr.setTriggerText(v.replace(/[^\d.]/g, ''))}
            hint={tr.gtt ? undefined : t(tr.side === 'buy' ? 'trade.stop.hintBuy' : 'trade.stop.hintSell')}
          />
        )}
        {tr.gtt && (
          <TextField
            label={t('trade.gtt.days')}
            inputMode="numeric"
            autoComplete="off"
            value={tr.daysText}
            onChange={(v) => tr.setDaysText(v.replace(/\D/g, ''))}
            error={tr.validDays === null ? t('errors.gttValidity') : null}
            hint={t('trade.gtt.daysHint')}
          />
        )}
        {!tr.marketAllowed && tr.quote.data && <p className={s.muted}>{t('core.money.staleQuote')}</p>}
        {(tr.orderType === 'limit' || tr.orderType === 'sl' || tr.gtt) && !tr.oco && (
          <TextField
            label={t('trade.limit.price')}
            inputMode="decimal"
            autoComplete="off"
            value={tr.limitText}
            onChange={(v) => tr.setLimitText(v.replace(/[^\d.]/g, ''))}
            error={tr.limitText !== '' && tr.limitError ? t(tr.limitError) : null}
            hint={tr.orderType === 'limit' ? t('trade.limit.hint') : undefined}
          />
        )}
        <div className={ui.field}>
          <span className={ui.label}>{t('trade.position')}</span>
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
          increaseDisabled={tr.qty !== null && tr.qty >= tr.max.qty}
          aside={
            <span className={s.maxHint} data-testid="trade-max">
              {t(`trade.maxWhy.${tr.max.reason}`, { max: tr.max.qty })}
            </span>
          }
          hint={
            tr.side === 'sell'
              ? tr.canSell
                ? t('trade.availableToSell', { count: tr.position?.available ?? 0 })
                : t('trade.noPosition', { code })
              : undefined
          }
          error={
            tr.qtyError && (tr.side === 'buy' || tr.canSell)
              ? t(tr.qtyError, { max: tr.qtyError === 'trade.qty.maxFunds' ? tr.max.qty : tr.positionMax })
              : null
          }
        />
        <dl className={inv.summary}>
          <SummaryRow label={t('trade.estValue')}>{money(tr.figures?.value)}</SummaryRow>
          <SummaryRow label={t('trade.charges.total')}>{money(tr.figures?.charges.total)}</SummaryRow>
          <SummaryRow label={t(tr.side === 'buy' ? 'trade.estCost' : 'trade.estProceeds')} total>
            <span data-testid="trade-estimate">{money(tr.figures?.net)}</span>
          </SummaryRow>
        </dl>
      </section>

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

      <div className={s.actionBar}>
        <MoneyButton variant={tr.side} block disabled={tr.blocked} onClick={tr.openConfirm}>
          {t(tr.side === 'buy' ? 'trade.buyAction' : 'trade.sellAction', { code })}
        </MoneyButton>
      </div>

      <OrderDialog tr={tr} code={code} />
      <CancelOrderDialog cancel={cancel} />
      <ModifyOrderSheet modify={modify} />
    </main>
  );
}

/**
 * An OCO's two legs (issue 13): the target (above the last price) and the stop (below it), each
 * with its limit; a field's error shows once something is typed in it.
 */
function OcoFields({ tr }: { tr: ReturnType<typeof useStockTrading> }) {
  const { t } = useTranslation();
  const config = useConfig();
  const e = tr.ocoErrors;
  const last = tr.quote.data ? regionPrice(config, tr.region, tr.quote.data.price, tr.decimals) : '—';
  const field = (
    label: string,
    value: string,
    set: (v: string) => void,
    error: string | null | undefined,
    hint?: string,
  ) => (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(v) => set(v.replace(/[^\d.]/g, ''))}
      error={value !== '' && error ? t(error) : null}
      hint={hint}
    />
  );
  return (
    <>
      {field(
        t('trade.gtt.target'),
        tr.triggerText,
        tr.setTriggerText,
        e?.target,
        t('trade.gtt.targetHint', { price: last }),
      )}
      {field(t('trade.gtt.targetLimit'), tr.limitText, tr.setLimitText, e?.targetLimit)}
      {field(
        t('trade.gtt.stop'),
        tr.stopText,
        tr.setStopText,
        e?.stop,
        t('trade.gtt.stopHint', { price: last }),
      )}
      {field(t('trade.gtt.stopLimit'), tr.stopLimitText, tr.setStopLimitText, e?.stopLimit)}
    </>
  );
}

const TYPE_LABEL = ORDER_TYPE_LABEL;

function PendingOrder({
  order,
  decimals,
  onCancel,
  onModify,
}: {
  order: OrderRow;
  decimals: number;
  onCancel: (o: OrderRow) => void;
  onModify: (o: OrderRow) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const oco = useOcoTexts()(order);
  const code = displayCode(order.tag);
  return (
    <li className={s.pendingRow} data-order={order.no}>
      <span className={`${inv.side} ${order.state === 'sell' ? inv.sideSell : inv.sideBuy}`}>
        {t(order.state === 'sell' ? 'trade.sell' : 'trade.buy')}
      </span>
      <span className="num">
        {oco ? (
          <>
            {t(TYPE_LABEL.oco)} · {oco.fired ? `${t('records.triggeredAt')} ${oco.fired}` : oco.short} ·{' '}
          </>
        ) : (
          order.order_type && (
            <>
              {t(TYPE_LABEL[order.order_type])} ·{' '}
              {t(order.triggered_at ? 'trade.stop.triggered' : 'trade.stop.at', {
                price: regionPrice(config, order.type, order.trigger_price ?? 0, decimals),
              })}{' '}
              ·{' '}
            </>
          )
        )}
        {formatNumber(order.count, 0)} @{' '}
        {regionPrice(config, order.type, order.limit_price ?? order.price, decimals)}
      </span>
      <span className={s.pendingActions}>
        <Button
          variant="ghost"
          className={s.cancelButton}
          onClick={() => onModify(order)}
          aria-label={t('records.modify.for', { code })}
        >
          {t('records.modify.open')}
        </Button>
        <Button
          variant="ghost"
          className={s.cancelButton}
          onClick={() => onCancel(order)}
          aria-label={t('records.cancelFor', { code })}
        >
          {t('records.cancel')}
        </Button>
      </span>
    </li>
  );
}

/** What an order moves: a buy pays value + charges (or reserves them), a sell receives value − charges. */
function orderNet(o: OrderRow): string {
  const value = toMinor(o.price_all) ?? 0;
  const fee = toMinor(o.fee) ?? 0;
  return fromMinor(o.state === 'sell' ? value - fee : value + fee);
}

/**
 * The review sheet (issue 13): what is being sent and what it costs, every money figure the
 * server's (`orderQuote`), with the funds or shares it needs beside what is there; then, once the
 * server answers, the order's own figures and its contract note.
 */
function OrderDialog({ tr, code }: { tr: ReturnType<typeof useStockTrading>; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const buying = tr.side === 'buy';
  const done = tr.filled;
  const money = (m: string) => formatMoney(m, config.currency);
  if (done) {
    const pending = done.status === STOCK_STATUS.pending;
    const fillPrice = done.state === 'sell' ? done.sell_price : done.price;
    return (
      <>
        <Dialog
          open={tr.confirming && noteFor === null}
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
            {!pending && <SummaryRow label={t('trade.charges.total')}>{money(done.fee)}</SummaryRow>}
            {done.profit !== null && (
              <SummaryRow label={t('trade.realised')}>
                <SignedMoney amount={done.profit} currency={config.currency} />
              </SummaryRow>
            )}
            <SummaryRow label={t(pending ? 'trade.result.reserved' : 'trade.total')} total>
              {money(orderNet(done))}
            </SummaryRow>
          </dl>
          {pending && <p className={inv.summaryHint}>{t('trade.result.pendingHint')}</p>}
          <div className={ui.dialogActions}>
            <Link to={PATHS.records} className={s.linkButton}>
              {t('trade.result.records')}
            </Link>
            {!pending && (
              <Button variant="ghost" onClick={() => setNoteFor(done.no)}>
                {t('trade.contract.open')}
              </Button>
            )}
            <Button onClick={tr.closeConfirm}>{t('trade.result.done')}</Button>
          </div>
        </Dialog>
        <ContractNoteSheet no={tr.confirming ? noteFor : null} onClose={() => setNoteFor(null)} />
      </>
    );
  }
  const f = tr.figures;
  const short = f !== null && buying && (toMinor(f.net) ?? 0) > (toMinor(f.available) ?? 0);
  return (
    <Dialog
      open={tr.confirming}
      sheet
      onClose={tr.closeConfirm}
      title={t(buying ? 'trade.confirm.buyTitle' : 'trade.confirm.sellTitle', { code })}
    >
      <dl className={inv.summary} data-testid="trade-confirm">
        <SummaryRow label={t('trade.contract.instrument')}>
          {code} · {tr.name}
        </SummaryRow>
        <SummaryRow label={t('trade.review.side')}>{t(buying ? 'trade.buy' : 'trade.sell')}</SummaryRow>
        <SummaryRow label={t('trade.orderType')}>
          {t(tr.oco ? TYPE_LABEL.oco : TYPE_LABEL[tr.orderType])}
        </SummaryRow>
        {tr.oco &&
          tr.trigger !== null &&
          tr.limit !== null &&
          tr.stopTrigger !== null &&
          tr.stopLimit !== null && (
            <>
              <SummaryRow label={t('trade.gtt.legTarget')}>
                <span data-testid="review-target">
                  {t('trade.gtt.leg', {
                    trigger: regionPrice(config, tr.region, tr.trigger, tr.decimals),
                    limit: regionPrice(config, tr.region, tr.limit, tr.decimals),
                  })}
                </span>
              </SummaryRow>
              <SummaryRow label={t('trade.gtt.legStop')}>
                <span data-testid="review-stop">
                  {t('trade.gtt.leg', {
                    trigger: regionPrice(config, tr.region, tr.stopTrigger, tr.decimals),
                    limit: regionPrice(config, tr.region, tr.stopLimit, tr.decimals),
                  })}
                </span>
              </SummaryRow>
            </>
          )}
        {tr.trigger !== null && !tr.oco && (
          <SummaryRow label={t('trade.stop.trigger')}>
            {regionPrice(config, tr.region, tr.trigger, tr.decimals)}
          </SummaryRow>
        )}
        {tr.validDays !== null && (
          <SummaryRow label={t('trade.gtt.validity')}>
            <span data-testid="review-gtt">{t('trade.gtt.validFor', { days: tr.validDays })}</span>
          </SummaryRow>
        )}
        <SummaryRow label={t('trade.quantity')}>{formatNumber(tr.qty ?? 0, 0)}</SummaryRow>
        {!tr.oco && (
          <SummaryRow
            label={t(
              tr.orderType === 'limit' || tr.orderType === 'sl' || tr.gtt
                ? 'trade.limit.price'
                : 'trade.confirm.marketPrice',
            )}
          >
            {tr.price === null ? '—' : regionPrice(config, tr.region, tr.price, tr.decimals)}
          </SummaryRow>
        )}
        {f ? (
          <>
            <SummaryRow label={t('trade.estValue')}>{money(f.value)}</SummaryRow>
            <ChargesRows charges={f.charges} />
            <SummaryRow label={t(buying ? 'trade.estCost' : 'trade.estProceeds')} total>
              <span data-testid="review-net">{money(f.net)}</span>
            </SummaryRow>
            {buying ? (
              <>
                <SummaryRow label={t('trade.review.available')}>{money(f.available)}</SummaryRow>
                <SummaryRow label={t('trade.review.required')}>{money(f.net)}</SummaryRow>
              </>
            ) : (
              <>
                <SummaryRow label={t('trade.review.held')}>{formatNumber(f.held, 0)}</SummaryRow>
                <SummaryRow label={t('trade.review.selling')}>{formatNumber(f.count, 0)}</SummaryRow>
              </>
            )}
          </>
        ) : tr.ticket.error ? null : (
          <Skeleton height={200} />
        )}
      </dl>
      {tr.ticket.error && !f && <ErrorState message={t(tr.ticket.error)} onRetry={tr.ticket.reload} />}
      {short && (
        <p className={ui.failureBox} role="alert">
          {t('errors.insufficientFunds')}
        </p>
      )}
      <p className={inv.summaryHint}>{t('trade.confirm.hint')}</p>
      {tr.failure && (
        <div className={ui.failureBox} role="alert">
          <strong>{t('trade.submitFailed')}</strong>
          {tr.failure !== ERR.server && <span>{t(tr.failure)}</span>}
        </div>
      )}
      <div className={ui.dialogActions}>
        <Button variant="ghost" onClick={tr.closeConfirm}>
          {t('common.cancel')}
        </Button>
        <MoneyButton
          variant={tr.side}
          call={tr.call}
          loading={tr.busy}
          disabled={f === null || short}
          onClick={() => void tr.submit()}
        >
          {t(buying ? 'trade.confirm.buy' : 'trade.confirm.sell')}
        </MoneyButton>
      </div>
    </Dialog>
  );
}
