import { expect, type Page } from '@playwright/test';

/**
 * What a screen looks like to someone who cannot scroll it sideways: measured in the page
 * on the screen as laid out, at the top and scrolled to the end. Each finding names the text or
 * control and why; the e2e lists them per language and width, so a figure can be compared.
 *
 * - `sideways`: the page itself scrolls sideways.
 * - `offscreen`: a text or a control runs past the edge of the screen (not inside a part that
 *   scrolls sideways by design: a table, the chart, a tab strip).
 * - `cut`: a text clipped by its own box or a box around it (an ellipsis, a clamp, a fixed width).
 * - `overlap`: two texts drawn over each other.
 * - `strip`: two or three options (a radio group) that do not fit and scroll sideways.
 * - `covered`: the floating service button over a text or control (a bar across the screen, as
 *   the bottom navigation, hides what scrolls under it: not counted).
 * - `broken`: a word split over lines where a reader stumbles: inside a link or button at all
 *   ("Position / s"), elsewhere over three lines or more (a name a letter a line) or leaving a
 *   piece of one letter. A hyphenated title ("Handels- / zeiten") is laid out that way by design.
 */
export type Finding = {
  kind: 'sideways' | 'offscreen' | 'cut' | 'overlap' | 'strip' | 'covered' | 'broken';
  what: string;
};

