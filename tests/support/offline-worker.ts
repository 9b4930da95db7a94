import { act, getConfig } from '@testing-library/react';
import { vi } from 'vitest';
import type { Contract, EndpointName, ReqOf, ResOf } from '#shared/contract/index';
import { createAnswerCache } from '../../workers/answers';
import { createContext } from '../../workers/api/context';
import { favouritesApi } from '../../workers/api/favourites';
import { networkApi } from '../../workers/api/network';
import { quotesApi } from '../../workers/api/quotes';
import { sessionApi } from '../../workers/api/session';
import { createDevice } from '../../workers/device';
import { extractQuotes } from '../../workers/quotes';
import { fake } from './fake-worker';

/**
 * The real sync worker's API in this process, for DOM tests of a screen's hook after a reload with
 * the server silent: the device store (fake-indexeddb) holds what an earlier session kept, and the
 * transport never answers — every request waits until it is cancelled, as a stopped server leaves
 * it. The UI's `worker()` (the one fake client, tests/support/fake-worker.ts) answers with it, and
 * its pushes (connection, quotes, lists) reach the hooks' listeners.
 *
 * Timers are fake (not setImmediate, which the device store runs on): `wait(ms)` moves time, and
 * `until(check)` waits on what the hooks show — never on a count of turns.
 */

/** An answer as an earlier session kept it: the call, its input, the server's data and when it came. */
export interface Kept<K extends EndpointName = EndpointName> {
  name: K;
  input: ReqOf<Contract[K]>;
  data: ResOf<Contract[K]>;
  at: number;
}

export const kept = <K extends EndpointName>(
  name: K,
  input: ReqOf<Contract[K]>,
  data: ResOf<Contract[K]>,
  at: number,
): Kept => ({ name, input, data, at }) as Kept;

/** Every request the silent transport was sent (their paths), for a test that counts them. */
export const sent: string[] = [];

/** A fetch that never answers: it waits until the request is aborted (a timeout, or the worker). */
function silentFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  sent.push(String(input instanceof Request ? input.url : input));
  return new Promise((_resolve, reject) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.addEventListener('abort', () =>
      reject(signal.reason ?? new DOMException('aborted', 'AbortError')),
    );
  });
}

/** Wipes the device store and puts `answers` (and their prices) in it, as the worker keeps them for `user`. */
async function keep(user: number, answers: Kept[]): Promise<void> {
  const device = createDevice();
  await device.wipe();
  const cache = createAnswerCache(device, () => user);
  for (const a of answers) {
    await cache.write(a.name, a.input, a.data, a.at, device.epoch());
    // And the prices they carried, as the worker learns them from every answer (workers/quotes.ts).
    const quotes = extractQuotes(a.name, a.data, a.at);
    await device.write(device.epoch(), (db) => db.quotes.bulkPut(quotes));
  }
}

/**
 * Starts the worker as a reload does, signed in as `user`, with `answers` on the device and the
 * server silent. Call from a test with fake timers on (`useFakeTimers` below).
 */
export async function reloadSilent(user: number, answers: Kept[]) {
  sent.length = 0;
  vi.stubGlobal('fetch', silentFetch);
  await keep(user, answers);
  const ctx = createContext();
  const api = { ...networkApi(ctx), ...sessionApi(ctx), ...quotesApi(ctx), ...favouritesApi(ctx) };
  api.configure({ baseURL: 'http://bourse.test/api' });
  api.setToken('token', user);
  fake.worker = api as unknown as typeof fake.worker;
  for (const topic of ['connection', 'quotes', 'lists'] as const)
    api.listen(topic, (payload: unknown) => fake.emit(topic, payload));
  return { api, ctx };
}

/** Fake timers for everything but setImmediate and queueMicrotask (the device store runs on those). */
export function useFakeTimers(now: number): void {
  vi.useFakeTimers({
    now,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

/** How long `until` tries, in real time: testing-library's wait (dom-setup.ts), so one figure. */
const patience = () => getConfig().asyncUtilTimeout;

/** One turn of the real event loop: the device store (fake-indexeddb) and imports progress on these. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets `ms` of fake time pass, in steps with a turn of the event loop between them, so what a timer
 * starts (a poll, a probe) gets as far as the world lets it. It never waits for a result: assert
 * one with `until`.
 */
export async function wait(ms: number, step = 100): Promise<void> {
  for (let passed = 0; passed < ms; passed += step) {
    await act(async () => {
      await turn();
      await vi.advanceTimersByTimeAsync(Math.min(step, ms - passed));
    });
  }
}

/**
 * Waits until `check` passes (it throws until then), giving the device store, the worker and React
 * real turns between tries — as many as the machine needs, never a fixed count. Without `advance`
 * fake time stands still, so "at once" means before any timer; with it, `advance` ms of fake time
 * pass between tries (a condition that takes time: the server found silent), `within` ms at most.
 * Fails with `check`'s last error after testing-library's patience in real time.
 */
export async function until(
  check: () => void,
  opts: { advance?: number; within?: number } = {},
): Promise<void> {
  const { advance = 0, within = 30_000 } = opts;
  const deadline = performance.now() + patience();
  let passed = 0;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (performance.now() > deadline || passed > within) throw e;
    }
    await act(async () => {
      await turn();
      if (advance) await vi.advanceTimersByTimeAsync(advance);
    });
    passed += advance;
  }
}
