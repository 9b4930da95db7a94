import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useStartupLoad } from '../../src/shell/startup';
import { fake } from '../support/fake-worker';

/** SPEC §4 app start: categories and messages load whatever the first route, failures ignored. */
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

describe('app start', () => {
  it('loads categories once, and messages once per signed-in user, ignoring failures', async () => {
    fake.reset();
    fake.worker.prefetch = async (polls: unknown) => {
      for (const p of polls as Array<{ name: string; input: unknown }>)
        fake.calls.push({ name: p.name, input: p.input, key: undefined });
      throw new Error('offline');
    };
    fake.worker.prefetchMessages = async () => {
      fake.calls.push({ name: 'messages', input: undefined, key: undefined });
      throw new Error('offline');
    };
    const calls = () => fake.calls.map((c) => c.name);
    const { rerender } = renderHook(({ user }) => useStartupLoad(user), {
      initialProps: { user: null as number | null },
    });
    await Promise.resolve();
    expect(calls()).toEqual(['categoryList']);
    rerender({ user: 7 });
    rerender({ user: 7 });
    // Another screen's shell mounting later in the same start loads nothing again.
    renderHook(() => useStartupLoad(7));
    await new Promise((r) => setTimeout(r, 0));
    expect(calls()).toEqual(['categoryList', 'messages']);
    rerender({ user: 8 });
    expect(calls()).toEqual(['categoryList', 'messages', 'messages']);
  });
});
