import { type EndpointName, stableJson } from '#shared/contract/index';
import type { Device } from './device';
import { isPrivateEndpoint } from './store/private';
import type { AnswerRecord } from './store/schema';

/**
 * The last good answer of the GET calls a screen needs offline, kept on the device so a cold start
 * or an offline screen renders at once with its as-of time. Bank cards, identity data and chat are
 * deliberately not here (chat has its own store). Answers of signed-in calls belong to their user
 * and are never served to another one.
 */
const OFFLINE_ANSWERS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'config',
  'kefu',
  'userInfo',
  'balance',
  'holdings',
  'positions',
  'favouriteList',
  'watchlistLists',
  'watchlistItems',
  'orderList',
  'bill',
  'loanData',
  'categoryList',
  'indexList',
  'stockList',
  'currencyList',
  'marketList',
  'quote',
  'newsList',
  'newsArticle',
  'ipoList',
  'fundList',
  'fxRate',
  'blockList',
  'ipoOrders',
  'dealList',
  'fundOrders',
  'fundPositions',
  'fundNav',
  'portfolioSummary',
  'portfolioHistory',
  'portfolioStatement',
  // The passkeys' public keys: the app lock opens offline against them (workers/api/lock.ts).
  'securityState',
]);

/** Rarely asked and needed as fresh as the server said it (a passkey just added): never throttled. */
const ALWAYS_WRITTEN: ReadonlySet<EndpointName> = new Set<EndpointName>(['securityState']);

/** Answers kept per endpoint (searches and pages add up); the oldest go first. */
export const MAX_ANSWERS_PER_ENDPOINT = 40;
/**
 * A key polled every few seconds is written at most this often; the newest answer of a throttled
 * key is written when its time comes (or when the app is hidden), so the device is never further
 * behind what was on screen.
 */
export const ANSWER_WRITE_EVERY_MS = 10_000;

/** The device's name for an answer: endpoint and input. */
export const answerKey = (name: string, input: unknown) => `${name}:${stableJson(input)}`;

type Input = Record<string, unknown>;

/**
 * An answer of `name` for `wanted`, taken from a kept answer of the same call for another input
 * that holds it: the rows of a page inside a kept page (a list of 3 from a list of 20 with the same
 * filters), the index cards of one category from all of them. Null when `kept` does not hold it.
 */
export function deriveAnswer(name: string, wanted: Input, keptInput: Input, data: unknown): unknown | null {
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { rows?: unknown }).rows))
    return null;
  const rows = (data as { rows: unknown[] }).rows;
  if (name === 'indexList') {
    const category = typeof wanted.category === 'string' ? wanted.category.trim().toUpperCase() : '';
    if (!category || Object.keys(keptInput).length > 0) return null;
    return {
      ...data,
      rows: rows.filter(
        (r) => String((r as { category_code?: unknown }).category_code).toUpperCase() === category,
      ),
    };
  }
  const count = (data as { count?: unknown }).count;
  if (typeof count !== 'number') return null;
  // The same list (every input but the paging equal), and the asked-for rows inside the kept ones.
  const { page: wp = 1, limit: wl = 10, ...wantedRest } = wanted;
  const { page: kp = 1, limit: kl = 10, ...keptRest } = keptInput;
  if (![wp, wl, kp, kl].every((n) => typeof n === 'number' && Number.isInteger(n) && n > 0)) return null;
  if (stableJson(wantedRest) !== stableJson(keptRest)) return null;
  const from = ((wp as number) - 1) * (wl as number);
  const keptFrom = ((kp as number) - 1) * (kl as number);
  const to = Math.min(from + (wl as number), count);
  // A page past the end of the list is empty, whichever page said how long it is.
  if (to <= from) return { ...data, rows: [] };
  if (from < keptFrom || to > keptFrom + rows.length) return null;
  return { ...data, rows: rows.slice(from - keptFrom, to - keptFrom) };
}

