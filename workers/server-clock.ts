/**
 * The server's clock as this device sees it. Times in answers (an order's `updated_at`, a bill's
 * `created_at`) are the server's; a phone's clock may be minutes or days off, so comparing them with
 * `Date.now()` needs the offset. Each answer's SERVER_TIME_HEADER was stamped while the request was
 * being served: the midpoint of the round trip is the device's best guess of that instant.
 */
export interface ServerClock {
  observe(serverTime: number, sentAt: number, receivedAt: number): void;
  /** A device time as the server's clock read it then. */
  toServer(deviceTime: number): number;
  /** The server's clock minus this device's, ms (0 until an answer has said). */
  offset(): number;
  /** `cb` runs when the offset moves by more than CHANGE_MS: a round trip's jitter is not a change. */
  onChange(cb: (offset: number) => void): void;
}

/** Beyond a round trip's noise: what a label that names minutes or a session's close can notice. */
export const CHANGE_MS = 2_000;

export function createServerClock(): ServerClock {
  let offset = 0;
  let told = 0;
  const listeners: Array<(offset: number) => void> = [];
  return {
    observe(serverTime, sentAt, receivedAt) {
      if (!Number.isFinite(serverTime) || receivedAt < sentAt) return;
      offset = Math.round(serverTime - (sentAt + receivedAt) / 2);
      if (Math.abs(offset - told) <= CHANGE_MS) return;
      told = offset;
      for (const cb of listeners) cb(offset);
    },
    toServer: (deviceTime) => deviceTime + offset,
    offset: () => told,
    onChange: (cb) => {
      listeners.push(cb);
    },
  };
}
