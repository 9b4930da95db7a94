import { useState } from 'react';
import { digitsOnly } from '../../../shared/rules';

/**
 * The quantity a QuantityStepper edits (IPO application, block/QIP buy): the digits the field
 * shows and the quantity they mean. − and + move `lot` from that quantity, to where `land` puts
 * them; `settle` writes the quantity back into the field (the IPO does on leaving it, the
 * block dialog does not: a quantity below its minimum stays, with a hint). The rules are the
 * caller's; this is the state they share.
 */
export function useQuantityStepper({
  initial,
  lot,
  read,
  land,
  cap,
}: {
  initial: number;
  lot: number;
  /** The quantity the field means (null: it is empty). */
  read: (typed: number | null) => number;
  /** Where a step lands. */
  land: (quantity: number) => number;
  /** Applied as digits are typed (the block dialog: not above what the balance pays for); without it they stay as typed. */
  cap?: (typed: number) => number;
}) {
  const [text, setText] = useState(String(initial));
  const quantity = read(text === '' ? null : Number(text));
  const set = (n: number) => setText(String(n));
  return {
    text,
    quantity,
    change: (value: string) => {
      const digits = digitsOnly(value);
      setText(cap && digits !== '' ? String(cap(Number(digits))) : digits);
    },
    set,
    settle: () => set(quantity),
    decrease: () => set(land(quantity - lot)),
    increase: () => set(land(quantity + lot)),
  };
}
