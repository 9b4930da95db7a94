import {
  type CallResult,
  type Contract,
  contract,
  type EndpointName,
  ERR,
  type ReqOf,
  type ResOf,
  stableJson,
} from '#shared/contract/index';
import { isGood } from '../connection';
import { type LowDataPref, release, type Topic, type WorkerEvents } from '../events';
import type { CallOptions } from '../http';
import { type PreparedImage, prepareImage } from '../images';
import { isUnreached } from '../network';
import type { Progress } from '../upload';
import type { Context, Update } from './context';

/** A poll the first screen subscribed to at the last start (src/api/firstPolls.ts records them). */
export interface FirstPoll {
  name: EndpointName;
  input: Record<string, unknown>;
}

/** At most this many are started; a screen polls about ten. */
export const MAX_FIRST_POLLS = 24;
/** How long an early answer waits for its screen: longer than a slow phone takes to render it. */
export const FIRST_POLL_HOLD_MS = 10_000;

/**
 * `x` as a poll that may start before its screen, or null. What arrives was kept in the page's
 * storage, so it is checked like any input: only a read (GET, not money, not an upload) the
 * contract knows, with an object input; a signed-in read only while there is a session (without
 * one, the server's answer would end it).
 */
export function firstPollOf(x: unknown, signedIn: boolean): FirstPoll | null {
  if (typeof x !== 'object' || x === null) return null;
  const { name, input } = x as Record<string, unknown>;
  if (typeof name !== 'string' || !Object.hasOwn(contract, name)) return null;
  const entry = contract[name as EndpointName];
  if (entry.method !== 'GET' || entry.money || entry.upload || (entry.auth && !signedIn)) return null;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  return { name: name as EndpointName, input: input as Record<string, unknown> };
}

/**
 * The network domain: configuration, visibility and connectivity from the window, one-off calls,
 * shared polls, and the event channel (`listen` / `unlisten`) everything else pushes through.
 */