export async function measureLayout(page: Page): Promise<Finding[]> {
  const atTop = await page.evaluate(inPage);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const atEnd = await page.evaluate(inPage);
  await page.evaluate(() => window.scrollTo(0, 0));
  const seen = new Set<string>();
  return [...atTop, ...atEnd].filter((f) => {
    const key = `${f.kind}|${f.what}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Runs in the page: serialised by Playwright, so it is self-contained. */
function inPage(): Finding[] {
  const out: Finding[] = [];
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const label = (el: Element | null, text?: string) => {
    const t = (text ?? el?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const name = el?.getAttribute('aria-label') ?? '';
    return `${el?.tagName.toLowerCase() ?? '?'} "${t || name}"`;
  };
  const sideways = document.documentElement.scrollWidth - vw;
  if (sideways > 1) out.push({ kind: 'sideways', what: `page is ${sideways}px wider than the screen` });

  const styleOf = new Map<Element, CSSStyleDeclaration>();
  const css = (el: Element) => {
    let st = styleOf.get(el);
    if (!st) {
      st = getComputedStyle(el);
      styleOf.set(el, st);
    }
    return st;
  };
  const fixedOf = (el: Element | null): Element | null => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const p = css(e).position;
      if (p === 'fixed') return e;
    }
    return null;
  };
  /** The bar a text sits on (a fixed or sticky layer over the page), or null in the page's flow. */
  const barOf = (el: Element | null): Element | null => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const p = css(e).position;
      if (p === 'fixed' || p === 'sticky') return e;
    }
    return null;
  };
  /** Hidden on purpose: not rendered, visually-hidden (a 1 px clip), or decorative. */
  const hidden = (el: Element) => {
    for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) {
      const st = css(e);
      if (st.display === 'none' || st.visibility === 'hidden' || Number(st.opacity) === 0) return true;
      if (e.getAttribute('aria-hidden') === 'true' && e.closest('[class*="_skeleton"], [class*="stripCue"]'))
        return true;
      const r = e.getBoundingClientRect();
      if (r.width <= 1 && r.height <= 1) return true;
      if (e.tagName === 'DIALOG' && !(e as HTMLDialogElement).open) return true;
    }
    return false;
  };
  const modal = document.querySelector('dialog[open]');
  const inScope = (el: Element) => (modal ? modal.contains(el) : true);

  /** The rect within every box that clips it; null when it is clipped (and by what). */
  const clipCheck = (el: Element, r: DOMRect): { by: Element; axis: string } | null => {
    for (let a = el; a && a !== document.documentElement; a = a.parentElement as Element) {
      const st = css(a);
      if (st.position === 'fixed') break;
      const ox = st.overflowX;
      const oy = st.overflowY;
      const box = a.getBoundingClientRect();
      const clipsX = ox === 'hidden' || ox === 'clip';
      const clipsY = oy === 'hidden' || oy === 'clip';
      if (clipsX && (r.left < box.left - 1 || r.right > box.right + 1)) return { by: a, axis: 'x' };
      if (clipsY && (r.top < box.top - 1 || r.bottom > box.bottom + 1)) return { by: a, axis: 'y' };
      // A part that scrolls (a table, a tab strip, the chat log): what it holds is reached by scrolling.
      if (ox === 'auto' || ox === 'scroll' || oy === 'auto' || oy === 'scroll') return null;
    }
    return null;
  };
  const inSidewaysScroller = (el: Element) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = css(a).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && a.scrollWidth > a.clientWidth + 1) return true;
    }
    return false;
  };

  // Texts: each text node's lines.
  type Line = { el: Element; r: DOMRect; bar: Element | null; cut: boolean };
  const lines: Line[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const shortened = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent?.trim() || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TITLE'].includes(el.tagName))
      continue;
    if (!inScope(el) || hidden(el)) continue;
    // An excerpt (a news summary) is shortened by design: the article holds the rest.
    if (el.closest('[data-excerpt]')) continue;
    // An ellipsis or a line clamp that had to shorten its text.
    for (let a: Element | null = el; a && a !== document.body && !shortened.has(a); a = a.parentElement) {
      const st = css(a);
      const clamped = st.webkitLineClamp !== 'none' && a.scrollHeight > a.clientHeight + 1;
      const ellipsis = st.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 1;
      if (clamped || ellipsis) {
        shortened.add(a);
        out.push({ kind: 'cut', what: `${label(a)} shortened (${clamped ? 'clamp' : 'ellipsis'})` });
      }
      if (st.display !== 'inline') break;
    }
    range.selectNodeContents(n);
    if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) brokenWords(n, el);
    const bar = barOf(el);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      const what = label(el, n.textContent);
      if ((r.right > vw + 1 || r.left < -1) && !inSidewaysScroller(el))
        out.push({ kind: 'offscreen', what: `${what} ends at ${Math.round(r.right)}px of ${vw}` });
      const clip = clipCheck(el, r);
      if (clip) out.push({ kind: 'cut', what: `${what} clipped (${clip.axis}) by ${label(clip.by, '')}` });
      lines.push({ el, r, bar, cut: clip !== null });
    }
  }
  // Words of a text over several lines: on how many lines each falls, and its pieces' lengths.
  function brokenWords(n: Node, el: Element) {
    const text = n.textContent ?? '';
    const control = el.closest('a[href], button, [role="tab"], [role="radio"]') !== null;
    const piece = document.createRange();
    for (const m of text.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
      // Chinese and Japanese lines break between characters by design.
      if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(m[0])) continue;
      const at = m.index ?? 0;
      piece.setStart(n, at);
      piece.setEnd(n, at + m[0].length);
      if (new Set([...piece.getClientRects()].map((r) => Math.round(r.top))).size < 2) continue;
      // Letters per line (a box of each letter): a piece of one letter is a broken word, not a hyphenation.
      const perLine = new Map<number, number>();
      for (let i = 0; i < m[0].length; i++) {
        piece.setStart(n, at + i);
        piece.setEnd(n, at + i + 1);
        // A letter at a line's end may also give an empty box at the other line: its widest box.
        const r = [...piece.getClientRects()].sort((a, b) => b.width - a.width)[0];
        if (r && r.width >= 1) perLine.set(Math.round(r.top), (perLine.get(Math.round(r.top)) ?? 0) + 1);
      }
      const rows = perLine.size;
      if (rows < 2) continue;
      const shortest = Math.min(...perLine.values());
      if (control || rows >= 3 || shortest <= 1)
        out.push({
          kind: 'broken',
          what: `${label(el, text)}: "${m[0]}" over ${rows} lines [${[...perLine.values()].join(' ')}]`,
        });
    }
  }
  // Controls: a button or link running past the screen's edge or out of a box that clips it.
  const controls = [
    ...document.querySelectorAll('a[href], button, input, select, textarea, [role="tab"], [role="radio"]'),
  ].filter((c) => inScope(c) && !hidden(c));
  for (const c of controls) {
    const r = c.getBoundingClientRect();
    if ((r.right > vw + 1 || r.left < -1) && !inSidewaysScroller(c))
      out.push({ kind: 'offscreen', what: `${label(c)} ends at ${Math.round(r.right)}px of ${vw}` });
    const clip = clipCheck(c.parentElement ?? c, r);
    if (clip && !inSidewaysScroller(c))
      out.push({ kind: 'cut', what: `${label(c)} clipped (${clip.axis}) by ${label(clip.by, '')}` });
  }
  // Texts drawn over each other on one layer (a bar scrolls over the page by design).
  const flow = lines.filter((l) => l.bar === null);
  // A clipped line is not drawn where its box would be: it is counted as cut, not as an overlap.
  const drawn = lines.filter((l) => !l.cut);
  for (let i = 0; i < drawn.length; i++) {
    for (let j = i + 1; j < drawn.length; j++) {
      const a = drawn[i]!;
      const b = drawn[j]!;
      if (a.bar !== b.bar || a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 2) out.push({ kind: 'overlap', what: `${label(a.el)} over ${label(b.el)}` });
    }
  }
  // Two or three options that scroll sideways.
  for (const group of document.querySelectorAll('[role="radiogroup"]')) {
    if (!inScope(group) || hidden(group)) continue;
    const options = group.querySelectorAll('[role="radio"]').length;
    const scroller = group.parentElement;
    if (options <= 3 && scroller && scroller.scrollWidth > scroller.clientWidth + 1)
      out.push({
        kind: 'strip',
        what: `${label(group, group.getAttribute('aria-label') ?? '')} (${options} options) scrolls`,
      });
  }
  // The floating service button over the page (a point under it that a bar across the screen does
  // not also cover).
  const service = [...document.querySelectorAll('[data-service-button]')].find((e) => !hidden(e));
  if (service && !modal) {
    const s = service.getBoundingClientRect();
    const items: Array<{ el: Element; r: DOMRect }> = [
      ...flow.map((l) => ({ el: l.el, r: l.r })),
      ...controls.filter((c) => !barOf(c)).map((c) => ({ el: c, r: c.getBoundingClientRect() })),
    ];
    for (const { el, r } of items) {
      const left = Math.max(r.left, s.left);
      const right = Math.min(r.right, s.right);
      const top = Math.max(r.top, s.top);
      const bottom = Math.min(r.bottom, s.bottom);
      if (right - left < 2 || bottom - top < 2 || bottom < 0 || top > vh) continue;
      const y = (top + bottom) / 2;
      const hit = document.elementFromPoint((left + right) / 2, y);
      if (!hit || !service.contains(hit)) continue;
      // A bar: the same fixed layer is at the screen's other edge on that line.
      const edge = document.elementFromPoint(2, y);
      const bar = fixedOf(service);
      if (edge && bar?.contains(edge) && bar !== service) continue;
      out.push({ kind: 'covered', what: `${label(el)} under the service button` });
    }
  }
  return out;
}

/**
 * A screen has settled: its main content (or a dialog) is there, no placeholder or loading mark
 * remains, and the fonts are in.
 */
export async function settled(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          await document.fonts.ready;
          if (!document.querySelector('main')) return 'no main';
          if (document.querySelector('#root .boot')) return 'boot shell';
          if (document.querySelector('main [class*="_skeleton"]')) return 'skeleton';
          return 'settled';
        }),
      { timeout: 15_000 },
    )
    .toBe('settled');
  // Two frames: what the last answer changed is laid out.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** An in-app navigation, as a link does it (the router follows the history), without a reload. */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({ idx: (window.history.state?.idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}
