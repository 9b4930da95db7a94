import { releaseProxy } from 'comlink';
import type { AwaySummary } from './away';
import type { ListOutbox } from './lists-outbox';
import type { MoneyView } from './money';
import type { ConnectionView } from './network';
import type { QuoteDelta } from './quotes';

/** What low-data mode is following: the user's switch, or the browser's hints. */
export type LowDataPref = 'auto' | 'on' | 'off';

export interface ConnectionEvent extends ConnectionView {
  /** Low-data mode is on (poll intervals doubled, images and sparklines off). */
  lowData: boolean;
  /** Why: the user's switch, or the browser (Save-Data or a 2G connection). */
  lowDataBy: 'setting' | 'browser' | null;
  /**
   * The server's clock minus this device's, ms, from the stamp on each answer (server-clock.ts):
   * what the UI adds to its own clock to say whether a market is closed or a price is old. It
   * moves only beyond a round trip's noise.
   */
  clockOffset: number;
}

/**
 * Everything the sync worker pushes to the UI, by topic: one typed channel. `listen(topic, cb)`
 * answers an id and `unlisten(id)` ends it (src/api/client.ts `listen` wraps the pair into one
 * unlisten function). Subscriptions with an input (a poll, a chart) share the id space and end the
 * same way.
 */
export interface WorkerEvents {
  /** Reachability and low-data mode; the current view at once, then every change. */
  connection: ConnectionEvent;
  /** Changed prices as small batches. */
  quotes: QuoteDelta[];
  /** The named watchlists' waiting changes (items and lists); now, then after every change. */
  lists: ListOutbox;
  /**
   * Nothing is pushed: listening says a customer-service chat is on screen (the worker keeps its
   * list fresh while one is); the screen reads the list from the device store (src/device/chat.ts).
   */
  chat: never;
  /** A message for the user with no screen of its own (an i18n key and its values). */
  notice: { key: string; params: Record<string, unknown> };
  /** The server ended the session (logout answer or 401). */
  session: { reason: string };
  /** A money call's state changed (sent, unconfirmed, checked, confirmed, rejected, never received). */
  money: MoneyView;
  /** After more than a minute without the server: what changed meanwhile. */
  away: AwaySummary;
}
export type Topic = keyof WorkerEvents;

type Released = { [releaseProxy]?: () => void };
/** Releases a Comlink proxy handed to the worker (they leak otherwise). */
export const release = (cb: unknown) => (cb as Released | undefined)?.[releaseProxy]?.call(cb);

interface TopicHooks<T> {
  /** What a new listener gets at once (the current state), if anything. */
  initial?: () => Promise<T | undefined> | T | undefined;
  /** The first listener arrived / the last one left. */
  first?: () => void;
  last?: () => void;
}

export function createEvents() {
  const listeners = new Map<number, { topic: Topic; cb: (payload: never) => void }>();
  /** Subscriptions of other kinds (polls, charts): their own end, in the same id space. */
  const disposers = new Map<number, () => void>();
  const hooks: { [K in Topic]?: TopicHooks<WorkerEvents[K]> } = {};
  let nextId = 1;

  const count = (topic: Topic) => [...listeners.values()].filter((l) => l.topic === topic).length;

  return {
    /** Sets what happens when a topic gets its first listener, loses its last, and what a new one sees. */
    on<K extends Topic>(topic: K, h: TopicHooks<WorkerEvents[K]>): void {
      (hooks as Record<Topic, unknown>)[topic] = h;
    },
    listen<K extends Topic>(topic: K, cb: (payload: WorkerEvents[K]) => void): number {
      const id = nextId++;
      const h = hooks[topic] as TopicHooks<WorkerEvents[K]> | undefined;
      const isFirst = count(topic) === 0;
      listeners.set(id, { topic, cb: cb as (payload: never) => void });
      if (isFirst) h?.first?.();
      const now = h?.initial?.();
      if (now !== undefined)
        void Promise.resolve(now).then((v) => {
          if (v !== undefined && listeners.has(id)) cb(v);
        });
      return id;
    },
    /** Registers another kind of subscription's end under a fresh id. */
    track(dispose: () => void): number {
      const id = nextId++;
      disposers.set(id, dispose);
      return id;
    },
    unlisten(id: number): void {
      const l = listeners.get(id);
      if (l) {
        listeners.delete(id);
        release(l.cb);
        if (count(l.topic) === 0) hooks[l.topic]?.last?.();
        return;
      }
      const d = disposers.get(id);
      disposers.delete(id);
      d?.();
    },
    emit<K extends Topic>(topic: K, payload: WorkerEvents[K]): void {
      for (const l of listeners.values())
        if (l.topic === topic) (l.cb as (p: WorkerEvents[K]) => void)(payload);
    },
    has: (topic: Topic) => count(topic) > 0,
  };
}
