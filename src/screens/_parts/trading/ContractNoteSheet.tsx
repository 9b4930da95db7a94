import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useConfig } from '../../../api/useConfig';
import { formatMoney, formatNumber } from '../../../shared/format';
import { scheduleOf } from '../../../shared/market-hours';
import { displayCode } from '../../../shared/rules';
import { Button, Dialog, ObjectStates, Skeleton, ui, useDates } from '../../../ui';
import inv from '../invest/invest.module.css';
import { regionPrice, SummaryRow } from '../invest/parts';
import { ChargesRows } from './Charges';
import { priceDecimals } from './parts';

/**
 * The contract note of an executed order: every figure the fill was made of, read from
 * the server (`orderContract`), which kept the charges it posted. `no` null: closed.
 */
export function ContractNoteSheet({ no, onClose }: { no: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const note = useWatch('orderContract', no ? { no } : null, 0);
  // The note of this order only: the answer still held may be the previously opened order's.
  const current = note.data && note.data.order.no === no ? note.data : null;
  return (
    <Dialog open={no !== null} sheet onClose={onClose} title={t('trade.contract.title')}>
      <ObjectStates
        data={current}
        error={note.error}
        onRetry={note.reload}
        loading={<Skeleton height={320} />}
      >
        {(n) => (
          <dl className={inv.summary} data-testid="contract-note">
            <SummaryRow label={t('trade.contract.no')}>{n.order.no}</SummaryRow>
            <SummaryRow label={t('trade.contract.executed')}>
              {exchange(n.executed_at, scheduleOf(n.order.market, n.order.type))}
            </SummaryRow>
            <SummaryRow label={t('trade.contract.instrument')}>
              {displayCode(n.order.tag)} · {n.order.name}
            </SummaryRow>
            <SummaryRow label={t('trade.contract.exchange')}>{n.exchange}</SummaryRow>
            <SummaryRow label={t('trade.review.side')}>
              {t(n.order.state === 'sell' ? 'trade.sell' : 'trade.buy')}
            </SummaryRow>
            <SummaryRow label={t('trade.quantity')}>{formatNumber(n.order.count, 0)}</SummaryRow>
            <SummaryRow label={t('trade.contract.price')}>
              {regionPrice(config, n.order.type, n.price, priceDecimals(n.price))}
            </SummaryRow>
            <SummaryRow label={t('trade.contract.value')}>{formatMoney(n.value, config.currency)}</SummaryRow>
            <ChargesRows charges={n.charges} />
            <SummaryRow
              label={t(n.order.state === 'sell' ? 'trade.contract.netSell' : 'trade.contract.netBuy')}
              total
            >
              {formatMoney(n.net, config.currency)}
            </SummaryRow>
          </dl>
        )}
      </ObjectStates>
      <div className={ui.dialogActions}>
        <Button onClick={onClose}>{t('trade.result.done')}</Button>
      </div>
    </Dialog>
  );
}
