import { describe, expect, it } from 'vitest';
import {
  CONSECUTIVE_FAILURES,
  createReachability,
  isUnreached,
  PATIENCE,
  SLOW_AFTER_MS,
  UNREACHABLE_AFTER_MS,
} from '../../workers/network';

/** The connection-state machine of the sync worker, driven by hand: requests, answers, time. */
function machine() {
  let t = 1_000_000;
  const r = createReachability(() => t);
  return {
    r,
    advance(ms: number) {
      t += ms;
      return r.tick();
    },
    now: () => t,
  };
}

describe('reachability', () => {
  it('starts online and stays online while answers come quickly', () => {
    const m = machine();
    for (let i = 0; i < 5; i++) {
      const tok = m.r.start();
      m.advance(80);
      m.r.end(tok, true);
    }
    expect(m.r.view().state).toBe('online');
    expect(m.r.view().lastGoodAt).toBe(m.now());
  });

  it('a silent server: slow after SLOW_AFTER_MS, unreachable after UNREACHABLE_AFTER_MS, before any timeout', () => {
    const m = machine();
    const ok = m.r.start();
    m.r.end(ok, true);
    const lastGood = m.now();
    const hanging = m.r.start();
    expect(m.r.nextCheckIn()).toBe(SLOW_AFTER_MS);
    expect(m.advance(SLOW_AFTER_MS - 1)).toBeNull();
    expect(m.advance(1)?.state).toBe('slow');
    expect(m.r.nextCheckIn()).toBe(UNREACHABLE_AFTER_MS - SLOW_AFTER_MS);
    const down = m.advance(UNREACHABLE_AFTER_MS - SLOW_AFTER_MS);
    expect(down).toMatchObject({ state: 'unreachable', lastGoodAt: lastGood });
    // The stranded request times out much later: still unreachable (a timeout proves nothing new).
    m.advance(10_000 - UNREACHABLE_AFTER_MS);
    m.r.end(hanging, false);
    expect(m.r.view().state).toBe('unreachable');
    expect(m.advance(30_000)).toBeNull();
    expect(m.r.view().state).toBe('unreachable');
  });

  it(`a slow link earns patience: unreachable after ${PATIENCE}× its median answer time, not ${UNREACHABLE_AFTER_MS} ms`, () => {
    const m = machine();
    for (let i = 0; i < 3; i++) {
      const tok = m.r.start();
      m.advance(1_500);
      m.r.end(tok, true);
    }
    expect(m.r.view().state).toBe('online');
    m.r.start();
    // Silent for as long as a fast link may be: this one is only slow yet.
    expect(m.advance(UNREACHABLE_AFTER_MS)?.state).toBe('slow');
    expect(m.r.nextCheckIn()).toBe(PATIENCE * 1_500 - UNREACHABLE_AFTER_MS);
    expect(m.advance(PATIENCE * 1_500 - UNREACHABLE_AFTER_MS - 1)).toBeNull();
    expect(m.advance(1)?.state).toBe('unreachable');
  });

  it('clears on the first good answer, even while older requests still hang', () => {
    const m = machine();
    const stranded = m.r.start();
    m.advance(UNREACHABLE_AFTER_MS);
    expect(m.r.view().state).toBe('unreachable');
    const probe = m.r.start();
    m.advance(50);
    const view = m.r.end(probe, true);
    expect(view).toMatchObject({ state: 'online', lastGoodAt: m.now(), since: m.now() });
    // The stranded request was sent before the answer: it no longer counts as waiting.
    expect(m.r.nextCheckIn()).toBeNull();
    m.r.end(stranded, null);
    expect(m.r.view().state).toBe('online');
  });

  it(`is unreachable after ${CONSECUTIVE_FAILURES} transport failures in a row, not after one`, () => {
    const m = machine();
    const a = m.r.start();
    m.r.end(a, false);
    expect(m.r.view().state).toBe('online');
    const b = m.r.start();
    expect(m.r.end(b, false)?.state).toBe('unreachable');
  });

  it('any answer of the server counts as reached (a 4xx too); gateways and the network do not', () => {
    expect(isUnreached(0)).toBe(true);
    expect([502, 503, 504].every(isUnreached)).toBe(true);
    expect([200, 400, 401, 404, 422, 500].some(isUnreached)).toBe(false);
  });

  it('slow when answers arrive but late (median of the last three), online again when they speed up', () => {
    const m = machine();
    const answer = (ms: number) => {
      const tok = m.r.start();
      m.advance(ms);
      return m.r.end(tok, true);
    };
    answer(SLOW_AFTER_MS + 500);
    expect(m.r.view().state).toBe('slow');
    answer(100);
    expect(m.r.view().state).toBe('slow'); // median of [2500, 100] is 2500
    answer(100);
    expect(m.r.view().state).toBe('online');
  });

  it('offline whenever the browser says so; back online it starts from a clean slate', () => {
    const m = machine();
    const a = m.r.start();
    m.r.end(a, false);
    expect(m.r.setBrowserOnline(false)?.state).toBe('offline');
    const b = m.r.start();
    m.r.end(b, false);
    expect(m.r.view().state).toBe('offline');
    expect(m.r.setBrowserOnline(true)?.state).toBe('online');
    const c = m.r.start();
    m.r.end(c, false);
    expect(m.r.view().state).toBe('online');
  });

  it('a cancelled request is neither an answer nor a failure', () => {
    const m = machine();
    const a = m.r.start();
    m.r.end(a, null);
    const b = m.r.start();
    m.r.end(b, false);
    expect(m.r.view()).toMatchObject({ state: 'online', lastGoodAt: null });
  });
});
