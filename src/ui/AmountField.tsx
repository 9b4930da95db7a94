import { TextField, type TextFieldProps } from './TextField';

/**
 * A whole-currency amount (recharge, withdrawal, loan): the digit keypad, no autofill, the
 * currency symbol in front. The caller validates with the rules of its flow.
 */
export function AmountField({
  symbol,
  ...props
}: Omit<TextFieldProps, 'type' | 'start' | 'inputMode' | 'pattern' | 'autoComplete'> & { symbol: string }) {
  return <TextField {...props} inputMode="numeric" pattern="[0-9]*" autoComplete="off" start={symbol} />;
}
