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

/** What an image's last segment ends with: a file of a kind the app shows. */
const IMAGE_FILE = /\.(avif|gif|jpe?g|png|svg|webp)$/i;
/** A path's characters: no scheme, backslash, percent-escape, query or fragment to reinterpret. */
const PATH_CHARS = /^\/[A-Za-z0-9._~/-]{1,300}$/;

/**
 * An article's image as a path of an image on this site, in its normal form (`.` and `..` resolved),
 * or null when it is not one: `//evil.example/x.png` (another host),
 * `https://…` (the app's Content-Security-Policy shows only its own images anyway), `/ops/../..`
 * (climbs out of the site's root), `/\evil`, `%2e%2e`, an empty segment, or no image file at
 * the end. The ops console and the back office publish through it alike.
 */
export function newsImagePath(raw: string): string | null {
  if (!PATH_CHARS.test(raw)) return null;
  const parts: string[] = [];
  for (const segment of raw.slice(1).split('/')) {
    // `//` anywhere: a browser keeps it, and at the start it names another host.
    if (segment === '') return null;
    if (segment === '.') continue;
    if (segment === '..') {
      if (parts.pop() === undefined) return null;
      continue;
    }
    parts.push(segment);
  }
  const path = `/${parts.join('/')}`;
  return IMAGE_FILE.test(path) ? path : null;
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
  const img = article.img == null ? null : newsImagePath(article.img);
  if (article.img != null && img === null)
    throw new Error(
      `Bad image address: ${article.img} (a path of an image on this site, such as /news/a.jpg)`,
    );
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
