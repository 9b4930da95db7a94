import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { ERR } from '../../shared/call';
import { formatMoney, formatNumber } from '../../shared/format';
import { nextSession } from '../../shared/market-hours';
import { toMinor } from '../../shared/money';
import { Button, Dialog, LoadError, MoneyButton, Skeleton, ui, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { regionPrice, SummaryRow } from '../_parts/invest/parts';
import { ChargesRows } from '../_parts/trading/Charges';
import { ORDER_TYPE_LABEL as TYPE_LABEL } from '../_parts/trading/ModifyOrderSheet';
import { OrderResultSheet } from '../_parts/trading/OrderResult';
import { isShort, protecting } from './OrderForm';
import s from './trading.module.css';
import type { Ticket } from './useStockTrading';

/**
 * The review sheet: what is being sent and what it costs, every money figure the
 * server's (`orderQuote`), with the funds or shares it needs beside what is there; then, once the
 * server answers, the order's own figures and its contract note.
 */
export function OrderDialog({ tr, code }: { tr: Ticket; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const buying = tr.side === 'buy';
  const sideSheet = buying ? s.sheetBuy : s.sheetSell;
  const done = tr.filled;
  const money = (m: string) => formatMoney(m, config.currency);
  if (done) {
    return (
      <OrderResultSheet
        order={tr.confirming ? done : null}
        onClose={tr.closeConfirm}
        className={sideSheet}
        decimals={tr.decimals}
      />
    );
  }
  const f = tr.figures;
  const short = isShort(tr.side, f);
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
        {tr.product === 'intraday' && (
          <SummaryRow label={t('trade.product.squareOffAt')}>
            <span data-testid="review-square-off">
              {exchange(squareOffAt(tr.session), tr.session.schedule, 'weekdayClock')}
            </span>
          </SummaryRow>
        )}
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
            <SummaryRow
              label={t(tr.amo && tr.orderType === 'market' ? 'trade.amo.valueAtLast' : 'trade.estValue')}
            >
              {money(f.value)}
            </SummaryRow>
            <ChargesRows charges={f.charges} />
            <SummaryRow label={t(buying ? 'trade.estCost' : 'trade.estProceeds')} total>
              <span data-testid="review-net">{money(f.net)}</span>
            </SummaryRow>
            {buying ? (
              <>
                {protecting(f) && (
                  <SummaryRow
                    label={t('trade.amo.protectionUpTo', {
                      price: f.limit === null ? '—' : regionPrice(config, tr.region, f.limit, tr.decimals),
                    })}
                  >
                    <span data-testid="review-protection">{money(f.protection)}</span>
                  </SummaryRow>
                )}
                <SummaryRow label={t('trade.review.required')} total>
                  <span data-testid="review-required">{money(f.required)}</span>
                </SummaryRow>
                <SummaryRow label={t('trade.review.available')}>{money(f.available)}</SummaryRow>
                {(toMinor(f.blocked) ?? 0) > 0 && (
                  <SummaryRow label={t('trade.review.blocked')}>
                    <span data-testid="review-blocked">{money(f.blocked)}</span>
                  </SummaryRow>
                )}
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
      {tr.ticket.error && !f && <LoadError error={tr.ticket.error} onRetry={tr.ticket.reload} />}
      {short && (
        <p className={ui.failureBox} role="alert">
          {t('errors.insufficientFunds')}
        </p>
      )}
      {tr.amo ? (
        <>
          <p className={ui.closedNotice} data-testid="review-closed">
            {t('trade.amo.notice', {
              time: exchange(tr.session.nextOpen, tr.session.schedule, 'weekdayClock'),
            })}
          </p>
          {protecting(f) && f.limit !== null && (
            <p className={inv.summaryHint} data-testid="review-protection-hint">
              {t('trade.amo.protectionHint', { price: regionPrice(config, tr.region, f.limit, tr.decimals) })}
            </p>
          )}
        </>
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

/**
 * When an intraday order placed now is squared off: the close of the session running, or on a
 * closed market (an after-market order) the close of the session it is sent into.
 */
function squareOffAt(session: Ticket['session']): number {
  return session.open ? session.close : nextSession(session.schedule, session.nextOpen - 1).close;
}
