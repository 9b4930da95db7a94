import { useState } from 'react';
import { call } from '../../api';
import { exactly } from '../../format';
import { useAction, useOps } from '../../hooks';

/**
 * The articles, the draft being written and its preview (the server's sanitised output), and the
 * decisions — publish now or schedule, cancel a scheduled one — through one `useAction`.
 */
export function useNews() {
  const list = useOps('news', {}, 30_000);
  const action = useAction(list.reload);
  const [title, setTitle] = useState('');
  const [subhead, setSubhead] = useState('');
  const [html, setHtml] = useState('');
  const [at, setAt] = useState('');
  const [preview, setPreview] = useState<{ title: string; subhead: string; html: string } | null>(null);
  const draft = () => ({ title, subhead, html, publishAt: at ? new Date(at).getTime() : null });

  async function showPreview() {
    const r = await call('newsPreview', draft());
    action.setError(r.ok ? null : r.error);
    setPreview(r.ok ? r.data : null);
  }
  async function publish() {
    const ok = await action.run(
      'publish',
      () => call('newsPublish', draft()),
      (d) => (d.state === 'published' ? 'Published.' : `Scheduled for ${exactly(d.publishAt)}.`),
    );
    if (!ok) return;
    setTitle('');
    setSubhead('');
    setHtml('');
    setAt('');
    setPreview(null);
  }
  const cancel = (id: number) => void action.run(`cancel:${id}`, () => call('newsCancel', { id }));

  return {
    articles: list.data ?? [],
    busy: action.busy,
    error: action.error,
    note: action.note,
    draft: { title, setTitle, subhead, setSubhead, html, setHtml, at, setAt },
    preview,
    showPreview: () => void showPreview(),
    publish: () => void publish(),
    cancel,
  };
}
