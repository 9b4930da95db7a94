// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import NewsScreen from '../../src/screens/News/NewsScreen';
import NewsArticleScreen from '../../src/screens/NewsArticle/NewsArticleScreen';
import { cleanArticle } from '../../src/screens/NewsArticle/useNewsArticle';
import { fake } from '../support/fake-worker';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

const ITEM = {
  id: 7,
  title: 'Markets close higher',
  subhead: 'Banks lead',
  img: '/uploads/n7.jpg',
  created_at: 1,
};
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string) =>
      watchResult(name === 'newsList' ? { rows: [ITEM], count: 1 } : { ...ITEM, content: '<p>Words</p>' }),
  };
});

/** The worker tells every screen whether low-data mode is on. */
function lowData(on: boolean): void {
  act(() =>
    fake.emit('connection', {
      state: 'online',
      lastGoodAt: Date.now(),
      since: Date.now(),
      lowData: on,
      lowDataBy: on ? 'setting' : null,
    }),
  );
}

beforeAll(async () => {
  await initI18n('all');
});
afterEach(cleanup);

describe.each([
  ['the news list', '/news', <NewsScreen key="list" />],
  ['an article', '/news/7', <NewsArticleScreen key="article" />],
])('low-data mode on %s', (_name, url, element) => {
  it('shows no news image while it is on, and the image again when it is off', async () => {
    render(
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/news" element={element} />
          <Route path="/news/:id" element={element} />
        </Routes>
      </MemoryRouter>,
    );
    await screen.findAllByText('Markets close higher');
    lowData(true);
    expect(document.querySelector('img')).toBeNull();
    lowData(false);
    expect(document.querySelector('img')?.getAttribute('src')).toBe(ITEM.img);
  });
});

describe('article HTML on the client (defence in depth)', () => {
  it('drops scripts, handlers and script URLs, and keeps the words', () => {
    const html = cleanArticle(
      '<p>Plain <strong>words</strong></p><script>alert(1)</script><img src="/a.jpg" onerror="alert(2)">' +
        '<a href="javascript:alert(3)">x</a><style>body{display:none}</style><form><input></form>',
    );
    expect(html).toContain('<p>Plain <strong>words</strong></p>');
    expect(html).not.toMatch(/script|onerror|javascript:|<style|<form/i);
  });

  it('marks an image without a description as decoration, and keeps a given one', () => {
    expect(cleanArticle('<img src="/a.jpg">')).toBe('<img src="/a.jpg" alt="">');
    expect(cleanArticle('<img src="/a.jpg" alt="Index chart">')).toBe('<img src="/a.jpg" alt="Index chart">');
  });
});
