import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/format';
import { NEWS_PAGE_SIZES } from '../../shared/rules';
import {
  AsOf,
  Button,
  EmptyState,
  ErrorState,
  IconNews,
  PageHeader,
  Segmented,
  SkeletonList,
} from '../../ui';
import p from '../profile/profile.module.css';
import { type NewsPageSize, useNews } from './useNews';

/** News (SPEC §2): paged list, page sizes 10, 20, 30, 50 (default 10). */
export default function NewsScreen() {
  const { t, i18n } = useTranslation();
  const n = useNews();
  const data = n.list.data;

  return (
    <main className={p.page}>
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
      {n.list.stale && (
        <div style={{ padding: '0 16px' }}>
          <AsOf at={n.list.updatedAt} stale />
        </div>
      )}
      {data === undefined ? (
        n.list.error ? (
          <ErrorState message={t('news.loadFailed')} onRetry={n.list.reload} />
        ) : (
          <SkeletonList rows={6} height={72} />
        )
      ) : data.rows.length === 0 ? (
        <EmptyState title={t('news.empty')} icon={<IconNews size={28} />} />
      ) : (
        <>
          <ul className={p.newsList} aria-label={t('news.title')} aria-busy={n.list.loading || undefined}>
            {data.rows.map((item) => (
              <li key={item.id} className={p.newsItem}>
                <Link to={`/news/${item.id}`} className={p.newsLink}>
                  <span className={p.newsText}>
                    <span className={p.newsTitle}>{item.title}</span>
                    {item.subhead && <span className={p.newsSub}>{item.subhead}</span>}
                    <time className={p.newsTime} dateTime={new Date(item.created_at).toISOString()}>
                      {formatDateTime(item.created_at, i18n.language)}
                    </time>
                  </span>
                  {item.img && <img className={p.newsThumb} src={item.img} alt="" loading="lazy" />}
                </Link>
              </li>
            ))}
          </ul>
          <nav className={p.pager} aria-label={t('news.pages')}>
            <Button variant="secondary" disabled={n.page <= 1} onClick={() => n.setPage(n.page - 1)}>
              {t('news.prev')}
            </Button>
            <span className={p.pagerInfo} aria-live="polite">
              {t('news.pageOf', { page: n.page, pages: n.pages ?? 1 })}
            </span>
            <Button
              variant="secondary"
              disabled={n.pages === null || n.page >= n.pages}
              onClick={() => n.setPage(n.page + 1)}
            >
              {t('news.next')}
            </Button>
          </nav>
        </>
      )}
    </main>
  );
}
