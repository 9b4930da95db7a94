import { describe, expect, it } from 'vitest';
import { contract } from '#shared/contract/index';
import { runtimeCaching } from '../../workers/sw-cache';

/** DESIGN: the service worker never caches a private API answer in Cache Storage. */
describe('service worker cache rules', () => {
  const API = '/api';
  const rules = runtimeCaching(API);
  const origin = 'https://bourse.example';
  const cached = (url: string) => rules.filter((r) => r.urlPattern.test(url)).map((r) => r.options.cacheName);
  const urlOf = (path: string, query = '') => `${origin}${API}${path.replace(/:\w+/g, '12')}${query}`;

  it('no call that needs a session is cached, with or without a query, nor an identity photo', () => {
    const privateCalls = Object.entries(contract).filter(([, e]) => e.auth);
    expect(privateCalls.length).toBeGreaterThan(30);
    for (const [name, e] of privateCalls) {
      expect([name, cached(urlOf(e.path))]).toEqual([name, []]);
      expect([name, cached(urlOf(e.path, '?page=1&limit=10'))]).toEqual([name, []]);
    }
    expect(cached(urlOf('/stock/success/upload/abc123.jpg'))).toEqual([]);
    expect(cached(urlOf('/stock/success/upload/abc123'))).toEqual([]);
  });

  it('the news and its pictures are cached (so the check above can fail)', () => {
    expect(cached(urlOf(contract.newsList.path, '?page=2&limit=10'))).toEqual(['bourse-news']);
    expect(cached(urlOf(contract.newsArticle.path, '?id=3'))).toEqual(['bourse-news']);
    expect(cached(`${origin}/news/nifty-recovery.jpg`)).toEqual(['bourse-images']);
    expect(cached(`${origin}/icons/icon-192.png?v=2`)).toEqual(['bourse-images']);
    expect(cached(urlOf(contract.config.path))).toEqual([]);
  });
});
