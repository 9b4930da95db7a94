import { useState } from 'react';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { isTransportFailure } from '../../shared/call';
import type { BankCard } from '../../shared/contract/settings';
import { checkBankCardNumber, checkBranchCode, compactCode } from '../../shared/rules';
import { withStepUp } from '../../shell/stepUp';
import { isTradePasswordError } from '../../shell/TradePasswordPrompt';

export interface CardForm {
  bank: string;
  branch_bank: string;
  bank_card: string;
  bank_user: string;
  ifsc: string;
}
export type CardErrors = Partial<Record<keyof CardForm, string>>;

export const EMPTY_CARD: CardForm = { bank: '', branch_bank: '', bank_card: '', bank_user: '', ifsc: '' };

/** Every field is required (SPEC §5); the number and branch code also have a shape (shared rules). */
export function checkCardForm(f: CardForm, currencyUnit: string): CardErrors {
  const errors: CardErrors = {};
  for (const k of Object.keys(EMPTY_CARD) as Array<keyof CardForm>)
    if (f[k].trim() === '') errors[k] = 'bankCards.required';
  if (!errors.bank_card) errors.bank_card = checkBankCardNumber(f.bank_card) ?? undefined;
  if (!errors.ifsc) errors.ifsc = checkBranchCode(f.ifsc, currencyUnit) ?? undefined;
  for (const k of Object.keys(errors) as Array<keyof CardForm>) if (!errors[k]) delete errors[k];
  return errors;
}

/** Bank cards (SPEC §2): the list and one add or edit form at a time. */
export function useBankCards() {
  const list = useWatch('bankList', {}, 0);
  return list;
}

export function useCardForm(editing: BankCard | null, onDone: (card: BankCard) => void) {
  const { currency } = useConfig();
  const [form, setForm] = useState<CardForm>(
    editing
      ? {
          bank: editing.bank,
          branch_bank: editing.branch_bank,
          // The list only has the masked number: an edit asks for the whole number again.
          bank_card: '',
          bank_user: editing.bank_user,
          ifsc: editing.ifsc,
        }
      : EMPTY_CARD,
  );
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The transaction password prompt is open for the form as it was submitted. */
  const [asking, setAsking] = useState(false);
  const info = useWatch('userInfo', {}, 0);
  const errors = checkCardForm(form, currency.unit);

  /** A valid form asks for the transaction password (a card decides where payouts go). */
  function submit(): void {
    setSubmitted(true);
    if (Object.keys(errors).length) return;
    setAsking(true);
  }

  /** Sends the card with the code; answers a code error for the prompt, else null. */
  async function confirm(code: string): Promise<string | null> {
    setBusy(true);
    const fields = {
      bank: form.bank.trim(),
      branch_bank: form.branch_bank.trim(),
      bank_card: compactCode(form.bank_card),
      bank_user: form.bank_user.trim(),
      ifsc: compactCode(form.ifsc),
      stock_password: code,
    };
    const result = editing
      ? await withStepUp(() => call('bankEdit', { id: editing.id, ...fields }))
      : await withStepUp(() => call('bankAdd', fields));
    setBusy(false);
    if (!result.ok && isTradePasswordError(result.error)) return result.error;
    setAsking(false);
    if (!result.ok) {
      const fallback = editing ? 'bankCards.updateFailed' : 'bankCards.addFailed';
      setServerError(isTransportFailure(result.error) ? fallback : result.error);
      return null;
    }
    info.reload();
    onDone(result.data);
    return null;
  }

  return {
    form,
    set: (k: keyof CardForm, v: string) => {
      setForm((f) => ({ ...f, [k]: v }));
      setServerError(null);
    },
    error: (k: keyof CardForm) => (submitted ? (errors[k] ?? null) : null),
    serverError,
    busy,
    submit,
    asking,
    confirm,
    cancelAsking: () => setAsking(false),
    /** undefined until user info has loaded. */
    hasTradePassword: info.data?.has_fund_password,
    branchIsIfsc: currency.unit === 'INR',
  };
}
