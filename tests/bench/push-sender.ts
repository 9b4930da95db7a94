import { loadConfig } from '../../server/config';
import { createDatabase } from '../../server/db/index';
import { createDeps } from '../../server/deps';
import { startJobs } from '../../server/jobs/index';
import { pushJobs } from '../../server/notify/jobs';

/**
 * The push sender alone in a process of its own, on DATABASE_URL (`npm run bench:push`'s crash
 * test kills it with SIGKILL mid-batch): the `push:send` job as the server's leader runs it.
 */
const config = loadConfig();
const database = createDatabase(config.databaseUrl, { groupCommit: config.sqliteGroupCommit });
const deps = createDeps(config, database);
const stop = startJobs(deps, pushJobs, (msg, err) => console.error(msg, err));
process.on('SIGTERM', () => {
  stop();
  deps.market.stop();
  void database.close().then(() => process.exit(0));
});
