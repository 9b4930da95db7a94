import type { Context } from './context';

/** The device store's record of whose it is (`markDevice`). */
const DEVICE_MARK = 'device.user';

/** The session domain: who is signed in, the device store's mark, and the logout wipe. */
export function sessionApi(ctx: Context) {
  const { session } = ctx;
  return {
    /** The session's token and user (answers of signed-in calls are kept per user). */
    setToken(next: string | null, user: number | null = null): void {
      const signedIn = next !== null && next !== session.token;
      // Polls started for the first screen (`prefetch`) asked for the session before this one.
      if (next !== session.token) ctx.poller.endHolds();
      session.token = next;
      session.userId = next === null ? null : user;
      if (signedIn) {
        void ctx.flushOutboxes();
        void ctx.money.reconcile();
        // The passkeys' public keys, kept for this user: the app lock opens offline against them
        // (api/lock.ts). One small read per session start.
        void ctx.request('securityState', {});
      }
    },
    /**
     * Marks the device store as this user's, at sign-in. A signed-in start that finds the mark gone
     * learns the browser cleared the store (WebKit removes a site's script-written storage after 7
     * days unused unless installed): src/shell/device.ts then starts cleanly at sign-in.
     */
    async markDevice(user: number): Promise<void> {
      await ctx.device.write(ctx.device.epoch(), (db) => db.meta.put({ key: DEVICE_MARK, value: user }));
    },
    /** Whether the device store still holds this user's mark; null when the store cannot be read. */
    deviceMarked(user: number): Promise<boolean | null> {
      return ctx.device.read(async (db) => (await db.meta.get(DEVICE_MARK))?.value === user, null);
    },
    /**
     * The device store's name once it is open at this build's schema (created or upgraded here),
     * for the screens' read-only live queries (src/device/); null when there is none.
     */
    async deviceStore(): Promise<string | null> {
      try {
        const db = await ctx.device.db();
        await db.open();
        return db.name;
      } catch {
        return null;
      }
    },
    /** Logout: forget the user's data on this device (works offline). */
    async wipe(): Promise<void> {
      session.token = null;
      session.userId = null;
      ctx.poller.endHolds();
      ctx.chat.reset();
      ctx.hub.clear();
      ctx.charts.clear();
      ctx.answers.forget();
      ctx.money.clear();
      await ctx.device.wipe();
      if (typeof caches !== 'undefined') {
        // Runtime caches (news, images) are public, but a signed-out device keeps nothing it fetched.
        const names = await caches.keys().catch(() => [] as string[]);
        await Promise.all(
          names.filter((n) => !n.startsWith('workbox-precache')).map((n) => caches.delete(n)),
        );
      }
    },
  };
}
