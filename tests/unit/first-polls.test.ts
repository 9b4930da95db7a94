import { describe, expect, it } from 'vitest';
import { contract, type EndpointName } from '#shared/contract/index';
import { firstPollOf } from '../../workers/api/network';

/**
 * What the sync worker accepts as a poll to start before its screen (`prefetch`): it comes from the
 * page's storage, so anything that is not a read the contract knows is refused.
 */
describe('first screen polls (the worker side)', () => {
  const poll = (over: Record<string, unknown> = {}) => ({
    name: 'userInfo',
    input: {},
    intervalMs: 3000,
    ...over,
  });

  it('takes a signed-in read with an object input', () => {
    expect(firstPollOf(poll(), true)).toEqual({ name: 'userInfo', input: {} });
    expect(firstPollOf(poll({ name: 'portfolioHistory', input: { range: '1M' } }), true)).toEqual({
      name: 'portfolioHistory',
      input: { range: '1M' },
    });
  });

  it('refuses a signed-in read without a session: its 401 would end the next one', () => {
    expect(contract.userInfo.auth).toBe(true);
    expect(firstPollOf(poll(), false)).toBeNull();
    const open = (Object.keys(contract) as EndpointName[]).find(
      (n) => contract[n].method === 'GET' && !contract[n].auth,
    )!;
    expect(firstPollOf(poll({ name: open }), false)).not.toBeNull();
  });

  it('never starts a write, a money call or an upload', () => {
    const names = Object.keys(contract) as EndpointName[];
    const writes = names.filter(
      (n) => contract[n].method !== 'GET' || contract[n].money || contract[n].upload,
    );
    expect(writes).toContain('login');
    expect(writes).toContain('withdraw');
    for (const name of writes) expect(firstPollOf(poll({ name }), true), name).toBeNull();
  });

  it('refuses names the contract does not have, and malformed entries', () => {
    for (const bad of [
      null,
      'userInfo',
      42,
      [],
      poll({ name: 'nope' }),
      poll({ name: '__proto__' }),
      poll({ name: 'toString' }),
      poll({ input: null }),
      poll({ input: [] }),
      poll({ input: 'range=1M' }),
    ])
      expect(firstPollOf(bad, true), JSON.stringify(bad)).toBeNull();
  });
});
