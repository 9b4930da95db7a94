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
}

export function createServerClock(): ServerClock {
  let offset = 0;
  return {
    observe(serverTime, sentAt, receivedAt) {
      if (!Number.isFinite(serverTime) || receivedAt < sentAt) return;
      offset = Math.round(serverTime - (sentAt + receivedAt) / 2);
    },
    toServer: (deviceTime) => deviceTime + offset,
  };
}
