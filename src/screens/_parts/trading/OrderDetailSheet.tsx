import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currencyFor, useConfig } from '../../../api/useConfig';
import { stockPath, tradingPath } from '../../../paths';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatQuantity } from '../../../shared/format';
import { scheduleOf } from '../../../shared/market-hours';
import { toMinor } from '../../../shared/money';
import { displayCode } from '../../../shared/rules';
import { Button, Dialog, IconLock, StatusChip, ui, useDates } from '../../../ui';
import inv from '../invest/invest.module.css';
import { SignedMoney, SummaryRow } from '../invest/parts';
import { orderTypeOf } from './ModifyOrderSheet';
import { useOcoTexts } from './oco';
import { orderLine, priceAsMoney } from './orderLine';
import s from './orders.module.css';
import { hasContractNote } from './outcome';
import t2 from './trading.module.css';

/**
 * What an order's detail can do; each is offered only where it applies (cancel and modify a pending
 * stock order, the contract note of a trade that executed, the sale of a lot still held). The sheet
 * closes before the action opens its own dialog.
 */
export interface OrderActions {
  cancel?: (order: OrderRow) => void;
  modify?: (order: OrderRow) => void;
  note?: (no: string) => void;
  sell?: (order: OrderRow) => void;
}

/**
 * An order's detail as a bottom sheet, opened from its row: the status the server left it in and
 * why, every figure of the order, its times in the exchange's zone (IST for Indian markets), and
 * what can be done with it. `order` null: closed. `note`: a line about its money (an IPO
 * application's amount blocked or released).
 */
export function OrderDetailSheet({
  order,
  onClose,
  actions,
  note,
}: {
  order: OrderRow | null;
  onClose: () => void;
  actions: OrderActions;
  note?: string;
}) {
  const { t } = useTranslation();
  const title = order
    ? `${t(order.state === 'sell' ? 'trade.sell' : 'trade.buy')} ${displayCode(order.tag)}`
    : '';
  return (
    <Dialog open={order !== null} sheet onClose={onClose} title={title}>
      {order && <OrderDetail order={order} onClose={onClose} actions={actions} note={note} />}
    </Dialog>
  );
}

