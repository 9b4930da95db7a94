import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { SwipeRow } from '../../src/screens/_parts/watchlist/SwipeRow';
import { useLists } from '../../src/screens/_parts/watchlist/useLists';
import { ListsSheet } from '../../src/screens/Watchlists/ListsSheet';
import type { Watchlist } from '../../src/shared/contract/watchlist';
import { useUi } from '../../src/store/ui';
import type { ListOutbox } from '../../workers/lists-outbox';
import { fake } from '../support/fake-worker';

let serverLists: Watchlist[] = [];
const reloadLists = vi.fn();
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => watchResult({ rows: serverLists }, { reload: reloadLists }) };
});
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/**
 * Watchlist rows: a touch held 550 ms on a row opens its actions (Buy, Sell, Chart,
 * Alert, Remove as a sheet, `onMenu`); a finger that moves first is a scroll or a swipe, not a long
 * press; and the lift that ends a long press does not also open the row's link.
 */
const onMenu = vi.fn();
const onOpen = vi.fn();

function row() {
  return render(
    <ul>
      <SwipeRow
        symbol="TCS.NS"
        actionsWidth={240}
        onMenu={onMenu}
        actions={<button type="button">Buy</button>}
      >
        <a
          href="/stock/TCS.NS"
          onClick={(e) => {
            e.preventDefault();
            onOpen();
          }}
        >
          Tata Consultancy
        </a>
      </SwipeRow>
    </ul>,
  );
}

const touch = { pointerId: 1, pointerType: 'touch', button: 0, isPrimary: true };
const at = (x: number, y: number) => ({ ...touch, clientX: x, clientY: y });

beforeEach(() => {
  vi.useFakeTimers();
  onMenu.mockClear();
  onOpen.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('SwipeRow long press', () => {
  it('opens the row actions after a 550 ms hold, and the lift is not a tap on the row', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(549));
    expect(onMenu).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onMenu).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(link, at(100, 20));
    fireEvent.click(link);
    expect(onOpen).not.toHaveBeenCalled();
    // The next tap is a tap again.
    fireEvent.click(link);
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it('a finger that moves during the hold (a scroll or a swipe) cancels it', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.pointerMove(link, at(100, 40));
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
    fireEvent.pointerUp(link, at(100, 40));
    // Sideways too.
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.pointerMove(link, at(70, 21));
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
  });

  it('a tremor within 10 px still holds; lifting early is a plain tap', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    fireEvent.pointerMove(link, at(104, 23));
    act(() => vi.advanceTimersByTime(550));
    expect(onMenu).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(link, at(104, 23));
    fireEvent.click(link);
    onMenu.mockClear();
    // Down and up within the hold: no actions, the row opens.
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(200));
    fireEvent.pointerUp(link, at(100, 20));
    fireEvent.click(link);
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});

/** The manage sheet over the lists hook, as the Watchlists screen uses it. */
function Manage() {
  const lists = useLists();
  return <ListsSheet open onClose={() => {}} lists={lists} />;
}
const list = (id: number, name: string | null, position: number): Watchlist => ({
  id,
  name,
  is_default: name === null,
  count: 0,
  position,
});
const outbox = (lists: ListOutbox['lists']): ListOutbox => ({ items: [], lists, made: {} });

