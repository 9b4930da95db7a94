/**
 * The server's notion of now. Everything time-dependent (maturities, settlements, expiries, token
 * lifetimes) reads it, so tests and the operator can move time forward without waiting.
 */
export interface Clock {
  now(): number;
  /** Moves this clock forward by `ms` (tests; `npm run ops -- clock:advance` with OPS_CLOCK=1). */
  advance(ms: number): void;
  /** The total shift from the system time. */
  offset(): number;
}

export function systemClock(offsetMs = 0): Clock {
  let offset = offsetMs;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
    offset: () => offset,
  };
}

/** The config row the operator's `clock:advance` writes; read by a server started with OPS_CLOCK=1. */
export const CLOCK_OFFSET_TAG = 'clock_offset_ms';