export function OrderDetail({
  order,
  onClose,
  actions,
  note,
}: {
  order: OrderRow;
  onClose: () => void;
  actions: OrderActions;
  note?: string;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const line = orderLine(order);
  const schedule = scheduleOf(order.market, order.type);
  const at = (ms: number) => dates.exchange(ms, schedule);
  const code = displayCode(order.tag);
  const pending = line.outcome === 'pending';
  const run = (act: () => void) => () => {
    onClose();
    act();
  };
  const stock = order.mold === 'stock';
  const canCancel = stock && pending && actions.cancel;
  const canModify = stock && pending && actions.modify;
  const canNote = hasContractNote(order) && actions.note;
  const canSell = order.sellable && actions.sell;
  return (
    <>
      <div className={t2.resultHead}>
        <StatusChip tone={line.tone}>
          <span data-testid="detail-status">{t(line.statusKey)}</span>
        </StatusChip>
        <span className={inv.orderNo}>
          {t('records.no')} {order.no}
        </span>
      </div>
      <p className={s.detailName}>{order.name}</p>
      {line.reasonKey && (
        <p className={ui.closedNotice} data-testid="detail-reason">
          {t(line.reasonKey)}
        </p>
      )}
      <dl className={inv.summary} data-testid="order-detail">
        <SummaryRow label={t('records.detail.type')}>{t(line.typeKey)}</SummaryRow>
        <SummaryRow label={t('trade.product.label')}>{t(line.productKey)}</SummaryRow>
        {line.validityKey && <SummaryRow label={t('trade.validity.label')}>{t(line.validityKey)}</SummaryRow>}
        {line.count !== null && (
          <SummaryRow label={t('trade.result.filled')}>
            <span data-testid="detail-filled">
              {t('trade.result.filledOf', {
                filled: formatQuantity(line.filled),
                count: formatQuantity(line.count),
              })}
            </span>
          </SummaryRow>
        )}
        {stock ? <StockFigures order={order} /> : <LotFigures order={order} />}
        <SummaryRow label={t('records.detail.placed')}>
          <time data-testid="detail-placed" dateTime={new Date(order.created_at).toISOString()}>
            {at(order.created_at)}
          </time>
        </SummaryRow>
        {!pending && order.updated_at !== order.created_at && (
          <SummaryRow
            label={t(line.outcome === 'filled' ? 'trade.contract.executed' : 'records.detail.closed')}
          >
            <time dateTime={new Date(order.updated_at).toISOString()}>{at(order.updated_at)}</time>
          </SummaryRow>
        )}
      </dl>
      {note && (
        <p className={s.detailNote} data-testid="order-note">
          <IconLock size={16} aria-hidden />
          <span>{note}</span>
        </p>
      )}
      {order.unlock_at !== null && (
        <p className={s.detailNote} data-testid="unlock-at">
          <IconLock size={16} aria-hidden />
          <span>{t('ipo.order.unlocksAt', { date: at(order.unlock_at) })}</span>
        </p>
      )}
      <div className={ui.dialogActions}>
        {canCancel && (
          <Button
            variant="ghost"
            onClick={run(() => canCancel(order))}
            aria-label={t('records.cancelFor', { code })}
          >
            {t('records.cancel')}
          </Button>
        )}
        {canModify && (
          <Button
            variant="ghost"
            onClick={run(() => canModify(order))}
            aria-label={t('records.modify.for', { code })}
          >
            {t('records.modify.open')}
          </Button>
        )}
        {canNote && (
          <Button
            variant="ghost"
            onClick={run(() => canNote(order.no))}
            aria-label={t('records.noteFor', { code })}
          >
            {t('trade.contract.open')}
          </Button>
        )}
        {canSell && (
          <Button
            variant="sell"
            onClick={run(() => canSell(order))}
            aria-label={t('ipo.sell.actionFor', { code })}
          >
            {t('ipo.sell.action')}
          </Button>
        )}
        <Link
          to={
            stock
              ? tradingPath(order.tag, order.market, order.name, order.state)
              : stockPath(order.tag, order.name)
          }
          className={t2.linkButton}
        >
          {t('records.detail.open', { code })}
        </Link>
        <Button onClick={onClose}>{t('trade.result.done')}</Button>
      </div>
    </>
  );
}

/**
 * A stock order's figures: its price (a buy's fill, a sell's sale and what the units cost, or the
 * limit while pending), a stop's trigger or an OCO's legs, charges, P/L, and the money it moved or
 * holds. An after-market order says when it is sent.
 */
function StockFigures({ order }: { order: OrderRow }) {
  const { t } = useTranslation();
  const config = useConfig();
  const dates = useDates();
  const schedule = scheduleOf(order.market, order.type);
  const currency = currencyFor(config, order.type);
  const price = (p: number) => priceAsMoney(p, currency);
  const money = (m: string) => formatMoney(m, config.currency);
  const sell = order.state === 'sell';
  const line = orderLine(order);
  const pending = line.outcome === 'pending';
  const type = orderTypeOf(order);
  const oco = useOcoTexts()(order);
  const armedOco = oco !== null && !oco.fired && pending;
  const amoSend =
    pending && order.amo && order.send_at !== null
      ? dates.exchange(order.send_at, schedule, 'weekdayClock')
      : null;
  const rows: ReactNode[] = [];
  const row = (key: string, label: string, value: ReactNode, total?: boolean) =>
    rows.push(
      <SummaryRow key={key} label={label} total={total}>
        {value}
      </SummaryRow>,
    );
  if (amoSend !== null)
    row('amo', t('trade.amo.sendsAt'), <span data-testid="order-sends-at">{amoSend}</span>);
  if (line.price !== null && !armedOco)
    row(
      'price',
      t(
        amoSend !== null && type === 'market'
          ? 'trade.amo.limit'
          : pending || line.outcome !== 'filled'
            ? 'records.limitPrice'
            : sell
              ? 'records.sellPrice'
              : 'records.price',
      ),
      price(line.price),
    );
  if (oco) {
    row('target', t('trade.gtt.legTarget'), <span data-testid="oco-target">{oco.target}</span>);
    row('stop', t('trade.gtt.legStop'), <span data-testid="oco-stop">{oco.stop}</span>);
    if (oco.fired) row('fired', t('records.triggeredAt'), <span data-testid="oco-fired">{oco.fired}</span>);
  } else if (order.trigger_price !== null)
    row(
      'trigger',
      t(order.triggered_at ? 'records.triggeredAt' : 'trade.stop.trigger'),
      price(order.trigger_price),
    );
  if (pending && (type === 'gtt' || type === 'oco') && order.expires_at !== null && !order.triggered_at)
    row('valid', t('trade.gtt.validUntil'), dates.exchange(order.expires_at, schedule));
  if (sell && line.outcome === 'filled') row('cost', t('records.costPrice'), price(order.price));
  if (!(pending && sell) && (line.outcome === 'filled' || pending))
    row('fee', t('trade.charges.total'), money(order.fee));
  if (sell && order.profit !== null)
    row('profit', t('records.profit'), <SignedMoney amount={order.profit} currency={config.currency} />);
  if (pending && sell) {
    // A pending sell holds its units, not money, and pays its charges when it fills: its value at
    // the limit is an estimate, and an armed OCO's depends on the leg that fires.
    if (!armedOco) row('value', t('trade.estValue'), money(order.price_all), true);
  } else if (pending) row('reserved', t('records.reserved'), money(order.price_all), true);
  else if (line.outcome === 'filled') row('total', t('records.total'), money(order.price_all), true);
  else if ((line.outcome === 'cancelled' || line.outcome === 'expired') && order.reason === null)
    // What it held came back whole (a buy's money, a sell's units). One the server ended at once (an
    // IOC that could not fill) held nothing, and a rejected order neither.
    row(
      'released',
      t(sell ? 'trade.result.unitsReleased' : 'trade.result.released'),
      sell ? formatQuantity(order.count) : money(order.price_all),
      true,
    );
  return <>{rows}</>;
}

/**
 * A block/QIP lot's or an IPO order's figures: price, a sale's price and P/L, the fee, and the
 * total (a refused buy moved no money: its reason shows above instead).
 */
function LotFigures({ order }: { order: OrderRow }) {
  const { t } = useTranslation();
  const config = useConfig();
  const currency = currencyFor(config, order.type);
  const sell = order.state === 'sell';
  const fee = toMinor(order.fee) ?? 0;
  const line = orderLine(order);
  return (
    <>
      <SummaryRow label={t('ipo.order.price')}>{priceAsMoney(order.price, currency)}</SummaryRow>
      {sell && order.sell_price !== null && (
        <SummaryRow label={t('ipo.order.sellPrice')}>{priceAsMoney(order.sell_price, currency)}</SummaryRow>
      )}
      {sell && order.profit !== null && (
        <SummaryRow label={t('ipo.order.profit')}>
          <SignedMoney amount={order.profit} currency={config.currency} />
        </SummaryRow>
      )}
      {fee > 0 && (
        <SummaryRow label={t('trade.charges.total')}>{formatMoney(order.fee, config.currency)}</SummaryRow>
      )}
      {line.outcome !== 'rejected' && (
        <SummaryRow label={t('ipo.order.total')} total>
          {formatMoney(order.price_all, config.currency)}
        </SummaryRow>
      )}
    </>
  );
}
