import { expose } from 'comlink';
import { chartsApi } from './api/charts';
import { createContext } from './api/context';
import { favouritesApi } from './api/favourites';
import { lockApi } from './api/lock';
import { messagesApi } from './api/messages';
import { moneyApi } from './api/money';
import { networkApi } from './api/network';
import { portfolioApi } from './api/portfolio';
import { quotesApi } from './api/quotes';
import { sessionApi } from './api/session';

/**
 * The sync worker: the only network client of the app (SPEC §7) and the only user of the device
 * store. Its API is joined from one file per domain (workers/api/); the UI imports its type only
 * (SyncApi) and talks to it through src/api/client.ts. Everything it pushes goes through one typed
 * event channel (workers/events.ts): `listen(topic, cb)` → id, `unlisten(id)`.
 */

/**
 * One sync worker per worker scope. A lazily loaded chunk that imports this entry back makes WebKit
 * evaluate it a second time in the same scope (the build refuses such a chunk,
 * src/build/checks.ts `noEntryImports`): a second set of pollers, session and store would answer the
 * same port, polling twice and sending every POST twice. A second evaluation is an error,
 * reported to the page (src/api/client.ts), and stops before it builds or exposes anything.
 */
const RUNNING = Symbol.for('bourse.syncWorker');
const scope = globalThis as unknown as Record<symbol, true | undefined>;
if (scope[RUNNING]) {
  const twice = new Error('sync worker: evaluated a second time in one scope; not exposed again');
  reportError(twice);
  throw twice;
}
scope[RUNNING] = true;

const ctx = createContext();

const domains = {
  network: networkApi(ctx),
  session: sessionApi(ctx),
  quotes: quotesApi(ctx),
  charts: chartsApi(ctx),
  favourites: favouritesApi(ctx),
  messages: messagesApi(ctx),
  money: moneyApi(ctx),
  portfolio: portfolioApi(ctx),
  lock: lockApi(ctx),
};

/** One flat API; two domains may never name the same method. */
function join<T extends Record<string, object>>(parts: T): UnionToIntersection<T[keyof T]> {
  const api: Record<string, unknown> = {};
  for (const [domain, methods] of Object.entries(parts))
    for (const [name, fn] of Object.entries(methods)) {
      if (name in api) throw new Error(`worker API: ${domain}.${name} is already defined`);
      api[name] = fn;
    }
  return api as UnionToIntersection<T[keyof T]>;
}
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

const api = join(domains);
export type SyncApi = typeof api;

expose(api);
