import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../ui';
import type { useCancelOrder } from './useCancelOrder';

/** The confirmation before a pending stock order is cancelled (records and the trading screen). */
export function CancelOrderDialog({ cancel }: { cancel: ReturnType<typeof useCancelOrder> }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={cancel.confirming !== null}
      title={t('records.cancelTitle')}
      message={cancel.confirming && t('records.cancelMessage', { no: cancel.confirming.no })}
      confirmLabel={t('records.cancelConfirm')}
      danger
      busy={cancel.busy}
      money={cancel.call}
      onCancel={() => cancel.setConfirming(null)}
      onConfirm={() => cancel.confirming && void cancel.cancel(cancel.confirming)}
    />
  );
}