/** The input an answer was kept for, from its key. */
function inputOf(key: string, name: string): Input | null {
  try {
    const input = JSON.parse(key.slice(name.length + 1)) as unknown;
    return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Input) : null;
  } catch {
    return null;
  }
}

export function createAnswerCache(device: Device, owner: () => number | null) {
  const lastWrite = new Map<string, number>();
  const pruned = new Map<string, number>();
  /** The newest answer of a throttled key, written when its time comes. */
  const waiting = new Map<string, { name: string; data: unknown; at: number; epoch: number }>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const mine = (rec: AnswerRecord, name: string) =>
    !isPrivateEndpoint(name) || (owner() !== null && rec.owner === owner());

  async function put(key: string, name: string, data: unknown, at: number, epoch: number): Promise<void> {
    const user = isPrivateEndpoint(name) ? owner() : 0;
    if (user === null) return;
    lastWrite.set(key, at);
    await device.write(epoch, (db) => db.answers.put({ key, name, data, at, owner: user }));
    if (at - (pruned.get(name) ?? Number.NEGATIVE_INFINITY) > 60_000) {
      pruned.set(name, at);
      await device.write(epoch, async (db) => {
        const keys = (await db.answers.where('name').equals(name).sortBy('at')).map((r) => r.key);
        if (keys.length > MAX_ANSWERS_PER_ENDPOINT)
          await db.answers.bulkDelete(keys.slice(0, keys.length - MAX_ANSWERS_PER_ENDPOINT));
      });
    }
  }

  function writeWaiting(key: string): Promise<void> {
    const timer = timers.get(key);
    if (timer) clearTimeout(timer);
    timers.delete(key);
    const w = waiting.get(key);
    waiting.delete(key);
    return w ? put(key, w.name, w.data, w.at, w.epoch) : Promise.resolve();
  }

  return {
    cacheable: (name: string) => OFFLINE_ANSWERS.has(name as EndpointName),

    /**
     * The last known answer of `name` for `input`: the one kept for it, else one derived from
     * another kept answer of the same call that holds it (`deriveAnswer`), with that answer's time.
     */
    async read(name: string, input: unknown): Promise<AnswerRecord | undefined> {
      const key = answerKey(name, input);
      const rec = await device.read((db) => db.answers.get(key), undefined);
      if (rec) return mine(rec, name) ? rec : undefined;
      if (typeof input !== 'object' || input === null) return undefined;
      const kept = await device.read((db) => db.answers.where('name').equals(name).toArray(), []);
      let best: AnswerRecord | undefined;
      for (const other of kept) {
        const keptInput = mine(other, name) ? inputOf(other.key, name) : null;
        const data = keptInput && deriveAnswer(name, input as Input, keptInput, other.data);
        if (data && (!best || other.at > best.at)) best = { ...other, key, data };
      }
      return best;
    },

    write(name: string, input: unknown, data: unknown, at: number, epoch: number): Promise<void> {
      if (!OFFLINE_ANSWERS.has(name as EndpointName)) return Promise.resolve();
      const key = answerKey(name, input);
      const since = at - (lastWrite.get(key) ?? Number.NEGATIVE_INFINITY);
      if (ALWAYS_WRITTEN.has(name as EndpointName) || since >= ANSWER_WRITE_EVERY_MS) {
        waiting.delete(key);
        return put(key, name, data, at, epoch);
      }
      waiting.set(key, { name, data, at, epoch });
      if (!timers.has(key))
        timers.set(
          key,
          setTimeout(() => void writeWaiting(key), ANSWER_WRITE_EVERY_MS - since),
        );
      return Promise.resolve();
    },

    /** Writes every waiting answer now (the app is being hidden: it may not come back). */
    async flush(): Promise<void> {
      await Promise.all([...waiting.keys()].map(writeWaiting));
    },

    forget(): void {
      lastWrite.clear();
      pruned.clear();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      waiting.clear();
    },
  };
}
