import type { CallResult } from '#shared/contract/define';

/**
 * Shared polls. Every subscriber of the same key (endpoint + input) shares one timer and one
 * request in flight; the poll runs at the shortest interval asked for, stops when its last
 * subscriber leaves, pauses while the app is hidden or offline, and after failures backs off
 * exponentially with jitter (up to MAX_BACKOFF_MS).
 */
export const MAX_BACKOFF_MS = 60_000;
/** Between two polls resumed after an outage: the screen's own data first, the rest spread out. */
export const RECOVERY_GAP_MS = 400;
/** A request the worker cancelled itself (stranded by an outage): neither a failure nor news. */
export const CANCELLED = 'errors.cancelled';

export interface Subscriber<T> {
  intervalMs: number;
  onUpdate: (result: CallResult<T>, at: number) => void;
}

interface Poll {
  key: string;
  run: () => Promise<CallResult<unknown>>;
  subs: Map<number, Subscriber<unknown>>;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: boolean;
  failures: number;
  last: { result: CallResult<unknown>; at: number } | null;
  /** The newest subscription: the most recently opened screen's polls are resumed first. */
  newest: number;
  /** Set by a recovery while the request was in flight: run again this many ms after it ends. */
  rerunIn: number | null;
}

export interface PollerEnv {
  now: () => number;
  random: () => number;
  setTimeout: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimeout: (t: ReturnType<typeof setTimeout>) => void;
}

const defaultEnv: PollerEnv = {
  now: () => Date.now(),
  random: Math.random,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t),
};

