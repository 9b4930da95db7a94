import { displayCode, PAGE_SIZE } from '#shared/rules';
import type { Instrument } from './provider';

/** The market lists' search and paging: what a typed search finds, best matches first. */

/** Search text compared without case, spaces or punctuation ("usd/inr" finds USDINR=X). */
function normalise(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Instruments matching a trimmed, case-insensitive search by code or name; best matches first. */
export function search<T extends Instrument>(list: readonly T[], text: string | undefined): T[] {
  const term = normalise(text?.trim() ?? '');
  if (!term) return [...list];
  const scored: Array<[number, T]> = [];
  for (const ins of list) {
    const code = normalise(displayCode(ins.symbol));
    const symbol = normalise(ins.symbol);
    const name = normalise(ins.name);
    const score =
      code === term || symbol === term
        ? 0
        : code.startsWith(term) || symbol.startsWith(term)
          ? 1
          : code.includes(term) || symbol.includes(term)
            ? 2
            : name.includes(term)
              ? 3
              : -1;
    if (score >= 0) scored.push([score, ins]);
  }
  // Array.prototype.sort is stable: equal scores keep the catalogue's order.
  return scored.sort((a, b) => a[0] - b[0]).map(([, ins]) => ins);
}

/** Page `pageNo` (from 1) of `limit` rows. */
export function page<T>(rows: readonly T[], pageNo = 1, limit = PAGE_SIZE): T[] {
  return rows.slice((pageNo - 1) * limit, pageNo * limit);
}
