import { useSearchParams } from 'react-router-dom';
import type { DepositRow } from '../../../shared/backoffice';
import { call } from '../../api';
import {
  useAction,
  useNow,
  useOps,
  useRejection,
  useSecondApproval,
  useTwoPersonDecision,
} from '../../hooks';
import { useMe } from '../../session';

export type Confirming = { row: DepositRow; kind: 'confirm' | 'approve' };

/**
 * The Deposits screen's data and decisions: the list (polled), and one function per decision —
 * confirm (or ask for the second approval), approve, reject with the reason the customer reads —
 * through one `useAction`, so the screen only renders what they answer.
 */
export function useDeposits() {
  const me = useMe();
  const list = useOps('deposits', {}, 10_000);
  const now = useNow(5000);
  const [params] = useSearchParams();
  const action = useAction(list.reload);
  const secondApproval = useSecondApproval();

  return {
    rows: list.data?.rows ?? [],
    threshold: list.data?.threshold ?? '0',
    loaded: list.data !== undefined,
    loading: list.loading,
    now,
    picked: Number(params.get('focus')) || null,
    canPay: me.caps.includes('pay'),
    /** Who may press Approve on a waiting deposit (the member who confirmed it never). */
    approval: (r: DepositRow) => secondApproval(r.approval),
    /** Which decision is running (`confirm:12`, `approve:12`, `reject:12`). */
    busy: action.busy,
    error: list.error ?? action.error,
    note: action.note,
    /** The confirmation that restates what is credited: `ask`, `cancel`, `confirm` (makes the call). */
    ...useTwoPersonDecision(
      action.run,
      {
        kind: 'confirm',
        call: (row: DepositRow) => call('depositConfirm', { id: row.id }),
        done: (row, d) =>
          d.credited ? `Deposit ${row.id} credited.` : `Deposit ${row.id} waits for a second approval.`,
      },
      {
        call: (row) => call('depositApprove', { id: row.id }),
        done: (row) => `Deposit ${row.id} approved and credited.`,
      },
    ),
    /** The reject dialog: the reason is needed, the customer reads it. */
    reject: useRejection((row: DepositRow, text) =>
      action.run(
        `reject:${row.id}`,
        () => call('depositReject', { id: row.id, text }),
        `Deposit ${row.id} rejected; the customer was told why.`,
      ),
    ),
  };
}
