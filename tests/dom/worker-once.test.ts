import { afterEach, expect, it, vi } from 'vitest';

/*
 * WebKit evaluated the worker's entry a second time when a lazy chunk imported it back,
 * and both copies served the same port. The build now refuses such a chunk (src/build/checks.ts
 * `noEntryImports`); should the entry still run twice in one scope, the second run is an error.
 */
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it('a second evaluation of the sync worker in one scope is reported and exposes nothing', async () => {
  const reported: unknown[] = [];
  vi.stubGlobal('reportError', (e: unknown) => reported.push(e));
  const listen = vi.spyOn(globalThis, 'addEventListener');
  const exposed = () => listen.mock.calls.filter(([type]) => type === 'message').length;

  await import('../../workers/sync.worker');
  expect(exposed()).toBe(1);
  expect(reported).toEqual([]);

  vi.resetModules();
  await expect(import('../../workers/sync.worker')).rejects.toThrow(/second time in one scope/);
  expect(reported).toHaveLength(1);
  expect(String(reported[0])).toMatch(/not exposed again/);
  expect(exposed()).toBe(1);
});
