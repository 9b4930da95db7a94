// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { cleanArticle } from '../../src/screens/NewsArticle/useNewsArticle';

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
