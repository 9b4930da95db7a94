import type { CallResult } from '../src/shared/contract/define';

/**
 * Shared polls. Every subscriber of the same key (endpoint + input) shares one timer and one
 * request in flight; the poll runs at the shortest interval asked for, stops when its last
 * subscriber leaves, pauses while the app is hidden or offline, and after failures backs off
 * exponentially with jitter (up to MAX_BACKOFF_MS).
 */
export const MAX_BACKOFF_MS = 60_000;

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
  let active = true;

  const interval = (poll: Poll) => Math.min(...[...poll.subs.values()].map((s) => s.intervalMs));

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
    // A network failure keeps the last good answer on screen; the subscriber sees the error too.
    poll.failures = result.ok ? 0 : poll.failures + 1;
    poll.last = { result, at };
    for (const sub of poll.subs.values()) sub.onUpdate(result, at);
    if (polls.get(poll.key) === poll) schedule(poll, delay(poll));
  }

  return {
    subscribe<T>(key: string, run: () => Promise<CallResult<T>>, sub: Subscriber<T>): number {
      const id = nextId++;
      let poll = polls.get(key);
      if (!poll) {
        poll = { key, run, subs: new Map(), timer: null, inFlight: false, failures: 0, last: null };
        polls.set(key, poll);
      }
      poll.subs.set(id, sub as Subscriber<unknown>);
      byId.set(id, poll);
      if (poll.last) sub.onUpdate(poll.last.result as CallResult<T>, poll.last.at);
      const fresh = poll.last && env.now() - poll.last.at < sub.intervalMs;
      if (!poll.inFlight) {
        if (fresh) schedule(poll, Math.max(0, interval(poll) - (env.now() - poll.last!.at)));
        else schedule(poll, 0);
      }
      return id;
    },
    unsubscribe(id: number): Subscriber<unknown> | undefined {
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
    },
    /** Hidden or offline: no request goes out; on resume every poll runs at once. */
    setActive(next: boolean): void {
      if (active === next) return;
      active = next;
      for (const poll of polls.values()) schedule(poll, 0);
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