describe('list changes through the outbox', () => {
  beforeAll(async () => {
    await initI18n('all');
  });
  beforeEach(() => {
    vi.useRealTimers();
    fake.reset();
    reloadLists.mockClear();
    useUi.setState({ toasts: [] });
    serverLists = [list(1, null, 0), list(2, 'Tech', 1), list(3, 'Banks', 2)];
  });

  it('shows waiting changes as pending at once, and reads the server again once they are sent', async () => {
    render(<Manage />);
    const dialog = await screen.findByRole('dialog', { name: 'Manage lists' });
    expect(within(dialog).queryByText('Pending sync')).toBeNull();
    act(() =>
      fake.emit(
        'lists',
        outbox([
          { op: 'create', list: -4, name: 'Pharma' },
          { op: 'rename', list: 2, name: 'Chips', was: 'Tech' },
          { op: 'reorder', ids: [-4, 2, 1, 3] },
          { op: 'delete', list: 3, was: 'Banks' },
        ]),
      ),
    );
    const rows = within(dialog).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^Pharma0 instrumentsPending sync/),
      expect.stringMatching(/^Chips0 instrumentsPending sync/),
      expect.stringMatching(/^Favourites0 instruments$/),
      'BanksDeleted: pending sync',
    ]);
    expect(within(dialog).getByText('New order: pending sync')).toBeTruthy();
    // The list waiting to be deleted has no actions, and the order moves only the others.
    expect(within(dialog).queryByRole('button', { name: 'Delete Banks' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Move Favourites down' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(reloadLists).not.toHaveBeenCalled();

    // Sent (or refused): the outbox empties and the server's lists are read again.
    act(() => fake.emit('lists', outbox([])));
    expect(reloadLists).toHaveBeenCalledTimes(1);
    expect(within(dialog).queryByText('Pending sync')).toBeNull();
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((r) => r.textContent),
    ).toEqual([
      expect.stringMatching(/^Favourites/),
      expect.stringMatching(/^Tech/),
      expect.stringMatching(/^Banks/),
    ]);
  });

  it('a rename and a new order go to the worker; queued offline, the user is told they wait', async () => {
    const renames: unknown[] = [];
    const orders: unknown[] = [];
    fake.worker.renameList = (async (...args: unknown[]) => {
      renames.push(args);
      return { outcome: 'offline', id: 2 };
    }) as never;
    fake.worker.reorderLists = (async (ids: number[]) => {
      orders.push(ids);
      return { outcome: 'offline' };
    }) as never;
    render(<Manage />);
    const dialog = await screen.findByRole('dialog', { name: 'Manage lists' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Banks up' }));
    await waitFor(() => expect(orders).toEqual([[1, 3, 2]]));
    await waitFor(() => expect(useUi.getState().toasts.map((t) => t.text)).toEqual(['watch.queued']));
    const first = useUi.getState().toasts[0]!.id;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename Tech' }));
    const naming = await screen.findByRole('dialog', { name: 'Rename watchlist' });
    fireEvent.change(within(naming).getByLabelText('List name'), { target: { value: 'Chips' } });
    fireEvent.click(within(naming).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(renames).toEqual([[2, 'Chips', 'Tech']]));
    // Told again for the rename: the same words replace the toast on screen rather than stack.
    await waitFor(() => {
      const toasts = useUi.getState().toasts;
      expect(toasts.map((t) => t.text)).toEqual(['watch.queued']);
      expect(toasts[0]!.id).not.toBe(first);
    });
  });

  it('checks names and the 10-list limit on the device before anything is queued', async () => {
    const creates: unknown[] = [];
    fake.worker.createList = (async (name: string) => {
      creates.push(name);
      return { outcome: 'offline', id: -9 };
    }) as never;
    render(<Manage />);
    const dialog = await screen.findByRole('dialog', { name: 'Manage lists' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'New list' }));
    const naming = await screen.findByRole('dialog', { name: 'New watchlist' });
    fireEvent.change(within(naming).getByLabelText('List name'), { target: { value: '  tech ' } });
    fireEvent.click(within(naming).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(useUi.getState().toasts.map((t) => t.text)).toEqual(['errors.watchlistNameTaken']),
    );
    expect(creates).toEqual([]);
    cleanup();

    // Ten lists, counting one made offline: a new one is refused here, not queued.
    serverLists = Array.from({ length: 9 }, (_, i) => list(i + 1, i === 0 ? null : `L${i}`, i));
    render(<Manage />);
    act(() => fake.emit('lists', outbox([{ op: 'create', list: -3, name: 'Offline' }])));
    const full = await screen.findByRole('dialog', { name: 'Manage lists' });
    expect(within(full).getByRole('button', { name: 'New list' })).toHaveProperty('disabled', true);
  });
});
