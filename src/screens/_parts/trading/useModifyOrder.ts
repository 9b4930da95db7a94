import { useState } from 'react';
import { useMoneyCall } from '../../../api/money';
import type { OrderRow } from '../../../shared/contract/trading';
import { toast } from '../../../store/ui';

/** What a modify may change: only the fields the user changed are sent. */
export interface OrderChanges {
  count?: number;
  price?: number;
  trigger?: number;
}

/**
 * Modifying a pending order (`orderModify`): the server re-reserves exactly the
 * difference, so it is a money call with its own Idempotency-Key. `editing` is the order whose
 * sheet is open; a refusal stays in the sheet as `failure` (an i18n key).
 */
export function useModifyOrder(onDone: (order: OrderRow) => void) {
  const call = useMoneyCall('orderModify');
  const [editing, setEditing] = useState<OrderRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  function open(order: OrderRow | null) {
    setFailure(null);
    setEditing(order);
  }

  async function submit(order: OrderRow, changes: OrderChanges) {
    setBusy(true);
    setFailure(null);
    const result = await call({ no: order.no, ...changes });
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    setEditing(null);
    toast('records.modify.done', 'success');
    onDone(result.data);
  }

  return { editing, open, busy, failure, submit, call };
}
