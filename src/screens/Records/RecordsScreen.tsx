import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { PATHS, tradingPath } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { toMinor } from '../../shared/money';
import { displayCode, PAGE_SIZE } from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import {
  Button,
  EmptyState,
  IconHistory,
  ListStates,
  LoadMore,
  PageHeader,
  StaleLine,
  StatusChip,
  Tabs,
  ui,
  useDates,
} from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { regionPrice, SignedMoney, Stat } from '../_parts/invest/parts';
import { CancelOrderDialog } from '../_parts/trading/CancelOrderDialog';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { ModifyOrderSheet, ORDER_TYPE_LABEL, orderTypeOf } from '../_parts/trading/ModifyOrderSheet';
import { useOcoTexts } from '../_parts/trading/oco';
import { priceDecimals } from '../_parts/trading/parts';
import t2 from '../_parts/trading/trading.module.css';
import { RECORD_TABS, type RecordTab, recordStatus, useRecords } from './useRecords';

/** What a record card can do: modify or cancel a pending order, open a filled one's contract note. */
export interface RecordActions {
  modify: (order: OrderRow) => void;
  cancel: (order: OrderRow) => void;
  note: (no: string) => void;
}

/**
 * Stock records (SPEC §2): tabs by status, record cards with each order's type and trigger,
 * modifying and cancelling a pending order, the contract note of a filled one.
 */
export default function RecordsScreen() {
  const { t } = useTranslation();
  const { tab, setTab, status, first, paging, hasMore, cancel, modify } = useRecords();
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const actions: RecordActions = { modify: modify.open, cancel: cancel.setConfirming, note: setNoteFor };
  const rows = first.data?.rows;

  return (
    <main className={ui.page}>
      <PageHeader title={t('records.title')} back={PATHS.trade} />
      <div className={s.sticky}>
        <Tabs<RecordTab>
          id="records-tab"
          label={t('records.title')}
          value={tab}
          onChange={setTab}
          items={RECORD_TABS.map((value) => ({ value, label: t(`records.tabs.${value}`) }))}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`records-tab-${tab}`}>
        <StaleLine of={first} />
        <ListStates
          rows={rows}
          error={first.error}
          onRetry={first.reload}
          skeleton={{ rows: 4, height: 150 }}
          empty={
            <EmptyState title={t(`records.empty.${tab}`)} icon={<IconHistory size={28} />}>
              <Link to={PATHS.markets}>{t('records.browse')}</Link>
            </EmptyState>
          }
        >
          {(rows) => (
            <>
              <ul className={s.list}>
                {rows.map((order) => (
                  <RecordCard key={order.id} order={order} actions={actions} />
                ))}
                {paging.rest.map((page) => (
                  <RecordsPage
                    key={page}
                    status={status}
                    page={page}
                    onSettled={paging.settle}
                    actions={actions}
                  />
                ))}
              </ul>
              <LoadMore hasMore={hasMore} loading={paging.loading} onMore={paging.more} />
            </>
          )}
        </ListStates>
      </section>
      <CancelOrderDialog cancel={cancel} />
      <ModifyOrderSheet modify={modify} />
      <ContractNoteSheet no={noteFor} onClose={() => setNoteFor(null)} />
    </main>
  );
}

function RecordsPage({
  status,
  page,
  onSettled,
  actions,
}: {
  status: number | undefined;
  page: number;
  onSettled: (page: number) => void;
  actions: RecordActions;
}) {
  const { data, loading } = useWatch('orderList', { status, page, limit: PAGE_SIZE }, 0);
  useEffect(() => {
    if (!loading) onSettled(page);
  }, [loading, page, onSettled]);
  return (
    <>
      {data?.rows.map((order) => (
        <RecordCard key={order.id} order={order} actions={actions} />
      ))}
    </>
  );
}

/**
 * One stock order: code without .BO/.NS, side, order type, quantity, price, a stop's trigger, fee,
 * total, P/L for sells, status and time. A buy's price is its fill (or its limit while pending); a
 * sell shows what the units cost and the price they sold at. A pending order can be modified or
 * cancelled; a filled one opens its contract note.
 */
