/**
 * The one fake sync worker for DOM tests: a stand-in for `src/api/client` that records every call,
 * answers from a queue (or a test's `respond`), delivers events the test emits to the screen's
 * listeners, and lets a test give worker methods. Each test file mocks the client with it:
 *
 *   vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
 *   import { fake } from '../support/fake-worker';
 *
 * and calls `fake.reset()` before each test.
 */
type Answer = { ok: true; data: unknown } | { ok: false; error: string; status: number };

export const fake = {
  calls: [] as Array<{ name: string; input: unknown; key: string | undefined }>,
  /** Answers in order; when empty, `respond` (if set) or `{ ok: true, data: null }`. */
  answers: [] as Answer[],
  respond: undefined as ((name: string, input: unknown) => Answer) | undefined,
  listeners: new Map<string, Set<(payload: unknown) => void>>(),
  /** Methods of `worker()`; any other is an async no-op. */
  worker: {} as Record<string, (...args: never[]) => unknown>,
  reset(): void {
    fake.calls.length = 0;
    fake.answers = [];
    fake.respond = undefined;
    fake.worker = {};
  },
  /** Delivers a worker event (`money`, `connection`, …) to every listener of its topic. */
  emit(topic: string, payload: unknown): void {
    for (const cb of fake.listeners.get(topic) ?? []) cb(payload);
  },
};

async function call(
  name: string,
  input: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<Answer> {
  fake.calls.push({ name, input, key: options.idempotencyKey });
  return fake.answers.shift() ?? fake.respond?.(name, input) ?? { ok: true, data: null };
}

export const fakeClient = {
  call,
  sendMoney: (name: string, input: unknown, key: string) => call(name, input, { idempotencyKey: key }),
  forgetMoney: async () => {},
  newIdempotencyKey: () => crypto.randomUUID(),
  listen(topic: string, cb: (payload: unknown) => void): () => void {
    const set = fake.listeners.get(topic) ?? new Set();
    fake.listeners.set(topic, set);
    set.add(cb);
    return () => set.delete(cb);
  },
  /** As src/api/client.ts: `start` answers the worker's id; the function returned ends it. */
  subscription(start: () => Promise<number>): () => void {
    let id: number | undefined;
    let ended = false;
    const unlisten = (got: number) => (fake.worker.unlisten as ((id: number) => void) | undefined)?.(got);
    void Promise.resolve(start()).then((got) => {
      if (ended) unlisten(got);
      else id = got;
    });
    return () => {
      if (ended) return;
      ended = true;
      if (id !== undefined) unlisten(id);
    };
  },
  onSessionEnded: () => () => {},
  onNotice: () => () => {},
  releaseGone: async () => false,
  worker: () => new Proxy({}, { get: (_target, method: string) => fake.worker[method] ?? (async () => {}) }),
};

/**
 * What `useWatch` gives for an answer the worker has: a live network answer unless `over` says
 * otherwise (`error`: the last refresh failed, with that message key). DOM tests that mock
 * `src/api/hooks` build their answers with it:
 *
 *   vi.mock('../../src/api/hooks', async () => {
 *     const { watchResult } = await import('../support/fake-worker');
 *     return { useWatch: () => watchResult(data) };
 *   });
 */
export function watchResult<T>(
  data: T,
  over: { source?: 'network' | 'device' | null; reload?: () => void; error?: string | null } = {},
) {
  return {
    data,
    error: null as string | null,
    loading: false,
    updatedAt: 1,
    source: 'network' as 'network' | 'device' | null,
    stale: false,
    reload: () => {},
    ...over,
  };
}
