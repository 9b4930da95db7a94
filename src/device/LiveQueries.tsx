import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { Component, type ReactNode, Suspense, use, useEffect, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import type { FavouriteState } from '../../workers/favourites';
import type { FavouriteRecord } from '../../workers/store/schema';
import { readChat } from './chat';
import type { DeviceViewName, DeviceViews, Host, Publish } from './views';

/**
 * The device store on the UI thread: the sync worker opens it (creating or upgrading it: the schema
 * is the worker's, workers/store/schema.ts) and names it; this opens the same database as it is
 * (Dexie's dynamic mode: no schema of its own) and only reads. Dexie tells live queries here of the
 * worker's writes (a BroadcastChannel between the two). null: no device store (no IndexedDB,
 * private mode) — the screens keep their fallbacks.
 */
let opened: Promise<Dexie | null> | null = null;
function open(storeName: () => Promise<string | null>): Promise<Dexie | null> {
  opened ??= storeName()
    .then(async (name) => {
      if (!name) return null;
      const db = new Dexie(name);
      // Another tab upgrades the schema: let it (this tab's build is the older one).
      db.on('versionchange', () => {
        db.close();
        return false;
      });
      await db.open();
      return db;
    })
    .catch(() => null);
  return opened;
}

/**
 * Starts the live queries the screens want (view.ts): a React root of their own, never attached
 * to the page (they render nothing), following which views are wanted.
 */
export function start(host: Host): void {
  createRoot(document.createElement('div')).render(<Root host={host} />);
}

function Root({ host }: { host: Host }) {
  const names = useSyncExternalStore(host.subscribe, host.names, host.names);
  if (names.length === 0) return null;
  return (
    <Quiet>
      <Suspense fallback={null}>
        <Queries names={names} publish={host.publish} storeName={host.storeName} />
      </Suspense>
    </Quiet>
  );
}

type QueriesProps = Pick<Host, 'publish' | 'storeName'> & { names: DeviceViewName[] };

function Queries({ names, publish, storeName }: QueriesProps) {
  const db = use(open(storeName));
  if (!db) return <NoStore names={names} publish={publish} />;
  return names.map((name) =>
    name === 'favourites' ? (
      <Favourites key={name} db={db} publish={publish} />
    ) : (
      <Chat key={name} db={db} publish={publish} />
    ),
  );
}

/**
 * Without a device store the chat is what an empty store holds, so it is not left loading (the
 * favourites' fallback, none, is what an empty store holds already).
 */
const EMPTY_CHAT: DeviceViews['chat'] = { messages: [], pending: [], fetchedAt: null, stale: true };

function NoStore({ names, publish }: Omit<QueriesProps, 'storeName'>) {
  useEffect(() => {
    if (names.includes('chat')) publish('chat', EMPTY_CHAT);
  }, [names, publish]);
  return null;
}

/**
 * A query that fails (the store closed: another tab upgraded it) leaves the screens their
 * fallbacks: the device store is a convenience, never a condition (workers/device.ts).
 */
class Quiet extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(err: unknown) {
    console.warn('device store:', err);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** The favourites and their pending-sync marks, as the outbox (workers/favourites.ts) leaves them. */
function Favourites({ db, publish }: { db: Dexie; publish: Publish }) {
  const rows = useLiveQuery(() => db.table<FavouriteRecord, string>('favourites').toArray(), [db]);
  useEffect(() => {
    if (rows)
      publish(
        'favourites',
        Object.fromEntries(
          rows.map((r): [string, FavouriteState] => [
            r.symbol,
            { on: r.on, pending: r.pending, name: r.name, market: r.market },
          ]),
        ),
      );
  }, [rows, publish]);
  useEffect(() => () => publish('favourites', undefined), [publish]);
  return null;
}

/** The customer-service chat: the list the worker cached (30 minutes) and the messages it has yet to send. */
function Chat({ db, publish }: { db: Dexie; publish: Publish }) {
  const view = useLiveQuery(() => readChat(db, Date.now()), [db]);
  useEffect(() => {
    if (view) publish('chat', view);
  }, [view, publish]);
  useEffect(() => () => publish('chat', undefined), [publish]);
  return null;
}
