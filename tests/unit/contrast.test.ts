import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every text/fill pair of the design tokens reads at WCAG AA (4.5:1) in all four themes: light and
 * dark, green-up and red-up. The tokens are read from src/styles/tokens.css itself, so a value
 * changed there is measured here (axe in e2e sees only what a journey shows; gradients it skips).
 */
const CSS = fs
  .readFileSync(path.resolve(import.meta.dirname, '../../src/styles/tokens.css'), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '');

type Tokens = Record<string, string>;

/** The declarations of the block that opens right after `at` (from its `{` to the matching `}`). */
function block(text: string, at: number): { body: string; end: number } {
  const open = text.indexOf('{', at);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return { body: text.slice(open + 1, i), end: i };
  }
  throw new Error('unbalanced tokens.css');
}

function declarations(body: string): Tokens {
  const out: Tokens = {};
  for (const m of body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) out[m[1]!] = m[2]!.trim();
  return out;
}

/** The root, red-up, and the same two under the dark media query. */
function parse(): Record<'light' | 'lightRedUp' | 'dark' | 'darkRedUp', Tokens> {
  const dark = CSS.indexOf('@media (prefers-color-scheme: dark)');
  expect(dark).toBeGreaterThan(0);
  const top = CSS.slice(0, dark);
  const media = block(CSS, dark).body;
  const pick = (text: string, selector: RegExp): Tokens => {
    const m = selector.exec(text);
    return m ? declarations(block(text, m.index).body) : {};
  };
  const ROOT = /:root\s*\{/;
  const RED = /:root\[data-updown='red-up'\]\s*\{/;
  const light = pick(top, ROOT);
  const darkRoot = { ...light, ...pick(media, ROOT) };
  return {
    light,
    lightRedUp: { ...light, ...pick(top, RED) },
    dark: darkRoot,
    darkRedUp: { ...darkRoot, ...pick(media, RED) },
  };
}

function resolve(tokens: Tokens, name: string): string {
  let value = tokens[name];
  while (value?.startsWith('var(')) value = tokens[value.slice(4, -1).trim()];
  if (!value) throw new Error(`no token ${name}`);
  return value;
}

function luminance(hex: string): number {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** [text, fill]: each text token on each fill it is drawn on somewhere in the app. */
const PAIRS: [string, string][] = [
  ...['--c-bg', '--c-surface', '--c-surface-2'].flatMap((fill) =>
    ['--c-text', '--c-text-2', '--c-text-3', '--c-primary'].map((text): [string, string] => [text, fill]),
  ),
  ...['--c-up', '--c-down', '--c-danger', '--c-success', '--c-warn'].flatMap((text) =>
    ['--c-bg', '--c-surface'].map((fill): [string, string] => [text, fill]),
  ),
  // A stale as-of time (warn) may sit on a raised fill or on the balance strip (primary-soft).
  ['--c-warn', '--c-surface-2'],
  ...['--c-text', '--c-text-2', '--c-text-3', '--c-warn'].map((text): [string, string] => [
    text,
    '--c-primary-soft',
  ]),
  // Filled buttons, toasts, badges, % pills, step dots, chat bubbles.
  ['--c-primary-ink', '--c-primary'],
  ...['--c-primary', '--c-danger', '--c-success', '--c-up', '--c-down', '--c-text-3'].map(
    (fill): [string, string] => ['--c-on-accent', fill],
  ),
  // Buy and sell buttons write in the page colour.
  ['--c-bg', '--c-up'],
  ['--c-bg', '--c-down'],
  // Soft fills with their own hue.
  ['--c-primary', '--c-primary-soft'],
  ['--c-up', '--c-up-soft'],
  ['--c-down', '--c-down-soft'],
  ['--c-danger', '--c-danger-soft'],
  ['--c-danger', '--c-down-soft'],
  ['--c-warn', '--c-warn-soft'],
];

/**
 * [part, fill]: lines and marks a user needs to see a control or a figure by (WCAG 1.4.11), at
 * 3:1: a field's border, an unticked circle and a range's track on the page and its cards; the
 * chosen option's ring on its track, a tab's underline and a ticked circle; a progress fill on
 * its track.
 */
const NON_TEXT: [string, string][] = [
  ...['--c-bg', '--c-surface', '--c-surface-2', '--c-primary-soft'].map((fill): [string, string] => [
    '--c-line-strong',
    fill,
  ]),
  ['--c-track', '--c-surface'],
  ['--c-track', '--c-surface-2'],
  ['--c-primary', '--c-surface'],
  ['--c-primary', '--c-surface-2'],
  ['--c-primary', '--c-bg'],
  // Progress: the fill (primary: an upload; text-3: a fund's sold share) on the light track.
  ['--c-primary', '--c-surface-2'],
  ['--c-text-3', '--c-surface-2'],
];

describe('colour contrast of the tokens', () => {
  const themes = parse();

  it.each(Object.keys(themes))('%s: every text/fill pair is at least 4.5:1', (name) => {
    const t = themes[name as keyof typeof themes];
    const low = PAIRS.map(([text, fill]) => ({
      text,
      fill,
      ratio: contrast(resolve(t, text), resolve(t, fill)),
    }))
      .filter((p) => p.ratio < 4.5)
      .map((p) => `${p.text} on ${p.fill}: ${p.ratio.toFixed(2)}`);
    expect(low).toEqual([]);
  });

  it.each(Object.keys(themes))('%s: every control line and mark is at least 3:1 on its fill', (name) => {
    const t = themes[name as keyof typeof themes];
    const low = NON_TEXT.map(([part, fill]) => ({
      part,
      fill,
      ratio: contrast(resolve(t, part), resolve(t, fill)),
    }))
      .filter((p) => p.ratio < 3)
      .map((p) => `${p.part} on ${p.fill}: ${p.ratio.toFixed(2)}`);
    expect(low).toEqual([]);
  });

  it.each(Object.keys(themes))(
    '%s: hero text is at least 4.5:1 on every stop of both hero gradients',
    (name) => {
      const t = themes[name as keyof typeof themes];
      const ink = resolve(t, '--c-hero-ink');
      const stops = ['--g-hero', '--g-hero-deep'].flatMap((g) =>
        [...resolve(t, g).matchAll(/#[0-9a-fA-F]{3,6}\b|var\((--[\w-]+)\)/g)].map((m) =>
          m[1] ? resolve(t, m[1]) : m[0],
        ),
      );
      expect(stops.length).toBeGreaterThanOrEqual(6);
      expect(stops.filter((s) => contrast(ink, s) < 4.5)).toEqual([]);
    },
  );

  it('measures like WCAG (it can fail)', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#34d399')).toBeLessThan(2);
    expect(contrast('#777', '#777')).toBe(1);
  });
});
