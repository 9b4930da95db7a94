import { describe, expect, it } from 'vitest';
import { FIRST_AREAS, firstMessageFiles } from '../../src/i18n/languages';

/** Which message files a first screen waits for (src/main.tsx fetches them, index.html preloads them). */
describe('firstMessageFiles', () => {
  const all = [...FIRST_AREAS, 'markets', 'portfolio', 'wallet'];

  it('in English: the areas the route names, never the first ones the app carries', () => {
    expect(firstMessageFiles('en', ['markets', 'portfolio'], all)).toEqual([
      '/locales/en/markets.json',
      '/locales/en/portfolio.json',
    ]);
    expect(firstMessageFiles('en', [], all)).toEqual([]);
    expect(firstMessageFiles('en', undefined, all)).toEqual([
      '/locales/en/markets.json',
      '/locales/en/portfolio.json',
      '/locales/en/wallet.json',
    ]);
  });

  it('in another language: the first areas too, each also in English, and every file once', () => {
    const files = firstMessageFiles('de', undefined, all);
    expect(files.filter((f) => f.startsWith('/locales/de/'))).toEqual(
      all.map((a) => `/locales/de/${a}.json`),
    );
    expect(files.filter((f) => f.startsWith('/locales/en/'))).toEqual([
      '/locales/en/markets.json',
      '/locales/en/portfolio.json',
      '/locales/en/wallet.json',
    ]);
    expect(new Set(files).size).toBe(files.length);
    expect(firstMessageFiles('zh', [], all)).toEqual(FIRST_AREAS.map((a) => `/locales/zh/${a}.json`));
  });
});
