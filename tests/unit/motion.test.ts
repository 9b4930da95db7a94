import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Motion never dims text: a label caught mid-fade fails WCAG contrast (and the e2e axe checks, at
 * random). So no stylesheet transitions or animates opacity or a colour; movement (transform), size
 * and a skeleton's shimmer (background-position, no text) are fine.
 */
const root = path.resolve(import.meta.dirname, '../../src');
const cssFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return cssFiles(p);
    return e.name.endsWith('.css') ? [p] : [];
  });

const DIMMING = /\b(all|opacity|color|background|background-color|border-color|filter|fill|stroke)\b/;

/** The body of each `@keyframes name { … }` block (nested braces counted). */
function keyframeBodies(css: string): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  const re = /@keyframes\s+([\w-]+)\s*\{/g;
  for (let m = re.exec(css); m; m = re.exec(css)) {
    let depth = 1;
    let i = re.lastIndex;
    while (depth > 0 && i < css.length) {
      if (css[i] === '{') depth += 1;
      else if (css[i] === '}') depth -= 1;
      i += 1;
    }
    out.push({ name: m[1] ?? '', body: css.slice(re.lastIndex, i - 1) });
  }
  return out;
}

describe('motion keeps text contrast', () => {
  const files = cssFiles(root);

  it('finds the stylesheets', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    const rel = path.relative(root, file);
    const css = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    it(`${rel}: no transition of opacity or colour`, () => {
      const bad = [...css.matchAll(/transition(?:-property)?\s*:\s*([^;}]+)/g)]
        .map((m) => (m[1] ?? '').trim())
        .filter((value) => value !== 'none' && DIMMING.test(value.replace(/\b\d+m?s\b/g, '')));
      expect(bad).toEqual([]);
    });
    it(`${rel}: no keyframes that fade or recolour`, () => {
      const bad = keyframeBodies(css)
        .filter(({ body }) => /(^|[;{\s])(opacity|color|background-color|filter)\s*:/.test(body))
        .map(({ name }) => name);
      expect(bad).toEqual([]);
    });
  }
});

describe('reduced motion', () => {
  it('stops every endless animation: each runs once (an endless one at 1 ms would flicker for ever)', () => {
    const global = fs.readFileSync(path.join(root, 'styles', 'global.css'), 'utf8');
    const at = global.indexOf('@media (prefers-reduced-motion: reduce)');
    expect(at).toBeGreaterThan(0);
    const block = global.slice(at, global.indexOf('\n}', at));
    expect(block).toMatch(/\*,\s*\*::before,\s*\*::after/);
    expect(block).toMatch(/animation-iteration-count:\s*1\s*!important/);
    // Some animations are endless (a spinner, a skeleton's shimmer): the rule above is what stops them.
    const endless = cssFiles(root).filter((f) =>
      /animation:[^;]*\binfinite\b/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(endless.length).toBeGreaterThan(0);
  });
});
