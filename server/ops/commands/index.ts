import { CLOCK_OFFSET_TAG } from '../../lib/clock';
import { ACCOUNT_COMMANDS } from './account';
import { AUDIT_COMMANDS } from './audit';
import type { OpsCommand } from './command';
import { CONTENT_COMMANDS } from './content';
import { REVIEW_COMMANDS } from './review';
import { STAFF_COMMANDS } from './staff';
import { fxCommands, ipoCommands } from './trading';
import { WALLET_COMMANDS } from './wallet';

/** Every command; each domain's file here (wallet.ts, …) appends its own. */
const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const COMMANDS: OpsCommand[] = [
  {
    name: 'clock:advance',
    usage: 'clock:advance <n><ms|s|m|h|d>',
    summary: 'move the clock of a server started with OPS_CLOCK=1 forward (demo, e2e)',
    mutates: true,
    async run(deps, [duration]) {
      const m = DURATION.exec(duration ?? '');
      if (!m) throw new Error('Give a duration such as 30d or 90m');
      const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
      const row = await deps.database.db
        .selectFrom('config')
        .select('value')
        .where('tag', '=', CLOCK_OFFSET_TAG)
        .executeTakeFirst();
      const offset = Number(row?.value ?? 0) + ms;
      await deps.database.db
        .insertInto('config')
        .values({ tag: CLOCK_OFFSET_TAG, value: String(offset) })
        .onConflict((oc) => oc.column('tag').doUpdateSet({ value: String(offset) }))
        .execute();
      return `clock offset is now ${offset} ms (a server started with OPS_CLOCK=1 follows within a second)`;
    },
  },
  {
    name: 'log',
    usage: 'log [n]',
    summary: 'the last n operator actions (default 20)',
    mutates: false,
    async run(deps, [n]) {
      return deps.database.db
        .selectFrom('ops_log')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(Number(n) || 20)
        .execute();
    },
  },
  ...REVIEW_COMMANDS,
  ...WALLET_COMMANDS,
  ...CONTENT_COMMANDS,
  ...ipoCommands,
  ...fxCommands,
  ...AUDIT_COMMANDS,
  ...STAFF_COMMANDS,
  ...ACCOUNT_COMMANDS,
];
