import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '#shared/contract/define';
import { CANCELLED, createPoller, MAX_BACKOFF_MS, RECOVERY_GAP_MS } from '../../workers/poller';

const ok = (data: number): CallResult<number> => ({ ok: true, data });
const fail: CallResult<number> = { ok: false, error: 'errors.network', status: 0 };

describe('shared polls', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const env = () => ({
    now: () => Date.now(),
    random: () => 0.5,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
  });

  it('polls at the interval and shares one request between two subscribers', async () => {
    const poller = createPoller(env());
    let n = 0;
    const run = vi.fn(async () => ok(++n));
    const a = vi.fn();
    const b = vi.fn();
    poller.subscribe('info', run, { intervalMs: 3000, onUpdate: a });
    poller.subscribe('info', run, { intervalMs: 3000, onUpdate: b });
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    expect(a).toHaveBeenLastCalledWith(ok(1), expect.any(Number));
    expect(b).toHaveBeenLastCalledWith(ok(1), expect.any(Number));
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(9000);
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('stops when the last subscriber leaves', async () => {
    const poller = createPoller(env());
    const run = vi.fn(async () => ok(1));
    const id = poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(2500);
    poller.unsubscribe(id);
    const calls = run.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run.mock.calls.length).toBe(calls);
    expect(poller.keys()).toEqual([]);
  });

  it('keeps one request in flight per key', async () => {
    const poller = createPoller(env());
    let release: (v: CallResult<number>) => void = () => {};
    const run = vi.fn(() => new Promise<CallResult<number>>((r) => (release = r)));
    poller.subscribe('slow', run, { intervalMs: 100, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    release(ok(1));
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('backs off exponentially after failures, capped, and recovers on success', async () => {
    const poller = createPoller(env());
    let failing = true;
    const run = vi.fn(async () => (failing ? fail : ok(1)));
    poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(0); // 1st failure → next in 2 s
    await vi.advanceTimersByTimeAsync(1999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 2nd failure → next in 4 s
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4000);
    expect(run).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS * 3);
    const slow = run.mock.calls.length;
    expect(slow).toBeLessThan(3 + 3 + 3); // capped at MAX_BACKOFF_MS, never faster than the cap allows
    failing = false;
    await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS);
    const recovered = run.mock.calls.length;
    await vi.advanceTimersByTimeAsync(3000);
    expect(run.mock.calls.length - recovered).toBe(3);
  });

  it('pauses while inactive and runs at once on resume', async () => {
    const poller = createPoller(env());
    const run = vi.fn(async () => ok(1));
    poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    poller.setActive(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    poller.setActive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('hands a late subscriber the last answer without a new request', async () => {
    const poller = createPoller(env());
    const run = vi.fn(async () => ok(7));
    poller.subscribe('k', run, { intervalMs: 5000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(100);
    const late = vi.fn();
    poller.subscribe('k', run, { intervalMs: 5000, onUpdate: late });
    expect(late).toHaveBeenCalledWith(ok(7), expect.any(Number));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('shared polls: intervals, jitter, pause', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const env = (random: () => number) => ({
    now: () => Date.now(),
    random,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
  });

  it('runs at the shortest interval any subscriber asks for, and slows down when it leaves', async () => {
    const poller = createPoller(env(() => 0.5));
    const run = vi.fn(async () => ok(1));
    poller.subscribe('prices', run, { intervalMs: 5000, onUpdate: () => {} });
    const fast = poller.subscribe('prices', run, { intervalMs: 3000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(9000);
    expect(run).toHaveBeenCalledTimes(4); // 0, 3, 6, 9 s
    poller.unsubscribe(fast);
    await vi.advanceTimersByTimeAsync(3000); // the poll set at 9 s still fires at 12 s
    run.mockClear();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(2); // 17, 22 s
  });

  it('spreads retries between 75 % and 125 % of the backoff', async () => {
    for (const [random, first] of [
      [0, 1500],
      [0.999999, 2499], // 2499.999 ms; timers count whole milliseconds
    ] as const) {
      const poller = createPoller(env(() => random));
      const run = vi.fn(async () => fail);
      poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(first - 1);
      expect(run, `random ${random}`).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(run, `random ${random}`).toHaveBeenCalledTimes(2);
      poller.setActive(false);
    }
  });

  it('sends nothing while inactive (hidden or offline), not even for a new subscriber', async () => {
    const poller = createPoller(env(() => 0.5));
    poller.setActive(false);
    const run = vi.fn(async () => ok(1));
    poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(run).not.toHaveBeenCalled();
    poller.setActive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('does not reschedule a poll whose last subscriber left while its request was in flight', async () => {
    const poller = createPoller(env(() => 0.5));
    let release: (v: CallResult<number>) => void = () => {};
    const run = vi.fn(() => new Promise<CallResult<number>>((r) => (release = r)));
    const id = poller.subscribe('k', run, { intervalMs: 1000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    poller.unsubscribe(id);
    release(ok(1));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(poller.keys()).toEqual([]);
  });

  it('refresh runs a poll at once and keeps its rhythm from there', async () => {
    const poller = createPoller(env(() => 0.5));
    const run = vi.fn(async () => ok(1));
    poller.subscribe('k', run, { intervalMs: 5000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(1000);
    poller.refresh('k');
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(4999);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('recovers calmly after an outage: no backoff, the newest screen first, the others spaced out', async () => {
    const poller = createPoller(env(() => 0.5));
    const order: string[] = [];
    let down = true;
    const runner = (key: string) => async () => {
      order.push(key);
      return down ? fail : ok(1);
    };
    for (const key of ['shell', 'list', 'screen'])
      poller.subscribe(key, runner(key), { intervalMs: 3000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(20_000); // failing: backing off
    poller.setActive(false); // unreachable: paused
    order.length = 0;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual([]);
    down = false;
    poller.setActive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['screen']);
    await vi.advanceTimersByTimeAsync(RECOVERY_GAP_MS);
    expect(order).toEqual(['screen', 'list']);
    await vi.advanceTimersByTimeAsync(RECOVERY_GAP_MS);
    expect(order).toEqual(['screen', 'list', 'shell']);
    // Then each at its own interval again, not at its old backoff.
    await vi.advanceTimersByTimeAsync(3000);
    expect(order.filter((k) => k === 'screen')).toHaveLength(2);
  });

  it('probes with the newest poll while paused, and a cancelled request is no failure and no news', async () => {
    const poller = createPoller(env(() => 0.5));
    const seen = vi.fn();
    const old = vi.fn(async () => ok(0));
    const newest = vi.fn(async (): Promise<CallResult<number>> => ok(7));
    poller.subscribe('old', old, { intervalMs: 3000, onUpdate: () => {} });
    poller.subscribe('new', newest, { intervalMs: 3000, onUpdate: seen });
    await vi.advanceTimersByTimeAsync(0);
    poller.setActive(false);
    seen.mockClear();
    newest.mockClear();
    expect(await poller.probe()).toBe(true);
    expect(newest).toHaveBeenCalledTimes(1);
    expect(seen).toHaveBeenLastCalledWith(ok(7), expect.any(Number));
    newest.mockImplementationOnce(async () => ({ ok: false, error: CANCELLED, status: 0 }));
    seen.mockClear();
    await poller.probe();
    expect(seen).not.toHaveBeenCalled();
  });

  it('low-data mode doubles every interval', async () => {
    const poller = createPoller(env(() => 0.5));
    const run = vi.fn(async () => ok(1));
    poller.subscribe('k', run, { intervalMs: 3000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    poller.setIntervalFactor(2);
    run.mockClear();
    await vi.advanceTimersByTimeAsync(12_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('a hold starts a poll before its screen, which then shares its request and asks nothing twice', async () => {
    const poller = createPoller(env(() => 0.5));
    let release: (v: CallResult<number>) => void = () => {};
    const run = vi.fn(() => new Promise<CallResult<number>>((r) => (release = r)));
    poller.hold('summary', run, 10_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    // The screen subscribes while the held request is in flight: it gets that answer.
    const screen = vi.fn();
    poller.subscribe('summary', run, { intervalMs: 3000, onUpdate: screen });
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    release(ok(5));
    await vi.advanceTimersByTimeAsync(0);
    expect(screen).toHaveBeenCalledWith(ok(5), expect.any(Number));
    // A screen that comes after the answer takes it at once, without a request.
    const late = vi.fn();
    poller.subscribe('summary', run, { intervalMs: 3000, onUpdate: late });
    expect(late).toHaveBeenCalledWith(ok(5), expect.any(Number));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('a hold alone asks once and ends; a screen that takes it up polls at its own interval', async () => {
    const poller = createPoller(env(() => 0.5));
    const run = vi.fn(async () => ok(1));
    poller.hold('unused', run, 10_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(poller.keys()).toEqual([]);

    run.mockClear();
    poller.hold('taken', run, 10_000);
    poller.subscribe('taken', run, { intervalMs: 2000, onUpdate: () => {} });
    await vi.advanceTimersByTimeAsync(9999);
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('a new session ends the holds at once; a screen’s own subscription to the same key goes on', async () => {
    const poller = createPoller(env(() => 0.5));
    const run = vi.fn(async () => ok(1));
    poller.hold('shared', run, 10_000);
    const screen = vi.fn();
    poller.subscribe('shared', run, { intervalMs: 5000, onUpdate: screen });
    poller.hold('other', run, 10_000);
    poller.endHolds();
    expect(poller.keys()).toEqual(['shared']);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(screen).toHaveBeenCalledTimes(2);
  });
});