export function RecordCard({ order, actions }: { order: OrderRow; actions: RecordActions }) {
  const { t } = useTranslation();
  const config = useConfig();
  const dates = useDates();
  // Its times are the exchange's, labelled (issue 30).
  const schedule = scheduleOf(order.market, order.type);
  const dateTime = (ms: number) => dates.exchange(ms, schedule);
  const sell = order.state === 'sell';
  const pending = order.status === STOCK_STATUS.pending;
  const status = recordStatus(order);
  const code = displayCode(order.tag);
  const fee = toMinor(order.fee) ?? 0;
  const shownPrice = pending ? (order.limit_price ?? order.price) : sell ? order.sell_price : order.price;
  // An after-market order is a market order resting until the open (at its protection limit).
  const type = order.amo ? 'market' : orderTypeOf(order);
  const trigger = order.trigger_price;
  // An OCO shows both legs, and the one that fired.
  const oco = useOcoTexts()(order);
  /** An OCO no leg of which has fired: its legs carry the prices, none is the order's yet. */
  const armedOco = oco !== null && !oco.fired && pending;
  /** An after-market order waiting for the open: when it is sent, the exchange's time (issue 30). */
  const amoSend =
    pending && order.amo && order.send_at !== null
      ? dates.exchange(order.send_at, schedule, 'weekdayClock')
      : null;
  return (
    <li className={s.card} data-order={order.no}>
      <Link to={tradingPath(order.tag, order.market, order.name, order.state)} className={s.cardLink}>
        <div className={s.cardTop}>
          <div className={s.titleBlock}>
            <span className={s.sub}>
              <span className={s.name}>{code}</span>
              <span className={`${s.side} ${sell ? s.sideSell : s.sideBuy}`}>
                {t(sell ? 'trade.sell' : 'trade.buy')}
              </span>
              <span className={s.tag} data-testid="order-type">
                {t(ORDER_TYPE_LABEL[type])}
              </span>
              <span className={s.tag}>{order.market}</span>
              {order.product === 'intraday' && <span className={s.tag}>{t('trade.product.intraday')}</span>}
              {amoSend !== null && (
                <span className={s.tag} data-testid="order-amo">
                  {t('records.amo')}
                </span>
              )}
            </span>
            <span className={s.sub}>{order.name}</span>
          </div>
          <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
        </div>
        <dl className={`${ui.statRow} ${s.stats} ${s.stats3}`}>
          <Stat label={t('records.quantity')}>{formatNumber(order.count, 0)}</Stat>
          {amoSend !== null && (
            <Stat label={t('trade.amo.sendsAt')}>
              <span data-testid="order-sends-at">{amoSend}</span>
            </Stat>
          )}
          {!armedOco && (
            <Stat
              label={t(
                amoSend !== null
                  ? 'trade.amo.limit'
                  : pending
                    ? 'records.limitPrice'
                    : sell
                      ? 'records.sellPrice'
                      : 'records.price',
              )}
            >
              {shownPrice === null
                ? '—'
                : regionPrice(config, order.type, shownPrice, priceDecimals(shownPrice))}
            </Stat>
          )}
          {oco ? (
            <>
              <Stat label={t('trade.gtt.legTarget')}>
                <span data-testid="oco-target">{oco.target}</span>
              </Stat>
              <Stat label={t('trade.gtt.legStop')}>
                <span data-testid="oco-stop">{oco.stop}</span>
              </Stat>
              {oco.fired && (
                <Stat label={t('records.triggeredAt')}>
                  <span data-testid="oco-fired">{oco.fired}</span>
                </Stat>
              )}
            </>
          ) : (
            trigger !== null && (
              <Stat label={t(order.triggered_at ? 'records.triggeredAt' : 'trade.stop.trigger')}>
                {regionPrice(config, order.type, trigger, priceDecimals(trigger))}
              </Stat>
            )
          )}
          {pending &&
            (type === 'gtt' || type === 'oco') &&
            order.expires_at !== null &&
            !order.triggered_at && (
              <Stat label={t('trade.gtt.validUntil')}>{dateTime(order.expires_at)}</Stat>
            )}
          {sell && !pending && (
            <Stat label={t('records.costPrice')}>
              {regionPrice(config, order.type, order.price, priceDecimals(order.price))}
            </Stat>
          )}
          {!(pending && sell) && <Stat label={t('records.fee')}>{formatMoney(fee, config.currency)}</Stat>}
          {sell && order.profit !== null && (
            <Stat label={t('records.profit')}>
              <SignedMoney amount={order.profit} currency={config.currency} />
            </Stat>
          )}
          {pending && sell ? (
            // A pending sell holds its units (the quantity), not money, and pays its charges when it
            // fills: its value at the limit is an estimate, and an armed OCO's depends on its leg.
            !armedOco && (
              <Stat label={t('trade.estValue')} strong>
                {formatMoney(order.price_all, config.currency)}
              </Stat>
            )
          ) : (
            <Stat label={t(pending ? 'records.reserved' : 'records.total')} strong>
              {/* price_all: what moved (value ± charges), or what a pending buy holds at its limit. */}
              {formatMoney(order.price_all, config.currency)}
            </Stat>
          )}
        </dl>
        <div className={s.foot}>
          <span>
            {t('records.no')} <span className={s.orderNo}>{order.no}</span>
          </span>
          <time dateTime={new Date(order.created_at).toISOString()}>{dateTime(order.created_at)}</time>
        </div>
      </Link>
      {pending && (
        <div className={t2.orderActions}>
          <Button
            variant="ghost"
            onClick={() => actions.cancel(order)}
            aria-label={t('records.cancelFor', { code })}
          >
            {t('records.cancel')}
          </Button>
          <Button onClick={() => actions.modify(order)} aria-label={t('records.modify.for', { code })}>
            {t('records.modify.open')}
          </Button>
        </div>
      )}
      {order.status === STOCK_STATUS.success && (
        <div className={t2.orderActions}>
          <Button
            variant="ghost"
            onClick={() => actions.note(order.no)}
            aria-label={t('records.noteFor', { code })}
          >
            {t('trade.contract.open')}
          </Button>
        </div>
      )}
    </li>
  );
}
