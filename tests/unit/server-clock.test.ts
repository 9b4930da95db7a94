import { describe, expect, it } from 'vitest';
import { CHANGE_MS, createServerClock } from '../../workers/server-clock';

/**
 * The server's clock as the device sees it: the offset from each answer's stamp, told to the UI
 * (the connection event's `clockOffset`) only when it moves beyond a round trip's noise.
 */
describe('server clock', () => {
  it('tells a phone 20 minutes behind at once, then ignores jitter, then tells a real move', () => {
    const clock = createServerClock();
    const told: number[] = [];
    clock.onChange((offset) => told.push(offset));
    expect(clock.offset()).toBe(0);
    // Sent at 1,000 on the device, back at 1,200; the server stamped 1,100 + 20 minutes.
    clock.observe(1_100 + 1_200_000, 1_000, 1_200);
    expect(told).toEqual([1_200_000]);
    expect(clock.offset()).toBe(1_200_000);
    // Round trips that disagree by a few hundred ms are noise: nothing told, the last told kept.
    clock.observe(5_000 + 1_200_400, 4_900, 5_100);
    clock.observe(9_000 + 1_199_700, 8_900, 9_100);
    expect(told).toEqual([1_200_000]);
    expect(clock.offset()).toBe(1_200_000);
    // toServer reads the latest answer.
    expect(clock.toServer(10_000)).toBe(10_000 + 1_199_700);
    // The phone's clock was set right: told.
    clock.observe(20_000 + CHANGE_MS + 1, 19_900, 20_100);
    expect(told).toEqual([1_200_000, CHANGE_MS + 1]);
  });

  it('ignores an answer without a stamp or one timed backwards', () => {
    const clock = createServerClock();
    const told: number[] = [];
    clock.onChange((offset) => told.push(offset));
    clock.observe(Number.NaN, 0, 100);
    clock.observe(1_000_000, 200, 100);
    expect(told).toEqual([]);
    expect(clock.toServer(5)).toBe(5);
  });
});