export function createPoller(env: PollerEnv = defaultEnv) {
  const polls = new Map<string, Poll>();
  const byId = new Map<number, Poll>();
  let nextId = 1;
  /** Subscriptions made by `hold`, no screen's. */
  const holds = new Set<number>();
  let active = true;
  /** Low-data mode doubles every interval. */
  let factor = 1;

  const interval = (poll: Poll) => factor * Math.min(...[...poll.subs.values()].map((s) => s.intervalMs));

  function delay(poll: Poll): number {
    const base = interval(poll);
    if (poll.failures === 0) return base;
    const backoff = Math.min(MAX_BACKOFF_MS, base * 2 ** poll.failures);
    return backoff * (0.75 + env.random() * 0.5);
  }

  function schedule(poll: Poll, ms: number): void {
    if (poll.timer) env.clearTimeout(poll.timer);
    poll.timer = null;
    if (!active || poll.subs.size === 0) return;
    poll.timer = env.setTimeout(() => void tick(poll), ms);
  }

  async function tick(poll: Poll): Promise<void> {
    poll.timer = null;
    if (!active || poll.inFlight || poll.subs.size === 0) return;
    poll.inFlight = true;
    const result = await poll.run();
    poll.inFlight = false;
    const at = env.now();
    const rerun = poll.rerunIn;
    poll.rerunIn = null;
    if (!result.ok && result.error === CANCELLED) {
      if (polls.get(poll.key) === poll) schedule(poll, rerun ?? interval(poll));
      return;
    }
    // A network failure keeps the last good answer on screen; the subscriber sees the error too.
    poll.failures = result.ok ? 0 : poll.failures + 1;
    poll.last = { result, at };
    for (const sub of poll.subs.values()) sub.onUpdate(result, at);
    if (polls.get(poll.key) === poll) schedule(poll, rerun ?? delay(poll));
  }

  /**
   * The server answers again (or the app is back): every poll runs once more without its backoff,
   * the newest screen's first and the others RECOVERY_GAP_MS apart, so a reconnect is no burst.
   * A poll whose request is still in flight (stranded by the outage) runs at its turn after it ends.
   */
  function recover(): void {
    const order = [...polls.values()].sort((a, b) => b.newest - a.newest);
    order.forEach((poll, i) => {
      poll.failures = 0;
      if (poll.inFlight) poll.rerunIn = i * RECOVERY_GAP_MS;
      else schedule(poll, i * RECOVERY_GAP_MS);
    });
  }

  function subscribe<T>(key: string, run: () => Promise<CallResult<T>>, sub: Subscriber<T>): number {
    const id = nextId++;
    let poll = polls.get(key);
    if (!poll) {
      poll = {
        key,
        run,
        subs: new Map(),
        timer: null,
        inFlight: false,
        failures: 0,
        last: null,
        newest: id,
        rerunIn: null,
      };
      polls.set(key, poll);
    }
    poll.newest = id;
    poll.subs.set(id, sub as Subscriber<unknown>);
    byId.set(id, poll);
    if (poll.last) sub.onUpdate(poll.last.result as CallResult<T>, poll.last.at);
    const fresh = poll.last && env.now() - poll.last.at < sub.intervalMs;
    if (!poll.inFlight) {
      if (fresh) schedule(poll, Math.max(0, interval(poll) - (env.now() - poll.last!.at)));
      else schedule(poll, 0);
    }
    return id;
  }

  function unsubscribe(id: number): Subscriber<unknown> | undefined {
    const poll = byId.get(id);
    if (!poll) return undefined;
    byId.delete(id);
    const sub = poll.subs.get(id);
    poll.subs.delete(id);
    if (poll.subs.size === 0) {
      if (poll.timer) env.clearTimeout(poll.timer);
      polls.delete(poll.key);
    }
    return sub;
  }

  return {
    subscribe,
    unsubscribe,
    /**
     * Asks for a key before any screen subscribes to it (the first screen's data, while its code
     * still loads) and keeps the answer for `holdMs`: a subscriber that comes in that time shares
     * the request in flight or takes its answer, and polls on at its own interval. A hold alone
     * asks once: its own interval is the hold.
     */
    hold<T>(key: string, run: () => Promise<CallResult<T>>, holdMs: number): void {
      const id = subscribe(key, run, { intervalMs: holdMs, onUpdate: () => {} });
      holds.add(id);
      env.setTimeout(() => {
        if (holds.delete(id)) unsubscribe(id);
      }, holdMs);
    },
    /** Ends every hold now (the session changed: what they asked for belongs to the one before). */
    endHolds(): void {
      for (const id of holds) unsubscribe(id);
      holds.clear();
    },
    /** Hidden or offline: no request goes out; on resume the polls run again, calmly (recover). */
    setActive(next: boolean): void {
      if (active === next) return;
      active = next;
      if (active) recover();
      else for (const poll of polls.values()) schedule(poll, 0);
    },
    recover,
    /**
     * While the server cannot be reached the polls are paused and the app probes with the newest
     * screen's own poll, one request at a time: the first answer is both the news that the server
     * is back and that screen's fresh data. Answers false when no poll could run.
     */
    async probe(): Promise<boolean> {
      const poll = [...polls.values()].filter((p) => !p.inFlight).sort((a, b) => b.newest - a.newest)[0];
      if (!poll) return false;
      poll.inFlight = true;
      const result = await poll.run();
      poll.inFlight = false;
      if (!result.ok && result.error === CANCELLED) return true;
      const at = env.now();
      poll.last = { result, at };
      for (const sub of poll.subs.values()) sub.onUpdate(result, at);
      if (polls.get(poll.key) === poll && active) schedule(poll, delay(poll));
      return true;
    },
    /** Low-data mode: every interval times `next` (1 or 2). */
    setIntervalFactor(next: number): void {
      if (factor === next) return;
      factor = next;
      for (const poll of polls.values()) if (!poll.inFlight && poll.last) schedule(poll, delay(poll));
    },
    /** Runs a key's poll now (after a mutation that changes what it shows). */
    refresh(key: string): void {
      const poll = polls.get(key);
      if (poll) schedule(poll, 0);
    },
    /** The subscription is still live. */
    has: (id: number) => byId.has(id),
    keys: () => [...polls.keys()],
  };
}
