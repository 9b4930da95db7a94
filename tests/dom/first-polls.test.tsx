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
    noteFirstPoll('userInfo', {});
    noteFirstPoll('portfolioHistory', { range: '1M' });
    noteFirstPoll('userInfo', {});
    finishFirstPolls();
    const polls = [
      { name: 'userInfo', input: {} },
      { name: 'portfolioHistory', input: { range: '1M' } },
    ];
    expect(startFirstPolls(7, '/')).toEqual(polls);
    finishFirstPolls();
    // This start polled nothing: the next asks for nothing.
    expect(startFirstPolls(7, '/')).toEqual([]);
  });

  it('gives nothing to another user or at another path', () => {
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {});
    finishFirstPolls();
    expect(startFirstPolls(8, '/')).toEqual([]);
    forgetFirstPolls();
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {});
    finishFirstPolls();
    expect(startFirstPolls(7, '/markets')).toEqual([]);
  });

  it('records only the first screen: the recording ends when the user moves on, or after a while', () => {
    vi.useFakeTimers();
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {});
    window.history.pushState(null, '', '/markets');
    noteFirstPoll('stockList', { page: 1 });
    window.history.pushState(null, '', '/');
    noteFirstPoll('balance', {});
    expect(JSON.parse(localStorage.getItem(FIRST_POLLS_KEY)!).polls).toEqual([
      { name: 'userInfo', input: {} },
    ]);

    startFirstPolls(7, '/');
    noteFirstPoll('indexList', {});
    expect(localStorage.getItem(FIRST_POLLS_KEY)).toContain('userInfo');
    vi.advanceTimersByTime(FIRST_POLLS_RECORD_MS);
    noteFirstPoll('balance', {});
    expect(JSON.parse(localStorage.getItem(FIRST_POLLS_KEY)!).polls).toEqual([
      { name: 'indexList', input: {} },
    ]);
  });

  it('a screen’s useWatch is what gets recorded (a watch without input is not)', () => {
    startFirstPolls(7, '/');
    renderHook(() => useWatch('portfolioSummary', {}, 5000));
    renderHook(() => useWatch('fundList', { page: 1 }, 0));
    renderHook(() => useWatch('userInfo', null, 3000));
    finishFirstPolls();
    expect(startFirstPolls(7, '/')).toEqual([
      { name: 'portfolioSummary', input: {} },
      { name: 'fundList', input: { page: 1 } },
    ]);
  });

  it('logout forgets them and ends the recording; unreadable storage gives nothing', () => {
    startFirstPolls(7, '/');
    noteFirstPoll('userInfo', {});
    finishFirstPolls();
    startFirstPolls(7, '/');
    forgetFirstPolls();
    noteFirstPoll('userInfo', {});
    finishFirstPolls();
    expect(localStorage.getItem(FIRST_POLLS_KEY)).toBeNull();
    for (const junk of ['{', '"x"', '{"user":7,"path":"/","polls":"no"}', 'null', '[]']) {
      localStorage.setItem(FIRST_POLLS_KEY, junk);
      expect(startFirstPolls(7, '/'), junk).toEqual([]);
    }
  });
});
