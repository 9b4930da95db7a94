import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import { PAGE_SIZE } from '#shared/rules';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { notFound } from '../lib/errors';
import { newsCache } from './news-cache';
import { plainText, sanitizeArticle } from './sanitize';

/** News: the list (first pages cached serialised, content/news-cache.ts), articles, publishing. */

export async function newsPage(deps: Deps, input: ReqOf<typeof contract.newsList>) {
  const { db } = deps.database;
  const limit = input.limit ?? PAGE_SIZE;
  const page = input.page ?? 1;
  return newsCache(deps.database).page(page, limit, async () => {
    const [rows, total] = await Promise.all([
      db
        .selectFrom('news')
        .select(['id', 'title', 'subhead', 'img', 'created_at', 'updated_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      db
        .selectFrom('news')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  });
}

export async function newsArticle(deps: Deps, id: number) {
  const row = await deps.database.db.selectFrom('news').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Publishes an article: the HTML is sanitised before it is stored and never touched again. */
export async function publishNews(
  deps: Pick<Deps, 'database' | 'clock'>,
  article: { title: string; subhead: string; html: string; img?: string | null },
  db: Kysely<DB> = deps.database.db,
): Promise<number> {
  const title = plainText(article.title);
  const subhead = plainText(article.subhead);
  const content = sanitizeArticle(article.html);
  if (!title || title.length > 200) throw new Error('A title of 1 to 200 characters is required');
  if (subhead.length > 400) throw new Error('The subhead is longer than 400 characters');
  if (!content.trim()) throw new Error('The article has no content left after sanitising');
  const img = article.img ?? null;
  // Article images are the app's own files or https addresses, never script or data URLs.
  if (img !== null && !/^(\/[\w./-]+|https:\/\/[^\s"'<>]+)$/.test(img))
    throw new Error(`Bad image address: ${img}`);
  const now = deps.clock.now();
  const row = await db
    .insertInto('news')
    .values({ title, subhead, img, content, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The server in this process shows it at once; one in another process within its version check.
  newsCache(deps.database).invalidate();
  return row.id;
}
