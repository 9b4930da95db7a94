import { BANK_CARD_STATUS, KYC_STATUS } from '#shared/status';
import { publishNews } from '../content/news';
import type { Deps } from '../deps';
import { SEED_ARTICLES } from './seed-news';
import type { SeedStep } from './seed-step';

/** The demo's articles, each published once (an operator's edits and deletions are kept). */
export const seedNews: SeedStep = async (deps) => {
  const { db } = deps.database;
  for (const article of SEED_ARTICLES) {
    const exists = await db
      .selectFrom('news')
      .select('id')
      .where('title', '=', article.title)
      .executeTakeFirst();
    if (exists) continue;
    const id = await publishNews(deps, article);
    const at = deps.clock.now() - article.hoursAgo * 3600_000;
    await db.updateTable('news').set({ created_at: at, updated_at: at }).where('id', '=', id).execute();
  }
};

async function demoUserId(deps: Deps): Promise<number | null> {
  const demo = deps.config.demo;
  if (!demo) return null;
  const row = await deps.database.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', demo.phone)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * A bank card for the demo user to withdraw to, when they have none yet; and their real-name
 * verification approved (the demo's checklist shows "Add funds" done, so its identity
 * step is done too), when they have none — a verification an operator has since changed is kept.
 */
export const seedDemoWallet: SeedStep = async (deps) => {
  const userId = await demoUserId(deps);
  if (userId === null) return;
  const { db } = deps.database;
  const now = deps.clock.now();
  const card = await db
    .selectFrom('bank_cards')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  await db
    .insertInto('kyc')
    .values({
      user_id: userId,
      real_name: 'Demo User',
      id_type: 'idCard',
      id_number: '999988887777',
      id_number_img: '',
      id_number_img_two: '',
      status: KYC_STATUS.approved,
      note: 'demo account, seeded verified',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  if (!card) {
    await db
      .insertInto('bank_cards')
      .values({
        user_id: userId,
        bank: 'State Bank of India',
        branch_bank: 'Fort, Mumbai',
        bank_card: '31250047001234',
        bank_user: 'Demo User',
        ifsc: 'SBIN0000300',
        status: BANK_CARD_STATUS.usable,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
};
