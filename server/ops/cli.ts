import { loadConfig } from '../config';
import { createDatabase, migrate } from '../db/index';
import { createDeps } from '../deps';
import { followOpsClock } from '../jobs/index';
import { audited } from '../lib/audit-log';
import { BACKUP_COMMANDS } from './commands/backup';
import { COMMANDS } from './commands/index';
import { operatorActor } from './commands/operator';

/**
 * `npm run ops -- <command> [args]`: the operator's console for status changes that need a human
 * (DESIGN rule 4). It works on the same database as the server (DATABASE_URL); every action is
 * written to ops_log, and the decisions to the audit log under the operator's name (OPS_OPERATOR,
 * else the account running it). `npm run ops -- help` lists the commands.
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help') {
    console.log('Usage: npm run ops -- <command> [args]\n');
    for (const c of [...COMMANDS, ...BACKUP_COMMANDS]) console.log(`  ${c.usage.padEnd(44)} ${c.summary}`);
    return name ? 0 : 1;
  }
  // Backups work on the database as a whole: given the configuration, never an opened, migrated one.
  const whole = BACKUP_COMMANDS.find((c) => c.name === name);
  if (whole) {
    try {
      console.log(await whole.run(loadConfig(), args));
      return 0;
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      return 1;
    }
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command: ${name}. Try: npm run ops -- help`);
    return 1;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    // A setting that cannot be meant: its message, not a stack trace.
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
  const database = createDatabase(config.databaseUrl, {
    groupCommit: config.sqliteGroupCommit,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
  try {
    await migrate(database);
    const deps = createDeps(config, database);
    // The demo's and e2e's servers may run on a moved clock (OPS_CLOCK, CLOCK_START: the offset they
    // keep in the database); an operator's decisions are stamped on the same clock as theirs.
    if (!config.production) await followOpsClock.run(deps);
    const { clock } = deps;
    const actor = operatorActor(deps);
    const output = await command.run(deps, args, actor);
    if (command.mutates) {
      await database.db
        .insertInto('ops_log')
        .values({ command: name, args: JSON.stringify(args), created_at: clock.now() })
        .execute();
      // The invocation as typed, under the operator's name (decisions also write their own entry).
      await audited(database, actor, clock.now, async () => ({
        result: undefined,
        entry: { action: `console:${name}`, after: { args } },
      }));
    }
    if (output !== undefined)
      console.log(typeof output === 'string' ? output : JSON.stringify(output, null, 2));
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
