import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { useConfig } from '../../api/useConfig';
import { ERR } from '../../shared/call';
import type { DayPosition, OrderQuote, OrderRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { fromMinor, toMinor } from '../../shared/money';
import { displayCode, POLL_MS } from '../../shared/rules';
import { Button, Dialog, MoneyButton, Skeleton, ui, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { regionPrice, SummaryRow } from '../_parts/invest/parts';
import { ChargesRows } from '../_parts/trading/Charges';
import { OrderResultBody, OrderResultSheet } from '../_parts/trading/OrderResult';
import s from './positions.module.css';

const keyOf = (row: DayPosition) => `${row.product}:${row.stock}`;

type Outcome = { row: DayPosition; order: OrderRow | null; error: string | null };

/**
 * Exit one position, or all intraday ones: a market sell of what each row says Exit sells, with
 * its product — the ticket's own order path (`dealSell`). The confirmation names what is sold and
 * its charges, every figure the server's (`orderQuote`); the result is each order as the server
 * left it (filled, pending at a closed market, refused), never what was expected.
 */
export function ExitDialog({
  positions,
  onClose,
  onSettled,
}: {
  positions: DayPosition[];
  onClose: () => void;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const sell = useMoneyCall('dealSell');
  const [quotes, setQuotes] = useState<Record<string, OrderQuote>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const single = positions.length === 1 ? positions[0] : null;
  const money = (m: string) => formatMoney(m, config.currency);
  const ready = positions.every((row) => quotes[keyOf(row)] !== undefined);
  const sum = (field: 'net' | 'value') =>
    fromMinor(positions.reduce((n, row) => n + (toMinor(quotes[keyOf(row)]?.[field] ?? '0') ?? 0), 0));
  const charges = fromMinor(
    positions.reduce((n, row) => n + (toMinor(quotes[keyOf(row)]?.charges.total ?? '0') ?? 0), 0),
  );
  const closedAt = positions
    .map((row) => ({ row, q: quotes[keyOf(row)] }))
    .find(({ q }) => q && !q.session.open);

  async function submit() {
    setBusy(true);
    setFailure(null);
    const done: Outcome[] = [];
    // One after the other: each sell is its own order with its own Idempotency-Key.
    for (const row of positions) {
      const q = quotes[keyOf(row)];
      if (!q) continue;
      const result = await sell({
        tag: row.stock,
        mold: 'stock',
        count: q.count,
        price: q.price,
        product: row.product,
        order_type: 'market',
        validity: 'day',
      });
      done.push(
        result.ok ? { row, order: result.data, error: null } : { row, order: null, error: result.error },
      );
    }
    setBusy(false);
    onSettled();
    if (single && done[0] && !done[0].order) {
      setFailure(done[0].error);
      return;
    }
    setOutcomes(done);
  }

  if (outcomes) {
    const [first] = outcomes;
    if (single && first?.order) {
      return <OrderResultSheet order={first.order} onClose={onClose} decimals={single.decimals} />;
    }
    return (
      <Dialog open sheet onClose={onClose} title={t('todayPositions.resultTitle')}>
        <div className={s.results} data-testid="exit-results">
          {outcomes.map((o) =>
            o.order ? (
              <div key={keyOf(o.row)} className={s.result}>
                <OrderResultBody order={o.order} decimals={o.row.decimals} />
              </div>
            ) : (
              <div key={keyOf(o.row)} className={ui.failureBox} role="alert">
                <strong>{t('todayPositions.notSent', { code: displayCode(o.row.stock) })}</strong>
                {o.error && o.error !== ERR.server && <span>{t(o.error)}</span>}
              </div>
            ),
          )}
        </div>
        <div className={ui.dialogActions}>
          <Button onClick={onClose}>{t('trade.result.done')}</Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      sheet
      onClose={onClose}
      title={
        single
          ? t('todayPositions.confirmTitle', { code: displayCode(single.stock) })
          : t('todayPositions.confirmAllTitle', { n: positions.length })
      }
    >
      <div className={s.results} data-testid="exit-confirm">
        {positions.map((row) => (
          <ExitFigures
            key={keyOf(row)}
            row={row}
            itemised={single !== null}
            onQuote={(q) => setQuotes((all) => (all[keyOf(row)] === q ? all : { ...all, [keyOf(row)]: q }))}
          />
        ))}
        {!single && ready && (
          <dl className={inv.summary}>
            <SummaryRow label={t('todayPositions.totalValue')}>{money(sum('value'))}</SummaryRow>
            <SummaryRow label={t('todayPositions.totalCharges')}>
              <span data-testid="exit-charges">{money(charges)}</span>
            </SummaryRow>
            <SummaryRow label={t('todayPositions.totalReceive')} total>
              <span data-testid="exit-net">{money(sum('net'))}</span>
            </SummaryRow>
          </dl>
        )}
      </div>
      {closedAt ? (
        <p className={ui.closedNotice} data-testid="exit-closed">
          {t('trade.amo.notice', {
            time: exchange(
              closedAt.q?.session.opens_at ?? 0,
              scheduleOf(closedAt.row.market, closedAt.row.region),
              'weekdayClock',
            ),
          })}
        </p>
      ) : (
        <p className={inv.summaryHint}>{t('todayPositions.confirmHint')}</p>
      )}
      {failure && (
        <div className={ui.failureBox} role="alert">
          <strong>{t('trade.submitFailed')}</strong>
          {failure !== ERR.server && <span>{t(failure)}</span>}
        </div>
      )}
      <div className={ui.dialogActions}>
        <Button variant="ghost" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <MoneyButton
          variant="sell"
          call={sell}
          loading={busy}
          disabled={!ready}
          onClick={() => void submit()}
          data-testid="exit-submit"
        >
          {single
            ? t('todayPositions.confirmSell', { n: formatNumber(single.exitable, 0) })
            : t('todayPositions.confirmAll', { n: positions.length })}
        </MoneyButton>
      </div>
    </Dialog>
  );
}

/**
 * What one exit sells and what it costs, from the server's figures for this very sell; handed up
 * so the sheet sends the price and quantity it showed.
 */
function ExitFigures({
  row,
  itemised,
  onQuote,
}: {
  row: DayPosition;
  itemised: boolean;
  onQuote: (quote: OrderQuote) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const quote = useWatch(
    'orderQuote',
    { tag: row.stock, side: 'sell', count: row.exitable, product: row.product, order_type: 'market' },
    POLL_MS.stockTrading,
  );
  const q = quote.data;
  useEffect(() => {
    if (q) onQuote(q);
  }, [q, onQuote]);
  const money = (m: string) => formatMoney(m, config.currency);
  const code = displayCode(row.stock);
  return (
    <dl className={inv.summary} data-testid="exit-line" data-symbol={row.stock}>
      <SummaryRow label={t('trade.contract.instrument')}>
        {code} · {row.name}
      </SummaryRow>
      <SummaryRow label={t('trade.product.label')}>{t(`trade.product.${row.product}`)}</SummaryRow>
      <SummaryRow label={t('trade.review.selling')}>
        <span data-testid="exit-count">{formatNumber(row.exitable, 0)}</span>
      </SummaryRow>
      {q ? (
        <>
          <SummaryRow label={t('trade.confirm.marketPrice')}>
            {regionPrice(config, row.region, q.price, row.decimals)}
          </SummaryRow>
          <SummaryRow label={t('trade.estValue')}>{money(q.value)}</SummaryRow>
          {itemised ? (
            <ChargesRows charges={q.charges} />
          ) : (
            <SummaryRow label={t('trade.charges.total')}>{money(q.charges.total)}</SummaryRow>
          )}
          <SummaryRow label={t('trade.estProceeds')} total={itemised}>
            <span data-testid="exit-line-net">{money(q.net)}</span>
          </SummaryRow>
        </>
      ) : (
        <Skeleton height={itemised ? 200 : 72} />
      )}
    </dl>
  );
}
