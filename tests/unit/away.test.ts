import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/contract/content';
import type { CallResult } from '#shared/contract/define';
import type { OrderRow } from '#shared/contract/trading';
import type { BillRow } from '#shared/contract/wallet';
import { awaySummary } from '../../workers/away';
import { createServerClock } from '../../workers/server-clock';

/**
 * "While you were away": what the sheet lists after an outage is what the server's own
 * lists say changed after the last good answer, and nothing that was already known or is not news.
 */
const SINCE = 1_000_000;
const UNTIL = SINCE + 120_000;
const before = SINCE - 5_000;
const during = SINCE + 30_000;

const order = (id: number, over: Partial<OrderRow>): OrderRow =>
  ({ id, mold: 'stock', status: 1, updated_at: during, ...over }) as OrderRow;
const bill = (id: number, reason: string, created_at = during): BillRow =>
  ({ id, type: 'income', amount: '10.00', balance: '10.00', reason, created_at }) as BillRow;
const message = (id: number, sender: ChatMessage['sender'], created_at = during): ChatMessage => ({
  id,
  sender,
  body: `m${id}`,
  client_id: null,
  read_at: null,
  created_at,
});

type Lists = {
  orderList?: CallResult<{ rows: OrderRow[] }>;
  ipoOrders?: CallResult<{ rows: OrderRow[] }>;
  bill?: CallResult<{ rows: BillRow[] }>;
  messageList?: CallResult<ChatMessage[]>;
};
const down = { ok: false, error: 'errors.network', status: 0 } as const;
function server(lists: Lists) {
  const asked: string[] = [];
  const fetch = async <T>(name: string): Promise<CallResult<T>> => {
    asked.push(name);
    const empty = { ok: true, data: name === 'messageList' ? [] : { rows: [] } };
    return ((lists as Record<string, unknown>)[name] ?? empty) as CallResult<T>;
  };
  return { fetch, asked };
}

describe('while you were away', () => {
  it('lists fills, expiries and allotments after the last good answer, newest first, not what was pending or known', async () => {
    const { fetch, asked } = server({
      orderList: {
        ok: true,
        data: {
          rows: [
            order(1, { status: 1, updated_at: during }),
            order(2, { status: 0, updated_at: during + 1 }),
            order(3, { status: 1, updated_at: before }),
            order(4, { status: 2, updated_at: during + 2 }),
          ],
        },
      },
      ipoOrders: {
        ok: true,
        data: {
          rows: [
            order(5, { mold: 'ipo', status: 2, updated_at: during + 3 }),
            order(6, { mold: 'ipo', status: 1, updated_at: during + 4 }),
          ],
        },
      },
    });
    const summary = await awaySummary(fetch as never, SINCE, UNTIL);
    expect(asked.sort()).toEqual(['bill', 'ipoOrders', 'messageList', 'orderList']);
    // 2 is still pending, 3 changed before the outage, 6 is an IPO application still pending.
    expect(summary?.orders.map((o) => o.id)).toEqual([5, 4, 1]);
    expect(summary).toMatchObject({ since: SINCE, until: UNTIL, bills: [], replies: [] });
  });

  it('keeps credits and debits no order explains, and the agent’s replies only', async () => {
    const { fetch } = server({
      bill: {
        ok: true,
        data: {
          rows: [
            bill(1, 'recharge'),
            bill(2, 'buyStock'),
            bill(3, 'transactionExpenses'),
            bill(4, 'withdraw', before),
            bill(5, 'borrow'),
          ],
        },
      },
      messageList: { ok: true, data: [message(1, 'user'), message(2, 'agent'), message(3, 'agent', before)] },
    });
    const summary = await awaySummary(fetch as never, SINCE, UNTIL);
    expect(summary?.orders).toEqual([]);
    expect(summary?.bills.map((b) => b.id)).toEqual([1, 5]);
    expect(summary?.replies.map((m) => m.id)).toEqual([2]);
  });

  it('says nothing when nothing changed, and reports what it could read when a list fails', async () => {
    expect(await awaySummary(server({}).fetch as never, SINCE, UNTIL)).toBeNull();
    const partial = server({
      orderList: down,
      ipoOrders: down,
      bill: { ok: true, data: { rows: [bill(7, 'recharge')] } },
      messageList: down,
    });
    const summary = await awaySummary(partial.fetch as never, SINCE, UNTIL);
    expect(summary?.bills.map((b) => b.id)).toEqual([7]);
    expect(summary?.orders).toEqual([]);
    const allDown = server({ orderList: down, ipoOrders: down, bill: down, messageList: down });
    expect(await awaySummary(allDown.fetch as never, SINCE, UNTIL)).toBeNull();
  });

  it('reads the device’s times on the server’s clock: a phone three days behind still sees what changed', async () => {
    const clock = createServerClock();
    const SKEW = 3 * 86_400_000; // three days
    // An answer sent at device time 900, back at 1,100, stamped by the server at 1,000 + 3 days.
    clock.observe(1_000 + SKEW, 900, 1_100);
    expect(clock.toServer(SINCE)).toBe(SINCE + SKEW);
    const { fetch } = server({
      orderList: {
        ok: true,
        data: {
          rows: [
            order(1, { status: 1, updated_at: during + SKEW }),
            order(2, { status: 1, updated_at: before + SKEW }),
          ],
        },
      },
      messageList: {
        ok: true,
        data: [message(7, 'agent', during + SKEW), message(8, 'agent', before + SKEW)],
      },
    });
    const summary = await awaySummary(fetch as never, SINCE, UNTIL, clock.toServer);
    expect(summary?.orders.map((o) => o.id)).toEqual([1]);
    expect(summary?.replies.map((m) => m.id)).toEqual([7]);
    // The sheet tells the time on the device's clock.
    expect(summary?.since).toBe(SINCE);
    // Without the offset, what changed before the outage would be news too.
    const unskewed = await awaySummary(fetch as never, SINCE, UNTIL);
    expect(unskewed?.orders.map((o) => o.id)).toEqual([1, 2]);
  });

  it('ignores an answer that cannot be timed', () => {
    const clock = createServerClock();
    clock.observe(Number('not a time'), 0, 10);
    clock.observe(5_000, 20, 10);
    expect(clock.toServer(123)).toBe(123);
  });
});
