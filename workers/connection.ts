import type { Device } from './device';
import { type Connection, type ConnectionView, createReachability } from './network';

/**
 * The reachability controller: what the one request path tells `network.ts` (the pure state), and
 * what follows from its changes — the timer that notices a request waiting too long, the probes
 * while the server cannot be reached, the GETs an outage stranded, the calm recovery, and the last
 * good answer kept on the device so the next start knows how old its data is.
 *
 * While unreachable the polls pause and one request probes the server — the newest screen's own
 * poll (else `probeRequest`): after 1 s, 2 s, 4 s, then every 5 s (±25 %), each without waiting for
 * the one before to time out.
 */
const PROBE_MS = [1_000, 2_000, 4_000, 5_000];
/**
 * A GET sent while unreachable waits at most this long: a silent server must not hold it (and one
 * of the browser's six connections) for the full 10 s.
 */
export const PROBE_TIMEOUT_MS = 5_000;
/** The last good answer is kept on the device (meta) at most this often. */
const SAVE_GOOD_EVERY_MS = 10_000;
const LAST_GOOD_KEY = 'net.lastGoodAt';

export const isGood = (s: Connection) => s === 'online' || s === 'slow';

export interface ConnectionDeps {
  device: Device;
  poller: { setActive(active: boolean): void; recover(): void; probe(): Promise<boolean> };
  /** The app is on screen (polls pause while hidden). */
  visible: () => boolean;
  /** One request that asks the server whether it is back, when no poll can. */
  probeRequest: () => Promise<unknown>;
  /** The server answers again after an outage that began at `from` (the last good answer before it). */
  recovered: (from: number) => void;
}

/** One request as the controller follows it, from `begin` to `end`. */
export interface Tracked {
  /** Aborted when an outage strands it (GETs only). */
  signal: AbortSignal | undefined;
  /** Sent while unreachable: it waits PROBE_TIMEOUT_MS at most. */
  short: boolean;
  /** `reached`: any answer of the server; false: a transport failure. Answers whether it was cancelled. */
  end(reached: boolean): boolean;
}

export function createConnection(deps: ConnectionDeps) {
  const reach = createReachability(() => Date.now());
  /** GETs in flight, cancelled when an outage they were caught in ends (their polls run again). */
  const inFlight = new Map<number, AbortController>();
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  let probeTimer: ReturnType<typeof setTimeout> | null = null;
  let probeStep = 0;
  /** The last good answer before the current outage (for "while you were away"). */
  let outageFrom: number | null = null;
  let savedGoodAt = 0;
  const listeners = new Set<(view: ConnectionView) => void>();

  function scheduleCheck(): void {
    if (checkTimer) clearTimeout(checkTimer);
    checkTimer = null;
    const ms = reach.nextCheckIn();
    if (ms !== null) checkTimer = setTimeout(() => changed(reach.tick(), null), ms + 5);
  }

  /**
   * After every request and every state change: on the way into an outage, cancel what it
   * stranded and probe; on the first answer after one, recover calmly; tell the listeners of changes.
   */
  function changed(delta: ConnectionView | null, recoveredBy: number | null): void {
    scheduleCheck();
    const view = reach.view();
    if (!isGood(view.state)) {
      outageFrom ??= view.lastGoodAt ?? Date.now();
      if (delta) {
        // The GETs waiting now are stranded: cancel them (their polls run again on recovery) and
        // keep the browser's connections free for the probe.
        for (const controller of inFlight.values()) controller.abort();
        if (view.state === 'unreachable') scheduleProbe();
      }
    } else if (outageFrom !== null && view.lastGoodAt !== null && view.lastGoodAt > outageFrom) {
      stopProbe();
      const from = outageFrom;
      outageFrom = null;
      recover(recoveredBy, from);
    }
    if (view.lastGoodAt !== null && view.lastGoodAt - savedGoodAt >= SAVE_GOOD_EVERY_MS) {
      savedGoodAt = view.lastGoodAt;
      void deps.device.write(deps.device.epoch(), (db) =>
        db.meta.put({ key: LAST_GOOD_KEY, value: savedGoodAt }),
      );
    }
    if (!delta) return;
    deps.poller.setActive(deps.visible() && isGood(view.state));
    for (const listener of listeners) listener(view);
  }

  // The last answer of an earlier visit: reopening the app after more than a minute away is an
  // outage too ("while you were away" lists what changed since).
  void deps.device
    .read((db) => db.meta.get(LAST_GOOD_KEY), undefined)
    .then((rec) => {
      if (typeof rec?.value !== 'number' || reach.view().lastGoodAt !== null) return;
      outageFrom ??= rec.value;
      savedGoodAt = rec.value;
      reach.seedLastGood(rec.value);
      for (const listener of listeners) listener(reach.view());
    });

  function recover(recoveredBy: number | null, from: number): void {
    // Requests sent before the one that got through were stranded by the outage: cancel them so
    // their polls take their turn in the calm order instead of waiting out the 10 s timeout.
    for (const [token, controller] of inFlight) {
      const sent = reach.pendingSince(token);
      if (recoveredBy === null || (sent !== undefined && sent < recoveredBy)) controller.abort();
    }
    deps.poller.recover();
    deps.recovered(from);
  }

  function scheduleProbe(): void {
    if (probeTimer) return;
    const base = PROBE_MS[Math.min(probeStep, PROBE_MS.length - 1)]!;
    probeStep += 1;
    probeTimer = setTimeout(
      () => {
        probeTimer = null;
        if (reach.view().state !== 'unreachable') return;
        // The next probe does not wait for this one: a probe sent into a silent server waits out
        // its PROBE_TIMEOUT_MS, and a server back meanwhile would be noticed only after it (at most
        // two probes are ever in flight).
        void probe();
        scheduleProbe();
      },
      base * (0.75 + Math.random() * 0.5),
    );
  }
  /** One request: the newest screen's poll, or `probeRequest` when no screen polls. */
  async function probe(): Promise<void> {
    if (!(await deps.poller.probe())) await deps.probeRequest();
  }
  function stopProbe(): void {
    if (probeTimer) clearTimeout(probeTimer);
    probeTimer = null;
    probeStep = 0;
  }

  return {
    /**
     * A request leaves. A GET may be cancelled by an outage unless its caller holds its own signal;
     * a money call never is (its outcome matters).
     */
    begin(get: boolean, cancellable: boolean): Tracked {
      const token = reach.start();
      const sent = reach.pendingSince(token) ?? Date.now();
      scheduleCheck();
      const controller = get && cancellable ? new AbortController() : null;
      if (controller) inFlight.set(token, controller);
      return {
        signal: controller?.signal,
        short: get && reach.view().state === 'unreachable',
        end(reached) {
          inFlight.delete(token);
          if (controller?.signal.aborted) {
            changed(reach.end(token, null), null);
            return true;
          }
          changed(reach.end(token, reached), sent);
          return false;
        },
      };
    },
    /** The browser's online flag (the window's view, or the worker's own). */
    setBrowserOnline(online: boolean): void {
      changed(reach.setBrowserOnline(online), null);
    },
    view: () => reach.view(),
    good: () => isGood(reach.view().state),
    /** Every change of the state, and the last good answer of an earlier visit once it is read. */
    subscribe(listener: (view: ConnectionView) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** "Retry now": probe at once (and every poll again once it answers). */
    retryNow(): void {
      stopProbe();
      void probe();
      if (reach.view().state === 'unreachable') scheduleProbe();
    },
  };
}

export type ConnectionController = ReturnType<typeof createConnection>;
