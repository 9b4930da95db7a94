import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PayoutRejectionReason, PayoutRow } from '../../../shared/backoffice';
import { call, downloadCsv } from '../../api';
import { useAction, useNow, useOps, useSecondApproval } from '../../hooks';
import { useMe } from '../../session';
import type { Confirming } from './PayoutParts';

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
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const rows = list.data?.rows ?? [];
  const secondApproval = useSecondApproval();

  function decide({ row, kind }: Confirming) {
    setConfirming(null);
    if (kind === 'approve')
      void action.run(
        `approve:${row.id}`,
        () => call('payoutApprove', { id: row.id }),
        `Withdrawal ${row.id} approved and paid.`,
      );
    else
      void action.run(
        `pay:${row.id}`,
        () => call('payoutPay', { id: row.id }),
        (d) => (d.paid ? `Withdrawal ${row.id} paid.` : `Withdrawal ${row.id} waits for a second approval.`),
      );
  }

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
    confirming,
    /** Opens the confirmation that restates what leaves; `confirm` makes the call. */
    ask: setConfirming,
    cancel: () => setConfirming(null),
    confirm: decide,
    release,
    reject: useReject(action.run),
    exportCsv: async () => setExportError(await downloadCsv('payoutsCsv', {}, 'payouts')),
  };
}

/** The reject dialog: which payout, the reason and the note, and the call. */
function useReject(run: ReturnType<typeof useAction>['run']) {
  const [row, setRow] = useState<PayoutRow | null>(null);
  const [reason, setReason] = useState<PayoutRejectionReason>('cardMismatch');
  const [text, setText] = useState('');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!row) return;
    const id = row.id;
    setRow(null);
    await run(
      `reject:${id}`,
      () => call('payoutReject', { id, reason, text: text.trim() || undefined }),
      `Withdrawal ${id} rejected and refunded to the customer.`,
    );
    setText('');
  }
  return {
    row,
    open: setRow,
    close: () => setRow(null),
    reason,
    setReason,
    text,
    setText,
    /** "Other" needs the note. */
    ready: !(reason === 'other' && !text.trim()),
    submit,
  };
}
