import { CONFIG_TAGS } from '#shared/contract/config';
import { toMinor } from '#shared/money';
import { DEFAULT_MIN_WITHDRAW } from '#shared/rules';
import { createUser } from '../account/users';
import { seedCannedReplies } from '../content/setup';
import type { Deps } from '../deps';
import { seedFunds } from '../funds/seed';
import { post } from '../lib/ledger';
import { hashSecret } from '../lib/passwords';
import { seedMarket } from '../market/seed';
import { seedVapidKeys } from '../notify/vapid';
import { withTx } from './index';
import type { SeedStep } from './seed-step';
import { seedDemoWallet, seedNews } from './seed-wallet';

/** Configuration rows of the demo, inserted only when missing (an operator's change is kept). */
const DEFAULT_CONFIG: Record<string, string> = {
  [CONFIG_TAGS.minWithdraw]: String(DEFAULT_MIN_WITHDRAW),
  [CONFIG_TAGS.currencyUnit]: 'INR',
  [CONFIG_TAGS.currencySymbols]: JSON.stringify({ IN: '₹', US: '$' }),
  [CONFIG_TAGS.rate]: '20',
  [CONFIG_TAGS.languages]: 'en',
  [CONFIG_TAGS.customerService]: '1',
  [CONFIG_TAGS.production]: '1',
};

async function seedConfig({ database }: Deps): Promise<void> {
  for (const [tag, value] of Object.entries(DEFAULT_CONFIG)) {
    await database.db
      .insertInto('config')
      .values({ tag, value })
      .onConflict((oc) => oc.column('tag').doNothing())
      .execute();
  }
}

async function seedInvitation({ database, config, clock }: Deps): Promise<void> {
  await database.db
    .insertInto('invitation_codes')
    .values({ code: config.inviteCode, uses: 0, max_uses: null, created_at: clock.now() })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
}

async function seedDemoUser(deps: Deps): Promise<void> {
  const demo = deps.config.demo;
  if (!demo) return;
  const exists = await deps.database.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', demo.phone)
    .executeTakeFirst();
  if (exists) return;
  const passwordHash = await hashSecret(demo.password, deps.config.scrypt);
  const now = deps.clock.now();
  await withTx(deps.database, async (trx) => {
    const userId = await createUser(trx, { phone: demo.phone, passwordHash, at: now, no: 'B10000001' });
    const amount = toMinor(demo.balance);
    if (amount && amount > 0)
      await post(trx, { userId, amount, reason: 'recharge', refType: 'seed', at: now });
  });
}

/** Steps in order. Domain seeds (market universe, news, funds, IPOs, block items) add theirs here. */
const SEED_STEPS: SeedStep[] = [
  seedConfig,
  seedInvitation,
  seedDemoUser,
  seedMarket,
  seedFunds,
  seedNews,
  seedDemoWallet,
  seedCannedReplies,
  seedVapidKeys,
];

export async function seed(deps: Deps): Promise<void> {
  for (const step of SEED_STEPS) await step(deps);
}