export function networkApi(ctx: Context) {
  const { session, poller, answers, events } = ctx;
  return {
    configure(options: { baseURL: string; awayAfterMs?: number }): void {
      session.baseURL = options.baseURL;
      if (options.awayAfterMs !== undefined) session.awayAfterMs = options.awayAfterMs;
    },
    /**
     * Whether a file of the app is gone from its server (404): the page's own script, after a
     * deploy removed its release. A failure to ask is not "gone".
     */
    async fileGone(url: string): Promise<boolean> {
      try {
        return (await fetch(url, { method: 'HEAD', cache: 'no-store' })).status === 404;
      } catch {
        return false;
      }
    },
    setVisible(next: boolean): void {
      session.visible = next;
      ctx.updateActivity();
      // Hidden may mean closed: the newest answers go to the device now, not when their turn comes.
      if (!next) void answers.flush();
    },
    /** The window's online/offline events (Chromium does not always deliver them to workers). */
    setOnline(next: boolean): void {
      ctx.network.setReportedOnline(next);
    },
    /** Low-data mode: the user's switch and the browser's hint (Save-Data or a 2G connection). */
    setLowData(pref: LowDataPref, browserLowData: boolean): void {
      ctx.network.setLowData(pref, browserLowData);
    },
    /** The banner's "Retry now": probe the server at once and run every poll again. */
    retryNow(): void {
      ctx.network.retryNow();
    },

    /** Subscribes to a topic of the event channel; answers the id to pass to `unlisten`. */
    listen<K extends Topic>(topic: K, cb: (payload: WorkerEvents[K]) => void): number {
      return events.listen(topic, cb);
    },
    /** Ends any subscription: a topic listener, a poll (`watch`) or a chart (`watchChart`). */
    unlisten(id: number): void {
      events.unlisten(id);
    },

    call<K extends EndpointName>(
      name: K,
      input: ReqOf<Contract[K]>,
      options: CallOptions = {},
    ): Promise<CallResult<ResOf<Contract[K]>>> {
      return ctx.request(name, input, options);
    },
    /**
     * Subscribes to a shared poll; ended by `unlisten(id)`. Calls kept for offline answer at once
     * from the device (`source: 'device'`, with the time they were fetched) until the network
     * answers. What the device does not hold is told `errors.notLoaded` as soon as the server
     * cannot answer it — offline, unreachable, or its request failed on the way — never left loading.
     */
    watch<K extends EndpointName>(
      name: K,
      input: ReqOf<Contract[K]>,
      intervalMs: number,
      onUpdate: Update<ResOf<Contract[K]>>,
    ): number {
      const key = `${name}:${stableJson(input)}`;
      /** The network answered (the device's copy is then old news). */
      let fresh = false;
      /** Something is on screen: an answer from the network or the device. */
      let shown = false;
      /** The device has been asked and holds nothing. */
      let nothingKept = false;
      let toldNotLoaded = false;
      let pollId = 0;
      const notLoaded = () => {
        if (shown || toldNotLoaded || !poller.has(pollId)) return;
        toldNotLoaded = true;
        onUpdate({ ok: false, error: ERR.notLoaded, status: 0 }, Date.now(), 'device');
      };
      pollId = poller.subscribe(key, () => ctx.request(name, input), {
        intervalMs,
        onUpdate: (result, at) => {
          if (result.ok) {
            fresh = shown = true;
            toldNotLoaded = false;
          } else if (!shown && isUnreached(result.status)) {
            // Nothing on screen and the server did not answer: not a bare "network error".
            if (nothingKept) notLoaded();
            return;
          }
          onUpdate(result, at, 'network');
        },
      });
      const kept = answers.cacheable(name) ? answers.read(name, input) : Promise.resolve(undefined);
      void kept.then((rec) => {
        if (fresh || !poller.has(pollId)) return;
        if (rec) {
          shown = true;
          onUpdate({ ok: true, data: rec.data as never }, rec.at, 'device');
          return;
        }
        nothingKept = true;
        if (!ctx.connection.good()) notLoaded();
      });
      // The server stops answering while this waits for its first answer.
      const stop = ctx.connection.subscribe((view) => {
        if (nothingKept && !isGood(view.state)) notLoaded();
      });
      return events.track(() => {
        stop();
        release(poller.unsubscribe(pollId)?.onUpdate);
      });
    },
    /**
     * Starts polls before their screens subscribe: the first screen's, as it subscribed at the last
     * start (src/api/firstPolls.ts), instead of once its code has arrived and rendered (on a slow
     * phone, half a second later), and the categories every start loads (src/shell/startup.ts).
     * Each is held for FIRST_POLL_HOLD_MS: a screen's own `watch` then shares the request or takes
     * its answer. After `setToken`: they are the session's reads; a new session ends them (`endHolds`).
     */
    prefetch(polls: readonly unknown[]): void {
      for (const x of Array.isArray(polls) ? polls.slice(0, MAX_FIRST_POLLS) : []) {
        const p = firstPollOf(x, session.token !== null);
        if (p)
          poller.hold(
            `${p.name}:${stableJson(p.input)}`,
            () => ctx.request(p.name, p.input as never),
            FIRST_POLL_HOLD_MS,
          );
      }
    },
    /** A screen's "Retry": its poll again, or, while the server cannot be reached, a probe now. */
    refresh<K extends EndpointName>(name: K, input: ReqOf<Contract[K]>): void {
      if (ctx.connection.good()) poller.refresh(`${name}:${stableJson(input)}`);
      else ctx.network.retryNow();
    },

    /**
     * An identity photo: decoded, shrunk and recompressed here (SPEC §5 image limits), then uploaded
     * with progress. Answers the upload's id and url plus the prepared image for the preview.
     */
    async uploadImage(
      file: Blob,
      onProgress?: Progress,
    ): Promise<CallResult<{ id: string; url: string; image: PreparedImage }>> {
      const prepared = await prepareImage(file);
      if (!prepared.ok) {
        release(onProgress);
        return prepared;
      }
      const result = await ctx.uploader<{ id: string; url: string }>(
        contract.upload,
        prepared.data.blob,
        'photo.jpg',
        onProgress ? (p) => onProgress(p) : undefined,
      );
      release(onProgress);
      return result.ok ? { ok: true, data: { ...result.data, image: prepared.data } } : result;
    },
  };
}
