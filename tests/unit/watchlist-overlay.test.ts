import { describe, expect, it } from 'vitest';
import type { Watchlist } from '#shared/contract/watchlist';
import { overlayLists } from '../../src/screens/_parts/watchlist/useLists';

const server: Watchlist[] = [
  { id: 1, name: null, is_default: true, count: 2, position: 0 },
  { id: 2, name: 'Tech', is_default: false, count: 1, position: 1 },
  { id: 3, name: 'Banks', is_default: false, count: 0, position: 2 },
];

describe('the lists as shown with the outbox applied', () => {
  it('shows no change as none pending', () => {
    const view = overlayLists(server, []);
    expect(view.orderPending).toBe(false);
    expect(view.rows.map((r) => r.pending)).toEqual([null, null, null]);
  });

  it('applies a new list, a rename, a new order and a deletion in order, each marked', () => {
    const view = overlayLists(
      server,
      [
        { op: 'create', list: -7, name: 'Pharma' },
        { op: 'rename', list: 2, name: 'Chips', was: 'Tech' },
        { op: 'reorder', ids: [-7, 2, 1, 3] },
        { op: 'delete', list: 3, was: 'Banks' },
      ],
      [
        { list: -7, symbol: 'SUNPHARMA.NS', op: 'add' },
        { list: -7, symbol: 'CIPLA.NS', op: 'add' },
        { list: -7, symbol: 'CIPLA.NS', op: 'remove' },
      ],
    );
    expect(view.orderPending).toBe(true);
    expect(view.rows.map((r) => [r.id, r.name, r.pending, r.count, r.position])).toEqual([
      [-7, 'Pharma', 'create', 1, 0],
      [2, 'Chips', 'rename', 1, 1],
      [1, null, null, 2, 2],
      [3, 'Banks', 'delete', 0, 3],
    ]);
  });

  it('keeps a list the server has but the queued order does not name at the end', () => {
    const view = overlayLists(
      [...server, { id: 9, name: 'Elsewhere', is_default: false, count: 0, position: 3 }],
      [{ op: 'reorder', ids: [3, 2, 1] }],
    );
    expect(view.rows.map((r) => r.id)).toEqual([3, 2, 1, 9]);
  });
});
