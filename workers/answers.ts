import type { EndpointName } from '#shared/contract/index';
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
/** A key polled every few seconds is written at most this often. */
export const ANSWER_WRITE_EVERY_MS = 10_000;

export function createAnswerCache(device: Device, owner: () => number | null) {
  const lastWrite = new Map<string, number>();
  const pruned = new Map<string, number>();

  return {
    cacheable: (name: string) => OFFLINE_ANSWERS.has(name as EndpointName),

    async read(name: string, key: string): Promise<AnswerRecord | undefined> {
      const rec = await device.read((db) => db.answers.get(key), undefined);
      if (!rec) return undefined;
      if (isPrivateEndpoint(name) && (owner() === null || rec.owner !== owner())) return undefined;
      return rec;
    },

    async write(name: string, key: string, data: unknown, at: number, epoch: number): Promise<void> {
      if (!OFFLINE_ANSWERS.has(name as EndpointName)) return;
      const user = isPrivateEndpoint(name) ? owner() : 0;
      if (user === null) return;
      if (
        !ALWAYS_WRITTEN.has(name as EndpointName) &&
        at - (lastWrite.get(key) ?? Number.NEGATIVE_INFINITY) < ANSWER_WRITE_EVERY_MS
      )
        return;
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
    },

    forget(): void {
      lastWrite.clear();
      pruned.clear();
    },
  };
}
