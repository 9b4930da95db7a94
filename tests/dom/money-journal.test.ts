import { describe, expect, it } from 'vitest';
import type { CallResult } from '#shared/contract/index';
import { createDevice } from '../../workers/device';
import { createMoneyJournal, type MoneyView } from '../../workers/money';
import { freshDevice, freshDeviceName } from '../support/device';

/**
 * The money journal (workers/money.ts): what its sender and the rest of the app are told. A reply
 * its sender awaited is the sender's; only an outcome learnt later (reconcile) is marked `late`,
 * the one the shell announces when no screen is waiting (src/shell/AwaySheet.tsx).
 */
function journal(send: () => Promise<CallResult<unknown>>, found: boolean) {
  const views: MoneyView[] = [];
  const j = createMoneyJournal({
    device: freshDevice('money'),
    send,
    lookup: async () =>
      ({
        ok: true,
        data: found ? { found: true, status: 200, answer: { msg: 'ok', data: { id: 7 } } } : { found: false },
      }) as never,
    emit: (v) => views.push(v),
  });
  return { j, views };
}

describe('money journal', () => {
  it('writes the key to the device before the request leaves, without the password', async () => {
    const name = freshDeviceName('money');
    let seen: unknown;
    const j = createMoneyJournal({
      device: createDevice(name),
      send: async () => {
        // Another visit (a reload) opening the same device store while the request is on its way.
        seen = await createDevice(name).read((db) => db.moneyCalls.get('key-first-1'), undefined);
        return { ok: true, data: { id: 1 } };
      },
      lookup: async () => ({ ok: true, data: { found: false } }) as never,
      emit: () => {},
    });
    await j.send('withdraw', { bank_id: 3, count: 100, stock_password: '123456' }, 'key-first-1');
    expect(seen).toMatchObject({
      key: 'key-first-1',
      name: 'withdraw',
      state: 'sending',
      input: { count: 100 },
    });
    expect(JSON.stringify(seen)).not.toContain('123456');
  });

  it('answers its sender directly and marks nothing late', async () => {
    const { j, views } = journal(async () => ({ ok: true, data: { id: 1 } }), true);
    const result = await j.send('withdraw', { count: 100, stock_password: '123456' }, 'key-direct-1');
    expect(result).toEqual({ ok: true, data: { id: 1 } });
    expect(views.map((v) => v.state)).toEqual(['sending', 'confirmed']);
    expect(views.some((v) => v.late)).toBe(false);
    expect(await j.open()).toEqual([]);
  });

  it('a refusal is the sender’s too, not late news', async () => {
    const { j, views } = journal(
      async () => ({ ok: false, error: 'errors.insufficientFunds', status: 400 }),
      true,
    );
    const result = await j.send('withdraw', { count: 100 }, 'key-refused-1');
    expect(result).toMatchObject({ ok: false, error: 'errors.insufficientFunds' });
    expect(views.at(-1)).toMatchObject({ state: 'rejected', result: { ok: false } });
    expect(views.at(-1)?.late).toBeUndefined();
  });

  it('a lost answer is unconfirmed, and the outcome found later is marked late', async () => {
    const { j, views } = journal(async () => ({ ok: false, error: 'errors.timeout', status: 0 }), true);
    const result = await j.send('withdraw', { count: 100, stock_password: '123456' }, 'key-lost-1');
    expect(result).toMatchObject({ ok: false, error: 'core.money.unconfirmed' });
    expect(j.hasUnconfirmed()).toBe(true);
    const [open] = await j.open();
    expect(open).toMatchObject({ key: 'key-lost-1', state: 'unconfirmed' });
    await j.reconcile();
    expect(views.at(-1)).toMatchObject({
      state: 'confirmed',
      late: true,
      result: { ok: true, data: { id: 7 } },
    });
    expect(j.hasUnconfirmed()).toBe(false);
  });

  it('a call the server never received is missing, not settled', async () => {
    const { j, views } = journal(async () => ({ ok: false, error: 'errors.network', status: 0 }), false);
    await j.send('recharge', { count: 100 }, 'key-missing-1');
    await j.reconcile();
    expect(views.at(-1)).toMatchObject({ state: 'missing' });
    expect(views.at(-1)?.result).toBeUndefined();
  });
});
