import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useLowData } from '../../api/connection';
import { newsArticlePath } from '../../paths';
import { NEWS_PAGE_SIZES } from '../../shared/rules';
import {
  EmptyState,
  IconNews,
  ListStates,
  loadFailed,
  PageHeader,
  Pager,
  Segmented,
  StaleLine,
  ui,
  useDates,
} from '../../ui';
import p from '../_parts/content/content.module.css';
import { type NewsPageSize, useNews } from './useNews';

/** News (SPEC §2): paged list, page sizes 10, 20, 30, 50 (default 10). */
export default function NewsScreen() {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const n = useNews();
  const lowData = useLowData();
  const data = n.list.data;

  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('news.title')} />
      <div className={p.toolbar}>
        <span className={p.toolbarLabel} id="news-size">
          {t('news.perPage')}
        </span>
        <Segmented
          label={t('news.perPage')}
          items={NEWS_PAGE_SIZES.map((s) => ({ value: String(s), label: String(s) }))}
          value={String(n.size)}
          onChange={(v) => n.setSize(Number(v) as NewsPageSize)}
        />
      </div>
      <StaleLine of={n.list} />
      <ListStates
        rows={data?.rows}
        error={loadFailed(n.list.error, 'news.loadFailed')}
        onRetry={n.list.reload}
        skeleton={{ rows: 6, height: 72 }}
        empty={<EmptyState title={t('news.empty')} icon={<IconNews size={28} />} />}
      >
        {(rows) => (
          <>
            <ul className={p.newsList} aria-label={t('news.title')} aria-busy={n.list.loading || undefined}>
              {rows.map((item) => (
                <li key={item.id} className={p.newsItem}>
                  <Link to={newsArticlePath(item.id)} className={p.newsLink}>
                    <span className={p.newsText}>
                      <span className={p.newsTitle}>{item.title}</span>
                      {item.subhead && (
                        <span className={p.newsSub} data-excerpt="">
                          {item.subhead}
                        </span>
                      )}
                      <time className={p.newsTime} dateTime={new Date(item.created_at).toISOString()}>
                        {dateTime(item.created_at)}
                      </time>
                    </span>
                    {item.img && !lowData && (
                      <img className={p.newsThumb} src={item.img} alt="" loading="lazy" />
                    )}
                  </Link>
                </li>
              ))}
            </ul>
            <Pager
              page={n.page}
              pages={n.pages ?? 1}
              onPage={n.setPage}
              labels={{
                nav: t('news.pages'),
                previous: t('news.prev'),
                next: t('news.next'),
                status: t('news.pageOf', { page: n.page, pages: n.pages ?? 1 }),
              }}
            />
          </>
        )}
      </ListStates>
    </main>
  );
}
