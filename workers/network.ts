/**
 * Reachability: what the sync worker actually sees of the server, with the browser's online flag
 * as one input (DESIGN: "Reachability"). Pure: time comes from `now`, so tests drive it by hand.
 *
 * - `offline`: the browser says so.
 * - `unreachable`: CONSECUTIVE_FAILURES transport failures in a row, or a request has waited
 *   `unreachableAfter()` with no answer of any kind since it was sent (a silent server answers
 *   nothing, and waiting for the 10 s timeout would leave money buttons live for 10 s). On a good
 *   link that is UNREACHABLE_AFTER_MS, so a silence is told within two 3 s polls (the next poll
 *   leaves within 3 s, and 3 s + 2.5 s < 6 s); a link whose answers are slow earns PATIENCE times
 *   its median before it is called unreachable, so a slow network is shown as slow, not as down.
 * - `slow`: answers arrive, but the median of the last SAMPLES took SLOW_AFTER_MS or more, or a
 *   request has waited that long with nothing answered since.
 * - `online`: otherwise. The first answer after an outage clears it at once.
 */
export type Connection = 'online' | 'slow' | 'unreachable' | 'offline';

/** What the UI is told: the state, since when, and when the server last answered. */
export interface ConnectionView {
  state: Connection;
  /** Epoch ms of the last answer from the server (any answer: it was reached). */
  lastGoodAt: number | null;
  /** Epoch ms the state was entered. */
  since: number;
}

export const SLOW_AFTER_MS = 2_000;
export const UNREACHABLE_AFTER_MS = 2_500;
/** How many of its median answer times a slow link may take before it is called unreachable. */
export const PATIENCE = 3;
export const CONSECUTIVE_FAILURES = 2;
const SAMPLES = 3;

/** An HTTP status that means the server itself did not answer (a gateway or the network did). */
export function isUnreached(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

export function createReachability(now: () => number) {
  let browserOnline = true;
  let failures = 0;
  /** Declared unreachable: it stays so until an answer comes (a timeout alone proves nothing new). */
  let outage = false;
  let lastGoodAt: number | null = null;
  const latencies: number[] = [];
  const pending = new Map<number, number>();
  let nextToken = 1;
  let view: ConnectionView = { state: 'online', lastGoodAt: null, since: now() };

  /** The oldest request still waiting that was sent after the last answer (older ones were overtaken). */
  function oldestWaiting(): number | null {
    let oldest: number | null = null;
    for (const start of pending.values()) {
      if (lastGoodAt !== null && start < lastGoodAt) continue;
      if (oldest === null || start < oldest) oldest = start;
    }
    return oldest;
  }

  function median(): number {
    if (!latencies.length) return 0;
    const sorted = [...latencies].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }

  function unreachableAfter(): number {
    return Math.max(UNREACHABLE_AFTER_MS, PATIENCE * median());
  }

  function state(): Connection {
    if (!browserOnline) return 'offline';
    const oldest = oldestWaiting();
    const waited = oldest === null ? 0 : now() - oldest;
    if (outage || failures >= CONSECUTIVE_FAILURES || waited >= unreachableAfter()) {
      outage = true;
      return 'unreachable';
    }
    if (waited >= SLOW_AFTER_MS || median() >= SLOW_AFTER_MS) return 'slow';
    return 'online';
  }

  /** Re-derives the view; returns it when it changed (null when not). */
  function evaluate(): ConnectionView | null {
    const next = state();
    if (next === view.state && lastGoodAt === view.lastGoodAt) return null;
    // Only a change of state is news; the last good time alone moves with every answer.
    const changed = next !== view.state;
    view = { state: next, lastGoodAt, since: changed ? now() : view.since };
    return changed ? view : null;
  }

  return {
    /** A request leaves; the token ends it. */
    start(): number {
      const token = nextToken++;
      pending.set(token, now());
      return token;
    },
    /** `reached`: any answer from the server; false: a transport failure; null: cancelled by us. */
    end(token: number, reached: boolean | null): ConnectionView | null {
      const started = pending.get(token);
      pending.delete(token);
      if (started === undefined || reached === null) return evaluate();
      if (reached) {
        failures = 0;
        outage = false;
        lastGoodAt = now();
        latencies.push(lastGoodAt - started);
        if (latencies.length > SAMPLES) latencies.shift();
      } else if (browserOnline) failures += 1;
      return evaluate();
    },
    /** The last answer of an earlier visit (from the device), until this one hears one. */
    seedLastGood(at: number): void {
      if (lastGoodAt !== null) return;
      lastGoodAt = at;
      view = { ...view, lastGoodAt: at };
    },
    setBrowserOnline(next: boolean): ConnectionView | null {
      // Either way the count starts again: failures while offline say nothing about the server.
      if (next !== browserOnline) {
        failures = 0;
        outage = false;
      }
      browserOnline = next;
      return evaluate();
    },
    /** Time passes: a waiting request may cross a threshold. */
    tick: evaluate,
    /** Ms until a waiting request crosses the next threshold (null: nothing waits). */
    nextCheckIn(): number | null {
      const oldest = oldestWaiting();
      if (oldest === null) return null;
      const waited = now() - oldest;
      if (waited < SLOW_AFTER_MS) return SLOW_AFTER_MS - waited;
      if (waited < unreachableAfter()) return unreachableAfter() - waited;
      return null;
    },
    view: () => view,
    /** Requests still waiting and when each was sent (for aborting the ones an outage stranded). */
    pendingSince: (token: number) => pending.get(token),
  };
}
