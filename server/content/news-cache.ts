import type { Database } from '../db/index';
import { RawJson } from '../lib/snapshot';

/** Pages kept serialised: the ones the app polls (the news card and the first screens). */
const CACHED_PAGES = 3;
/**
 * How stale a cached page may be when another process (the ops CLI) publishes: at most this often
 * the news table's version (count, newest id, newest update) is read and, if it moved, the pages
 * are dropped. A publish in this process invalidates at once.
 */
export const NEWS_VERSION_CHECK_MS = 1000;

/**
 * The news list's first pages, serialised once per change instead of two queries and a
 * JSON.stringify per request: news changes a few times a day and every app reads it.
 */
class NewsCache {
  private pages = new Map<string, RawJson>();
  /** Bumped by every invalidation: a page loaded across one is not kept. */
  private generation = 0;
  private version: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | null = null;

  constructor(private readonly database: Database) {}

  invalidate(): void {
    this.generation += 1;
    this.pages.clear();
  }

  /** The page's `data` as JSON text; `load` reads it from the database on a miss. */
  async page(page: number, limit: number, load: () => Promise<unknown>): Promise<RawJson> {
    if (page > CACHED_PAGES) return new RawJson(JSON.stringify(await load()));
    if (performance.now() - this.checkedAt >= NEWS_VERSION_CHECK_MS) {
      this.checking ??= this.checkVersion().finally(() => {
        this.checking = null;
      });
      await this.checking;
    }
    const key = `${page}:${limit}`;
    const hit = this.pages.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const text = new RawJson(JSON.stringify(await load()));
    if (generation === this.generation) this.pages.set(key, text);
    return text;
  }

  private async checkVersion(): Promise<void> {
    const row = await this.database.db
      .selectFrom('news')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.max('id').as('id'),
        eb.fn.max('updated_at').as('at'),
      ])
      .executeTakeFirstOrThrow();
    const version = `${row.n}:${row.id}:${row.at}`;
    this.checkedAt = performance.now();
    if (version !== this.version) {
      // Pages read before this check may predate the change it saw.
      this.invalidate();
      this.version = version;
    }
  }
}

const caches = new WeakMap<Database, NewsCache>();

/** The news cache of `database`: the list route reads it, `publishNews` invalidates it. */
export function newsCache(database: Database): NewsCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new NewsCache(database);
    caches.set(database, cache);
  }
  return cache;
}
