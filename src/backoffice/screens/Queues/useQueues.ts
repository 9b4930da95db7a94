import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { QueueItem, WorkType } from '../../../shared/backoffice';
import { call, downloadCsv } from '../../api';
import { useAction, useKeys, useNow, useOps } from '../../hooks';
import { OPS_PATHS } from '../../paths';
import { useMe } from '../../session';

export const keyOf = (i: Pick<QueueItem, 'type' | 'id'>) => `${i.type}:${i.id}`;

/** Where an item is worked on. */
export function pathOf(item: Pick<QueueItem, 'type' | 'id'>): string {
  switch (item.type) {
    case 'kyc':
      return OPS_PATHS.kyc(item.id);
    case 'chat':
      return OPS_PATHS.chat(item.id);
    case 'withdrawal':
    case 'approval':
      return OPS_PATHS.payout(item.id);
    case 'deposit':
      return OPS_PATHS.deposit(item.id);
    case 'loan':
      return OPS_PATHS.loans;
    case 'ipo':
      return OPS_PATHS.ipo;
    case 'account':
      return OPS_PATHS.customer(item.id);
  }
}

/** Where a whole type of work is listed. */
export const LIST_OF: Record<WorkType, string> = {
  kyc: OPS_PATHS.kycList,
  chat: OPS_PATHS.chats,
  withdrawal: OPS_PATHS.payouts,
  approval: OPS_PATHS.payouts,
  deposit: OPS_PATHS.deposits,
  loan: OPS_PATHS.loans,
  ipo: OPS_PATHS.ipo,
  // Each control is decided on its customer's page; the queue lists them.
  account: OPS_PATHS.queues,
};

/**
 * The Queues screen's data and decisions: the queues (polled), the highlighted item, and its one
 * decision — claim, release or take over an item — through `useAction` (which claim is busy, the
 * refusal); the keyboard (j / k move, Enter opens, c claims or releases) and the CSV.
 */
export function useQueues() {
  const me = useMe();
  const q = useOps('queues', {}, 10_000);
  const now = useNow(1000);
  const navigate = useNavigate();
  const action = useAction(q.reload);
  // The cursor is an item, not a row number: a list that reorders or loses an item under it keeps
  // it on the same item (or the one now in its place), so Enter opens what is highlighted.
  const [selected, setSelected] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const items = q.data?.items ?? [];
  const found = items.findIndex((i) => keyOf(i) === selected);
  const at = Math.max(found, 0);
  const moveTo = (n: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, n))];
    if (item) setSelected(keyOf(item));
  };

  const toggle = (item: QueueItem) => {
    const mine = item.claimedBy?.id === me.id;
    setSelected(keyOf(item));
    void action.run(`claim:${keyOf(item)}`, () =>
      call('claim', { type: item.type, id: item.id, staffId: mine ? null : me.id }),
    );
  };

  useKeys({
    j: () => moveTo(at + 1),
    k: () => moveTo(at - 1),
    enter: () => items[at] && navigate(pathOf(items[at])),
    c: () => items[at] && toggle(items[at]),
  });

  return {
    me,
    types: q.data?.types ?? [],
    items,
    loading: q.loading,
    now,
    /** The highlighted row. */
    at,
    select: (i: QueueItem) => setSelected(keyOf(i)),
    /** Whether this member is offered Claim, Release or Take over (another's item: an admin only). */
    claimable: (i: QueueItem) => !i.claimedBy || i.claimedBy.id === me.id || me.role === 'admin',
    mine: (i: QueueItem) => i.claimedBy?.id === me.id,
    toggle,
    /** Which item's claim is being sent. */
    claiming: (i: QueueItem) => action.busy === `claim:${keyOf(i)}`,
    error: q.error ?? action.error ?? exportError,
    exportCsv: async () => setExportError(await downloadCsv('queuesCsv', {}, 'queue')),
  };
}
