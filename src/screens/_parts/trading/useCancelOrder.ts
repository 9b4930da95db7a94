import { useState } from 'react';
import { useMoneyCall } from '../../../api/money';
import type { OrderRow } from '../../../shared/contract/trading';
import { toast } from '../../../store/ui';
import { toastMoneyFailure } from '../invest/useMoneyCall';

/**
 * Cancelling a pending order (it releases the money or shares it reserved, so it is a money call
 * with its own Idempotency-Key). The caller shows the confirmation for `confirming`.
 */
export function useCancelOrder(onDone: (order: OrderRow) => void) {
  const cancelCall = useMoneyCall('orderCancel');
  const [confirming, setConfirming] = useState<OrderRow | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(order: OrderRow) {
    setBusy(true);
    const result = await cancelCall({ no: order.no });
    setBusy(false);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'records.cancelFailed');
      return;
    }
    setConfirming(null);
    toast('records.cancelled', 'success');
    onDone(result.data);
  }

  return { confirming, setConfirming, busy, cancel, call: cancelCall };
}
