import { useTranslation } from 'react-i18next';
import { useLowData } from '../../api/connection';
import { PATHS } from '../../paths';
import { AsOf, ErrorState, loadFailed, ObjectStates, PageHeader, Skeleton, ui, useDates } from '../../ui';
import p from '../_parts/content/content.module.css';
import { useNewsArticle } from './useNewsArticle';

/** A news article (SPEC §2): title, subhead, image and sanitised HTML content. */
export default function NewsArticleScreen() {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const { article, html, valid } = useNewsArticle();
  const lowData = useLowData();

  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('news.article')} back={PATHS.news} />
      {!valid ? (
        <ErrorState message={t('errors.notFound')} />
      ) : (
        <ObjectStates
          data={article.data}
          error={loadFailed(article.error, 'news.loadFailed')}
          onRetry={article.reload}
          loading={
            <div
              className={`${p.article} ${p.articleSkeleton}`}
              role="status"
              aria-label={t('common.loading')}
            >
              <Skeleton height={28} />
              <Skeleton height={18} width="70%" />
              <Skeleton height={200} />
              <Skeleton height={14} />
              <Skeleton height={14} />
              <Skeleton height={14} width="80%" />
            </div>
          }
        >
          {(item) => (
            <article className={p.article} aria-labelledby="article-title">
              <h2 id="article-title" className={p.articleTitle}>
                {item.title}
              </h2>
              {item.subhead && <p className={p.articleSub}>{item.subhead}</p>}
              <div className={p.articleMeta}>
                <time dateTime={new Date(item.created_at).toISOString()}>{dateTime(item.created_at)}</time>
                {article.stale && <AsOf at={article.updatedAt} stale />}
              </div>
              {item.img && !lowData && <img className={p.articleImg} src={item.img} alt="" />}
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above (cleanArticle), after the server did too */}
              <div className={p.articleBody} dangerouslySetInnerHTML={{ __html: html }} />
            </article>
          )}
        </ObjectStates>
      )}
    </main>
  );
}
