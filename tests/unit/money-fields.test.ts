import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '#shared/format';
import { fromMinor, toMinor } from '#shared/money';
import { moneyOf, moneyPaths } from '../support/money-fields';

/**
 * Money is shown by one formatter and never with four decimals. Every money field
 * of every answer — read from the contract's types (support/money-fields.ts: a field declared
 * `Money`) — is walked through `formatMoney`: an answer built with an amount at every such path
 * shows each as the account currency with two decimals, exactly the amount sent. The server suites
 * walk the same paths over real answers (tests/server/orders-amo.test.ts).
 */

const CURRENCIES = [
  { unit: 'INR', symbol: '₹' },
  { unit: 'USD', symbol: '$' },
  { unit: 'MXN', symbol: '$' },
];

/** An answer of the contract's shape with `amount` at each of `paths` (one item per array). */
function answerWith(paths: string[], amount: (path: string) => string): unknown {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    let at: Record<string, unknown> | unknown[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const next = keys[i + 1];
      const make = () => (next === '[]' ? [] : {});
      if (Array.isArray(at)) {
        if (at.length === 0) at.push(last ? amount(path) : make());
        at = at[0] as Record<string, unknown>;
      } else if (last) at[key] = amount(path);
      else {
        at[key] ??= make();
        at = at[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** What a shown amount says, back in minor units: its digits, its sign. */
const shownMinor = (text: string) => (text.startsWith('-') ? -1 : 1) * Number(text.replace(/\D/g, ''));

describe('every money field of every answer, through the one formatter', () => {
  const paths = moneyPaths();

  it('finds the money of the answers the app shows', () => {
    expect(paths.get('orderQuote')).toEqual(
      expect.arrayContaining([
        'value',
        'net',
        'protection',
        'required',
        'available',
        'blocked',
        'charges.total',
      ]),
    );
    expect(paths.get('orderList')).toEqual(expect.arrayContaining(['rows.[].price_all', 'rows.[].fee']));
    expect(paths.get('portfolioSummary')).toEqual(
      expect.arrayContaining(['hero.total', 'hero.reserved.orders']),
    );
    expect(paths.get('userInfo')).toEqual(expect.arrayContaining(['total', 'money']));
    expect(paths.get('orderContract')).toEqual(expect.arrayContaining(['net', 'order.price_all']));
    // Prices are per-unit numbers, never Money: an order's limit is not among its money.
    expect(paths.get('orderList')).not.toContain('rows.[].limit_price');
    expect([...paths.values()].flat().length).toBeGreaterThan(150);
  });

  it('shows each as its amount with two decimals, in every currency the config may name', () => {
    const amounts = fc.integer({ min: -99_999_999_999_999, max: 99_999_999_999_999 });
    for (const [name, list] of paths) {
      fc.assert(
        fc.property(fc.array(amounts, { minLength: list.length, maxLength: list.length }), (minors) => {
          const sent = new Map(list.map((path, i) => [path, minors[i]!]));
          const answer = answerWith(list, (path) => fromMinor(sent.get(path)!));
          const found = moneyOf(name, answer);
          expect(found.map((f) => f.path).sort()).toEqual([...list].sort());
          for (const { path, value } of found) {
            for (const currency of CURRENCIES) {
              const shown = formatMoney(value as string, currency);
              const sign = sent.get(path)! < 0 ? '-' : '';
              expect(shown, `${name} ${path}`).toMatch(
                new RegExp(`^${sign}\\${currency.symbol}\\d{1,3}(,\\d{2,3})*\\.\\d{2}$`),
              );
              expect(shownMinor(shown)).toBe(sent.get(path));
            }
          }
        }),
        { numRuns: 20 },
      );
    }
  });

  it('never shows an amount of more than two decimals as money', () => {
    // "₹1,969.0960": an amount that is not Money shows as a dash, never as four decimals.
    for (const text of ['1969.0960', '1969.096', '1e3', '', '12,345.00', '1969.1']) {
      const shown = formatMoney(text);
      expect(shown === '—' || /\.\d{2}$/.test(shown), text).toBe(true);
      if (toMinor(text) === null) expect(shown).toBe('—');
    }
    expect(formatMoney('1969.1')).toBe('₹1,969.10');
  });
});
