import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { DepositRow } from '../../../shared/backoffice';
import { call } from '../../api';
import { useAction, useNow, useOps, useSecondApproval } from '../../hooks';
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
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  function decide({ row, kind }: Confirming) {
    setConfirming(null);
    if (kind === 'approve')
      void action.run(
        `approve:${row.id}`,
        () => call('depositApprove', { id: row.id }),
        `Deposit ${row.id} approved and credited.`,
      );
    else
      void action.run(
        `confirm:${row.id}`,
        () => call('depositConfirm', { id: row.id }),
        (d) =>
          d.credited ? `Deposit ${row.id} credited.` : `Deposit ${row.id} waits for a second approval.`,
      );
  }

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
    confirming,
    ask: setConfirming,
    cancel: () => setConfirming(null),
    confirm: decide,
    reject: useReject(action.run),
  };
}

/** The reject dialog: which deposit, the reason (needed: the customer reads it), and the call. */
function useReject(run: ReturnType<typeof useAction>['run']) {
  const [row, setRow] = useState<DepositRow | null>(null);
  const [text, setText] = useState('');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!row) return;
    const id = row.id;
    setRow(null);
    const ok = await run(
      `reject:${id}`,
      () => call('depositReject', { id, text: text.trim() }),
      `Deposit ${id} rejected; the customer was told why.`,
    );
    if (ok) setText('');
  }
  return { row, open: setRow, close: () => setRow(null), text, setText, ready: text.trim() !== '', submit };
}
