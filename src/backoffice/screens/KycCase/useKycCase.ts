import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { KycRejectionReason } from '../../../shared/backoffice';
import { KYC_STATUS } from '../../../shared/status';
import { call } from '../../api';
import { useAction, useOps } from '../../hooks';
import { useMe } from '../../session';

/**
 * One real-name case and its decisions — approve, reject with a reason (or ask for new photos),
 * claim or release it — through one `useAction` (which one is busy, the refusal, the outcome).
 */
export function useKycCase() {
  const userId = Number(useParams().userId);
  const me = useMe();
  const kase = useOps('kycCase', { userId });
  const action = useAction(kase.reload);
  const [reason, setReason] = useState<KycRejectionReason>('photos');
  const [text, setText] = useState('');
  const c = kase.data;

  const approve = () =>
    void action.run(
      'approve',
      () => call('kycApprove', { userId }),
      'Approved. The customer sees the approved stamp.',
    );

  function reject(e: FormEvent) {
    e.preventDefault();
    void action.run(
      'reject',
      () => call('kycReject', { userId, reason, text: text.trim() || undefined }),
      reason === 'photos'
        ? 'New photos asked for. The customer can send them now.'
        : 'Rejected. The customer reads the reason and can send the form again.',
    );
  }

  const mine = c?.claimedBy?.id === me.id;
  const claim = () =>
    void action.run('claim', () =>
      call('claim', { type: 'kyc', id: String(userId), staffId: mine ? null : me.id }),
    );

  return {
    userId,
    c,
    /** Under review: the decisions are open. */
    open: c?.status === KYC_STATUS.underReview,
    /** This member holds the case (the claim button releases it). */
    mine,
    busy: action.busy,
    error: kase.error ?? action.error,
    note: action.note,
    approve,
    reject,
    claim,
    reason,
    setReason,
    text,
    setText,
    /** "Other" needs the officer's words. */
    ready: !(reason === 'other' && !text.trim()),
  };
}
