import { describe, expect, it } from 'vitest';
import { linesMatching } from '../support/source';

/**
 * Statuses and states are compared by name (src/shared/status.ts), never with a bare 1 or 4: a
 * reader sees what is meant, and a vocabulary change is one edit. HTTP codes (three digits) and the
 * migrations, which write history, are not this rule's business.
 */
const BARE =
  /\.(status|state)\s*[!=]==?\s*\d(?!\d)|'(status|state)',\s*'[!=<>]+',\s*\d(?!\d)|\b\w\.(status|state)\s*=\s*\d(?!\d)/;

describe('status vocabulary', () => {
  it('no module compares a status or a state with a bare number', () => {
    const offending = linesMatching(
      BARE,
      (f) => f === 'src/shared/status.ts' || f.startsWith('server/db/migrations/'),
    );
    expect(offending).toEqual([]);
  });

  it('the check can fail', () => {
    expect(BARE.test('order.status === 1')).toBe(true);
    expect(BARE.test(".where('status', '=', 1)")).toBe(true);
    expect(BARE.test('where l.user_id = u.id and l.state = 4')).toBe(true);
    expect(BARE.test('err.status !== 401')).toBe(false);
    expect(BARE.test('order.status === STOCK_STATUS.pending')).toBe(false);
  });
});
