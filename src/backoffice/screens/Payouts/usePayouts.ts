import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PayoutRejectionReason, PayoutRow } from '../../../shared/backoffice';
import { call, downloadCsv } from '../../api';
import {
  useAction,
  useNow,
  useOps,
  useRejection,
  useSecondApproval,
  useTwoPersonDecision,
} from '../../hooks';
import { useMe } from '../../session';

/**
 * The Payouts screen's data and decisions: the list (polled), the picked payout, and one function
 * per decision — pay (or ask for the second approval), approve, release, reject — each through one
 * `useAction`, so the screen only renders what they answer (busy, refusal, outcome).
 */
export function usePayouts() {
  const me = useMe();
  const list = useOps('payouts', {}, 10_000);
  const now = useNow(5000);
  const [params] = useSearchParams();
  const [picked, setPicked] = useState<number | null>(() => Number(params.get('focus')) || null);
  const action = useAction(list.reload);
  const [exportError, setExportError] = useState<string | null>(null);
  const rows = list.data?.rows ?? [];
  const secondApproval = useSecondApproval();

  const release = (row: PayoutRow) =>
    void action.run(
      `release:${row.id}`,
      () => call('payoutRelease', { id: row.id }),
      `Withdrawal ${row.id} handed to the payment rail.`,
    );

  return {
    rows,
    threshold: list.data?.threshold ?? '0',
    loaded: list.data !== undefined,
    loading: list.loading,
    now,
    picked,
    pick: setPicked,
    detail: rows.find((r) => r.id === picked) ?? null,
    canPay: me.caps.includes('pay'),
    /** Who may press Approve on a waiting payout (the maker never). */
    approval: (r: PayoutRow) => secondApproval(r.approval),
    /** Which decision is running (`pay:12`, `approve:12`, `release:12`, `reject:12`). */
    busy: action.busy,
    error: list.error ?? action.error ?? exportError,
    note: action.note,
    /** The confirmation that restates what leaves: `ask`, `cancel`, `confirm` (makes the call). */
    ...useTwoPersonDecision(
      action.run,
      {
        kind: 'pay',
        call: (row: PayoutRow) => call('payoutPay', { id: row.id }),
        done: (row, d) =>
          d.paid ? `Withdrawal ${row.id} paid.` : `Withdrawal ${row.id} waits for a second approval.`,
      },
      {
        call: (row) => call('payoutApprove', { id: row.id }),
        done: (row) => `Withdrawal ${row.id} approved and paid.`,
      },
    ),
    release,
    reject: useReject(action.run),
    exportCsv: async () => setExportError(await downloadCsv('payoutsCsv', {}, 'payouts')),
  };
}

/** The reject dialog: which payout, the reason from the list and the note ("Other" needs it), and the call. */
function useReject(run: ReturnType<typeof useAction>['run']) {
  const [reason, setReason] = useState<PayoutRejectionReason>('cardMismatch');
  const dialog = useRejection((row: PayoutRow, text) =>
    run(
      `reject:${row.id}`,
      () => call('payoutReject', { id: row.id, reason, text: text || undefined }),
      `Withdrawal ${row.id} rejected and refunded to the customer.`,
    ),
  );
  return { ...dialog, reason, setReason, ready: reason !== 'other' || dialog.ready };
}
