import { createRequire } from 'node:module';
import createDOMPurify, { type DOMPurify } from 'dompurify';

/**
 * jsdom is loaded when the first article is sanitised, not with the server: importing it is about
 * a second of a core, which every operator's console run and every start on a seeded database paid
 * for nothing.
 */
const load = createRequire(import.meta.url);

/**
 * News HTML is sanitised once, when it is stored (DESIGN rule 5), and never modified afterwards:
 * every adjustment happens inside DOMPurify's own pass, through its hooks.
 */
let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier) return purifier;
  const { JSDOM } = load('jsdom') as typeof import('jsdom');
  const { window } = new JSDOM('');
  const p = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  p.addHook('afterSanitizeAttributes', (node) => {
    // Links in articles leave the app without handing it the opener.
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  purifier = p;
  return p;
}

const OPTIONS = {
  USE_PROFILES: { html: true },
  // Article markup is prose: no forms, frames, styles or media that could load or run anything.
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'video',
    'audio',
    'svg',
    'math',
  ],
  FORBID_ATTR: ['style', 'srcset'],
  ALLOW_DATA_ATTR: false,
};

export function sanitizeArticle(html: string): string {
  return instance().sanitize(html, OPTIONS);
}

/** Titles and subheads are plain text (the app renders them as text): one line, no controls. */
export function plainText(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
