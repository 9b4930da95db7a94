/**
 * Publishes several articles in one process through the operator's own `publishNews` (the same
 * sanitiser as `npm run ops -- news:publish`), so a journey can build a multi-page news list
 * without paying one CLI start per article. Reads a JSON array of { title, subhead, html } on
 * standard input; DATABASE_URL names the database.
 *   echo '[{"title":"T","subhead":"S","html":"<p>x</p>"}]' | node --import tsx e2e/tools/publish-news.ts
 */
import { loadConfig } from '../../server/config';
import { publishNews } from '../../server/content/news';
import { createDatabase, migrate } from '../../server/db/index';
import { systemClock } from '../../server/lib/clock';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const articles = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{
  title: string;
  subhead: string;
  html: string;
}>;
const config = loadConfig();
const database = createDatabase(config.databaseUrl, { groupCommit: config.sqliteGroupCommit });
try {
  await migrate(database);
  // Publishing needs only the database and a clock: no market (and no history build) is started.
  const deps = { database, clock: systemClock() };
  const ids: number[] = [];
  for (const a of articles) ids.push(await publishNews(deps, a));
  console.log(JSON.stringify(ids));
} finally {
  await database.close();
}
