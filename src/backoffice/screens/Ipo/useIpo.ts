import { useState } from 'react';
import { call } from '../../api';
import { useAction, useOps, useSecondApproval } from '../../hooks';
import { useMe } from '../../session';

/**
 * IPO allotment's data and its two decisions: propose the previewed table (one member), run the
 * proposal (another: never the proposer, and only while it is intact), through one `useAction`.
 */
export function useIpo() {
  const me = useMe();
  const list = useOps('ipos', {}, 15_000);
  const [picked, setPicked] = useState<number | null>(null);
  const [ratio, setRatio] = useState('1');
  const preview = useOps('ipoPreview', picked ? { id: picked, ratio } : null);
  const action = useAction(() => {
    preview.reload();
    list.reload();
  });
  const secondApproval = useSecondApproval();
  const p = preview.data;
  const proposal = p?.proposal ?? null;

  function propose() {
    if (!picked) return;
    void action.run(
      'propose',
      () => call('ipoPropose', { id: picked, ratio }),
      'Proposed. A second member runs it.',
    );
  }
  function run() {
    if (!picked || !proposal) return;
    void action.run(
      'run',
      () => call('ipoRun', { id: picked, proposal: proposal.id }),
      (d) => `Allotted: ${d.allotted} applications, ${d.refunded} refunded in full.`,
    );
  }

  return {
    rows: (list.data ?? []).filter((i) => i.pendingApplications > 0 || i.proposal),
    loading: list.loading,
    picked,
    pick: setPicked,
    ratio,
    setRatio,
    preview: p,
    previewError: preview.error,
    canPropose: me.caps.includes('pay'),
    /** Who may run the proposal: a second member, never the proposer, while it is intact. */
    running: secondApproval(
      proposal && { status: 'awaiting', maker: proposal.proposedBy, intact: proposal.intact },
    ),
    busy: action.busy,
    error: list.error ?? action.error,
    note: action.note,
    propose,
    run,
  };
}
