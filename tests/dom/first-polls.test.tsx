import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FIRST_POLLS_KEY,
  FIRST_POLLS_RECORD_MS,
  finishFirstPolls,
  forgetFirstPolls,
  noteFirstPoll,
  startFirstPolls,
} from '../../src/api/firstPolls';
import { useWatch } from '../../src/api/hooks';
import { fake } from '../support/fake-worker';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/**
 * The first screen's polls, learnt at one start and asked for at the next before the screen has
 * rendered (src/api/firstPolls.ts): per user and start path, only the first screen's, forgotten
 * at logout.
 */
describe('first screen polls (the page side)', () => {
  beforeEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/');
    fake.reset();
  });
  afterEach(() => {
    forgetFirstPolls();
    vi.useRealTimers();
  });

  it('a start asks for what the same user polled first at the same path last time', () => {
    expect(startFirstPolls(7, '/')).toEqual([]);
    noteFirstPoll('userInfo', {}, 3000);
    noteFirstPoll('portfolioHistory', { range: '1M' }, 60_000);
    noteFirstPoll('userInfo', {}, 3000);
    finishFirstPolls();
    const polls = [
      { name: 'userInfo', input: {}, intervalMs: 3000 },
      { name: 'portfolioHistory', input: { range: '1M' }, intervalMs: 60_000 },
    ];
    expect(startFirstPolls(7, '/')).toEqual(polls);
    finishFirstPolls();
    // This start polled nothing: the next asks for nothing.
    expect(startFirstPolls(7, '/')).toEqual([]);
  });

  it('gives nothing to another user or at another path', () => {
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {}, 3000);
    finishFirstPolls();
    expect(startFirstPolls(8, '/')).toEqual([]);
    forgetFirstPolls();
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {}, 3000);
    finishFirstPolls();
    expect(startFirstPolls(7, '/markets')).toEqual([]);
  });

  it('records only the first screen: the recording ends when the user moves on, or after a while', () => {
    vi.useFakeTimers();
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {}, 3000);
    window.history.pushState(null, '', '/markets');
    noteFirstPoll('stockList', { page: 1 }, 5000);
    window.history.pushState(null, '', '/');
    noteFirstPoll('balance', {}, 3000);
    expect(JSON.parse(localStorage.getItem(FIRST_POLLS_KEY)!).polls).toEqual([
      { name: 'userInfo', input: {}, intervalMs: 3000 },
    ]);

    startFirstPolls(7, '/');
    noteFirstPoll('indexList', {}, 5000);
    expect(localStorage.getItem(FIRST_POLLS_KEY)).toContain('userInfo');
    vi.advanceTimersByTime(FIRST_POLLS_RECORD_MS);
    noteFirstPoll('balance', {}, 3000);
    expect(JSON.parse(localStorage.getItem(FIRST_POLLS_KEY)!).polls).toEqual([
      { name: 'indexList', input: {}, intervalMs: 5000 },
    ]);
  });

  it('a screen’s useWatch is what gets recorded, with the interval it polls at', () => {
    startFirstPolls(7, '/');
    renderHook(() => useWatch('portfolioSummary', {}, 5000));
    renderHook(() => useWatch('fundList', { page: 1 }, 0));
    renderHook(() => useWatch('userInfo', null, 3000));
    finishFirstPolls();
    expect(startFirstPolls(7, '/')).toEqual([
      { name: 'portfolioSummary', input: {}, intervalMs: 5000 },
      // Loaded once: the day-long interval the poll runs at.
      { name: 'fundList', input: { page: 1 }, intervalMs: 24 * 3600 * 1000 },
    ]);
  });

  it('logout forgets them and ends the recording; unreadable storage gives nothing', () => {
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {}, 3000);
    finishFirstPolls();
    startFirstPolls(7, '/');
    forgetFirstPolls();
    noteFirstPoll('userInfo', {}, 3000);
    finishFirstPolls();
    expect(localStorage.getItem(FIRST_POLLS_KEY)).toBeNull();
    for (const junk of ['{', '"x"', '{"user":7,"path":"/","polls":"no"}', 'null', '[]']) {
      localStorage.setItem(FIRST_POLLS_KEY, junk);
      expect(startFirstPolls(7, '/'), junk).toEqual([]);
    }
  });
});
