import { createECDH } from 'node:crypto';
import type { Database } from '../db/index';
import type { Deps } from '../deps';

/**
 * The server's VAPID identity (RFC 8292): production's from its environment (config.push.vapid);
 * the demo's made at first start (`seedVapidKeys`, a seed step) and kept in push_keys, so every
 * instance and every restart signs with the one key the browsers subscribed with. Never in the
 * `config` table: /v2/config answers that one to everybody.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const known = new WeakMap<Database, VapidKeys>();

/** A new P-256 pair, base64url (what `web-push generate-vapid-keys` makes). */
export function newVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // A private scalar with a leading zero byte is 31 bytes long: pad it to the 32 VAPID expects.
  const scalar = ecdh.getPrivateKey();
  return {
    publicKey: ecdh.getPublicKey('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url'),
  };
}

/** Seed step: the demo's pair, once (an existing one is kept: subscriptions depend on it). */
export async function seedVapidKeys(deps: Deps): Promise<void> {
  if (deps.config.push.vapid) return;
  const keys = newVapidKeys();
  await deps.database.db
    .insertInto('push_keys')
    .values({
      id: 1,
      public_key: keys.publicKey,
      private_key: keys.privateKey,
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function vapidKeys(deps: Deps): Promise<VapidKeys> {
  if (deps.config.push.vapid) return deps.config.push.vapid;
  const cached = known.get(deps.database);
  if (cached) return cached;
  const row = await deps.database.db
    .selectFrom('push_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) throw new Error('no VAPID keys: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or run the seed');
  const keys = { publicKey: row.public_key, privateKey: row.private_key };
  known.set(deps.database, keys);
  return keys;
}
