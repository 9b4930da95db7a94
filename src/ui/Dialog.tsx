import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUi } from '../store/ui';
import { Button } from './Button';
import { MoneyButton, type MoneyCallState } from './MoneyButton';
import s from './ui.module.css';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** A bottom sheet (actions within thumb reach) instead of a centred dialog. */
  sheet?: boolean;
  /** The caller's look beside the kit's (the order ticket's sheet coloured by its side). */
  className?: string;
}

/**
 * A modal on the native <dialog>: focus moves in and is trapped, Escape closes, focus returns to
 * the opener. While any dialog is open the bottom navigation hides (SPEC §2).
 *
 * The focus is returned here, not left to the browser: a closed dialog is taken out of the page
 * (`open` false renders nothing) before the effect's cleanup could close it, and the browser only
 * restores focus for a dialog closed while still in the page. When the opener is gone too (a
 * deleted row's button), the screen's heading takes the focus rather than the page's top.
 */
export function Dialog({ open, onClose, title, children, sheet, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownTitle = useRef<string | null>(null);
  const titleId = useId();
  const { openDialog, closeDialog } = useUi();

  useEffect(() => {
    const el = ref.current;
    if (!el || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal();
    openDialog();
    return () => {
      closeDialog();
      if (el.open) el.close();
      returnFocus(opener);
    };
  }, [open, openDialog, closeDialog]);

  // The same dialog turning into its outcome (a review becoming "Order filled"): its new title takes
  // the focus, so a screen reader says what happened and the keyboard starts from there.
  useEffect(() => {
    if (!open) {
      shownTitle.current = null;
      return;
    }
    const text = heading.current?.textContent ?? '';
    if (shownTitle.current !== null && shownTitle.current !== text) heading.current?.focus();
    shownTitle.current = text;
  });

  if (!open) return null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a tap on the backdrop closes; Escape (onCancel) is the keyboard path
    <dialog
      ref={ref}
      className={`${s.dialog} ${sheet ? s.sheet : ''} ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      <div className={s.dialogBody}>
        <h2 ref={heading} id={titleId} className={s.dialogTitle} tabIndex={-1}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

function returnFocus(opener: HTMLElement | null): void {
  // Another dialog still open (this one was stacked on it) keeps the focus inside it.
  const within = document.querySelector('dialog[open]');
  if (opener?.isConnected && opener !== document.body && (!within || within.contains(opener))) {
    opener.focus();
    return;
  }
  if (within) return;
  document.querySelector<HTMLElement>('main h1')?.focus();
}

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  message?: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  /** The confirmation moves money: a MoneyButton (paused while unreachable), showing this call's state. */
  money?: MoneyCallState;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger,
  busy,
  money,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const Confirm = money ? MoneyButton : Button;
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onCancel} title={title}>
      {message && <div>{message}</div>}
      <div className={s.dialogActions}>
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Confirm
          variant={danger ? 'danger' : 'primary'}
          onClick={onConfirm}
          loading={busy}
          {...(money ? { call: money } : {})}
        >
          {confirmLabel ?? t('common.confirm')}
        </Confirm>
      </div>
    </Dialog>
  );
}
