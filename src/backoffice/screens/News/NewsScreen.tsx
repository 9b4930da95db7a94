import DOMPurify from 'dompurify';
import { exactly } from '../../format';
import { Badge, Button, Card, Empty, Field, Outcome, PageHead, css as s } from '../../ui';
import { useNews } from './useNews';

/**
 * News: an article written here, previewed as the server will store it (its own
 * sanitiser's output, sanitised again before it is shown), published now or at a set time (the decisions: useNews).
 */
export function NewsScreen() {
  const news = useNews();
  const { preview } = news;
  const { title, setTitle, subhead, setSubhead, html, setHtml, at, setAt } = news.draft;

  return (
    <>
      <PageHead
        title="News"
        subtitle="Articles are sanitised on the server; the preview shows exactly what is kept."
      />
      <Outcome error={news.error} note={news.note} />
      <div className={s.grid2}>
        <Card title="Write">
          <div className={s.stack}>
            <Field id="news-title" label="Title">
              <input
                id="news-title"
                className={s.input}
                maxLength={200}
                value={title}
                onChange={(e) => setTitle(e.target.value)}
              />
            </Field>
            <Field id="news-subhead" label="Subhead">
              <input
                id="news-subhead"
                className={s.input}
                maxLength={400}
                value={subhead}
                onChange={(e) => setSubhead(e.target.value)}
              />
            </Field>
            <Field id="news-html" label="Article (HTML)">
              <textarea
                id="news-html"
                className={s.textarea}
                rows={8}
                value={html}
                onChange={(e) => setHtml(e.target.value)}
              />
            </Field>
            <Field id="news-at" label="Publish at (empty: now)">
              <input
                id="news-at"
                type="datetime-local"
                className={s.input}
                value={at}
                onChange={(e) => setAt(e.target.value)}
              />
            </Field>
            <div className={s.row}>
              <Button onClick={news.showPreview} disabled={!title || !html}>
                Preview
              </Button>
              <Button
                tone="primary"
                busy={news.busy === 'publish'}
                onClick={news.publish}
                disabled={!preview}
              >
                {at ? 'Schedule' : 'Publish now'}
              </Button>
            </div>
          </div>
        </Card>
        <Card title="Preview">
          {preview ? (
            <article className={s.article}>
              <h2 className={s.title}>{preview.title}</h2>
              <p className={s.muted}>{preview.subhead}</p>
              {/* The server's sanitised HTML, sanitised again here (DOMPurify) as the app does. */}
              <div
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server and again here
                dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(preview.html) }}
              />
            </article>
          ) : (
            <p className={s.muted}>Preview the article to see it as customers will.</p>
          )}
        </Card>
      </div>
      <div className={s.gap} />
      <Card title="Written here" flush>
        {news.articles.length === 0 ? (
          <Empty>No article yet.</Empty>
        ) : (
          <table className={s.table}>
            <tbody>
              {news.articles.map((n) => (
                <tr key={n.id}>
                  <td className={s.strong}>{n.title}</td>
                  <td className={s.small}>{exactly(n.publishAt)}</td>
                  <td>
                    <Badge
                      tone={n.state === 'published' ? 'ok' : n.state === 'scheduled' ? 'info' : undefined}
                    >
                      {n.state}
                    </Badge>
                  </td>
                  <td className={s.num}>
                    {n.state === 'scheduled' && (
                      <Button
                        small
                        tone="ghost"
                        busy={news.busy === `cancel:${n.id}`}
                        onClick={() => news.cancel(n.id)}
                      >
                        Cancel
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
