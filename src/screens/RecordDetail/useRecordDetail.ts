import { useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { POLL_MS } from '../../shared/rules';
import { isPending } from '../_parts/wallet/status';

/**
 * One recharge or withdrawal (/account/recharge-withdraw/{id}). The records list links with
 * `?type=withdraw` for withdrawals; without it the id is a recharge's. Refreshed while in progress.
 */
export function useRecordDetail() {
  const { id: raw } = useParams();
  const [params] = useSearchParams();
  const id = Number(raw);
  const valid = Number.isInteger(id) && id >= 1;
  const type = params.get('type') === 'withdraw' ? 'withdraw' : 'recharge';
  const first = useWatch('recordDetail', valid ? { id, type } : null, 0);
  const pending = first.data !== undefined && isPending(first.data);
  const live = useWatch('recordDetail', valid && pending ? { id, type } : null, POLL_MS.accountInfo);
  const record = live.data ?? first.data;
  return { valid, type, record, detail: first, reload: first.reload };
}
