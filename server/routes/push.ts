import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { route } from '../lib/route';
import { pushSettings, resubscribe, setPrefs, subscribe, unsubscribe } from '../notify/subscriptions';
import { vapidKeys } from '../notify/vapid';

/** Web Push: this device's subscription and the preferences (src/shared/contract/push.ts, server/notify/). */
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  route(app, contract.pushSettings, ({ user }) => pushSettings(deps, user.id));
  route(app, contract.pushSubscribe, ({ user, input }) => subscribe(deps, user.id, input));
  route(app, contract.pushKey, async () => ({ public_key: (await vapidKeys(deps)).publicKey }));
  route(app, contract.pushResubscribe, async ({ input }) => {
    await resubscribe(deps, input);
    return null;
  });
  route(app, contract.pushUnsubscribe, async ({ user, input }) => {
    await unsubscribe(deps, user.id, input.id);
    return null;
  });
  route(app, contract.pushPrefs, ({ user, input }) => setPrefs(deps, user.id, input));
}
