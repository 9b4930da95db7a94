import type { FormEvent, ReactNode } from 'react';
import { Button, Dialog, Field, css as s } from './ui';

/**
 * The dialog before a decision on a money item (a payout, a deposit, a loan), one for every page
 * so they cannot drift apart: the amount said again in large figures, what the page shows of the
 * item, the written reason where one is taken, and Cancel beside the decision. A confirmation is
 * the decision with no reason; a rejection takes one, and its button stays disabled until it may be
 * sent (`ready`). The decision is a form's submit, so Enter in a field sends it as the button does.
 */
export function DecisionDialog({
  open,
  title,
  onClose,
  amount,
  children,
  reason,
  decide,
  onDecide,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The amount written out (`rupees`), shown first and large. */
  amount?: string;
  children?: ReactNode;
  /** The written reason, when the decision takes one. */
  reason?: { id: string; label: string; value: string; onChange: (text: string) => void };
  decide: { label: string; tone: 'primary' | 'approve' | 'danger'; ready?: boolean };
  onDecide: () => void;
}) {
  function submit(e: FormEvent) {
    e.preventDefault();
    if (decide.ready !== false) onDecide();
  }
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form className={s.stack} onSubmit={submit}>
        {amount !== undefined && (
          <p className={s.confirmAmount} data-testid="confirm-amount">
            {amount}
          </p>
        )}
        {children}
        {reason && (
          <Field id={reason.id} label={reason.label}>
            <textarea
              id={reason.id}
              className={s.textarea}
              value={reason.value}
              maxLength={500}
              onChange={(e) => reason.onChange(e.target.value)}
            />
          </Field>
        )}
        <div className={s.dialogActions}>
          <Button tone="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button tone={decide.tone} type="submit" disabled={decide.ready === false}>
            {decide.label}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
