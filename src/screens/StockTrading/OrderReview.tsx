import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import { ERR } from '../../shared/call';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { toMinor } from '../../shared/money';
import { STOCK_STATUS } from '../../shared/status';
import { Button, Dialog, ErrorState, MoneyButton, Skeleton, StatusChip, ui, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { regionPrice, SignedMoney, SummaryRow } from '../_parts/invest/parts';
import { ChargesRows } from '../_parts/trading/Charges';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { ORDER_TYPE_LABEL as TYPE_LABEL } from '../_parts/trading/ModifyOrderSheet';
import s from './trading.module.css';
import type { Ticket } from './useStockTrading';

/**
 * The review sheet (issue 13): what is being sent and what it costs, every money figure the
 * server's (`orderQuote`), with the funds or shares it needs beside what is there; then, once the
 * server answers, the order's own figures and its contract note.
 */
export function OrderDialog({ tr, code }: { tr: Ticket; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const { exchange } = useDates();
  const buying = tr.side === 'buy';
  const sideSheet = buying ? s.sheetBuy : s.sheetSell;
  const done = tr.filled;
  const money = (m: string) => formatMoney(m, config.currency);
  if (done) {
    const pending = done.status === STOCK_STATUS.pending;
    const fillPrice = done.state === 'sell' ? done.sell_price : done.price;
    // An after-market order waits for the open: its send time, the exchange's (issue 30).
    const sendAt =
      pending && done.amo && done.send_at !== null
        ? exchange(done.send_at, scheduleOf(done.market, done.type), 'weekdayClock')
        : null;
    return (
      <>
        <Dialog
          open={tr.confirming && noteFor === null}
          sheet
          onClose={tr.closeConfirm}
          className={sideSheet}
          title={t(pending ? 'trade.result.pendingTitle' : 'trade.result.filledTitle')}
        >
          <div className={s.resultHead}>
            <StatusChip tone={pending ? 'warn' : 'success'}>
              {t(pending ? 'records.status.pending' : 'records.status.success')}
            </StatusChip>
            <span className={inv.orderNo}>{done.no}</span>
          </div>
          <dl className={inv.summary} data-testid="trade-result">
            {sendAt !== null && (
              <SummaryRow label={t('trade.amo.sendsAt')}>
                <span data-testid="result-sends-at">{sendAt}</span>
              </SummaryRow>
            )}
            <SummaryRow
              label={t(
                // A market AMO's limit is its protection; a limit AMO's is the user's own.
                sendAt !== null && tr.orderType === 'market'
                  ? 'trade.amo.limit'
                  : pending
                    ? 'trade.result.limit'
                    : 'trade.result.price',
              )}
            >
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
              {money(done.price_all)}
            </SummaryRow>
          </dl>
          {pending && (
            <p className={inv.summaryHint}>
              {sendAt !== null ? t('trade.amo.resultHint', { time: sendAt }) : t('trade.result.pendingHint')}
            </p>
          )}
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
      className={sideSheet}
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
        <SummaryRow label={t('trade.product.label')}>
          <span data-testid="review-product">{t(`trade.product.${tr.product}`)}</span>
        </SummaryRow>
        {(tr.orderType === 'market' || tr.orderType === 'limit') && (
          <SummaryRow label={t('trade.validity.label')}>
            <span data-testid="review-validity">{t(`trade.validity.${tr.validity}`)}</span>
          </SummaryRow>
        )}
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
                : tr.amo
                  ? 'trade.amo.lastPrice'
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
      {tr.amo ? (
        <p className={ui.closedNotice} data-testid="review-closed">
          {t('trade.amo.notice', {
            time: exchange(tr.session.nextOpen, tr.session.schedule, 'weekdayClock'),
          })}
        </p>
      ) : (
        <p className={inv.summaryHint}>{t('trade.confirm.hint')}</p>
      )}
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
