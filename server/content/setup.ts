import type { SeedStep } from '../db/seed-step';
import type { Job } from '../jobs/job';
import { publishDue } from './news-desk';

/** The staff desk's seed step and job: canned replies to start from, scheduled news. */

const CANNED = [
  {
    title: 'Greeting',
    body: 'Hello, thank you for writing to us. I am looking into this now.',
  },
  {
    title: 'Withdrawal on its way',
    body: 'Your withdrawal has been approved and paid out. Banks usually credit it within 24 hours.',
  },
  {
    title: 'Large withdrawal check',
    body: 'Large withdrawals are checked by two members of our team before they are sent. Yours is in that check now; we will write as soon as it is done.',
  },
  {
    title: 'New ID photos',
    body: 'We could not read your ID photos. Please open Settings → Real-name verification and upload new, sharp photos of the front and the back.',
  },
  {
    title: 'Anything else?',
    body: 'Is there anything else I can help you with?',
  },
];

/** The first canned replies, written once (an admin's later edits are kept). */
export const seedCannedReplies: SeedStep = async ({ database, clock }) => {
  const any = await database.db.selectFrom('canned_replies').select('id').limit(1).executeTakeFirst();
  if (any) return;
  await database.db
    .insertInto('canned_replies')
    .values(CANNED.map((c) => ({ ...c, created_at: clock.now() })))
    .execute();
};

/** Publishes scheduled articles whose time has come. */
export const CONTENT_JOBS: Job[] = [
  {
    name: 'news:scheduled',
    everyMs: 5000,
    async run(deps) {
      await publishDue(deps);
    },
  },
];
