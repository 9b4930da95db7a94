import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Design tokens live in one place (DESIGN "Look and feel"): every colour and font size is a
 * variable of src/styles/tokens.css (the back office's: src/backoffice/tokens.css; what both share:
 * src/common/tokens.css), so a theme or
 * a contrast fix changes one line.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
const COLOUR = /#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(/;
const RAW_FONT_SIZE = /font-size:\s*\d/;

function offences(file: string, text: string): string[] {
  const rel = path.relative(SRC, file);
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .flatMap((line, i) =>
      (file.endsWith('.css') && (COLOUR.test(line) || RAW_FONT_SIZE.test(line))) ||
      (/\.tsx?$/.test(file) && /['"`]#[0-9a-fA-F]{3,8}['"`]/.test(line))
        ? [`${rel}:${i + 1}: ${line.trim()}`]
        : [],
    );
}

/**
 * Inline styles only for computed values: a `style={{ … }}` whose every value is a literal (a
 * string or a number) belongs in the CSS module.
 */
const STYLE = /style=\{\{([^{}]*)\}\}/g;
const LITERAL = /^\s*(?:'[^'$]*'|"[^"$]*"|-?\d+(?:\.\d+)?)\s*$/;
function staticStyles(file: string, text: string): string[] {
  const rel = path.relative(SRC, file);
  return [...text.matchAll(STYLE)].flatMap((m) => {
    const values = m[1]!
      .split(',')
      .filter((p) => p.trim())
      .map((p) => (p.includes(':') ? p.slice(p.indexOf(':') + 1) : p));
    return values.length > 0 && values.every((v) => LITERAL.test(v))
      ? [`${rel}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`]
      : [];
  });
}

describe('design tokens', () => {
  // Each app has one token file: the app's, and the back office's (src/backoffice, a build of its own),
  // and both import the one they share (src/common).
  const files = walk(SRC).filter(
    (f) =>
      /\.(css|tsx?)$/.test(f) &&
      !f.endsWith(path.join('styles', 'tokens.css')) &&
      !f.endsWith(path.join('backoffice', 'tokens.css')) &&
      !f.endsWith(path.join('common', 'tokens.css')),
  );

  it('no colour or raw font size outside tokens.css', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => offences(f, fs.readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('inline styles only where a value is computed', () => {
    const tsx = files.filter((f) => f.endsWith('.tsx'));
    expect(tsx.flatMap((f) => staticStyles(f, fs.readFileSync(f, 'utf8')))).toEqual([]);
    expect(staticStyles('/x/a.tsx', "<div style={{ padding: '0 16px' }} />")).toHaveLength(1);
    expect(staticStyles('/x/a.tsx', '<div style={{ gap: 6, margin: 0 }} />')).toHaveLength(1);
    const computed = ['<div style={{ width: `$', '{share}%` }} />'].join('');
    expect(staticStyles('/x/a.tsx', computed)).toEqual([]);
    expect(staticStyles('/x/a.tsx', '<div style={{ width, height }} />')).toEqual([]);
  });

  it('no CSS module composes from another file (Vite would copy that whole file into this one)', () => {
    const crossFile = /composes:[^;]*\bfrom\b/;
    const css = files.filter((f) => f.endsWith('.css'));
    expect(css.filter((f) => crossFile.test(fs.readFileSync(f, 'utf8')))).toEqual([]);
    expect(crossFile.test("composes: cardList from '../ui/ui.module.css';")).toBe(true);
    expect(crossFile.test('composes: plainList;')).toBe(false);
  });

  it('type sizes are in rem: text follows the phone’s text size', () => {
    const tokens = fs.readFileSync(path.join(SRC, 'styles', 'tokens.css'), 'utf8');
    const sizes = [...tokens.matchAll(/(--fs-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]);
    expect(sizes.length).toBeGreaterThanOrEqual(7);
    expect(sizes.filter(([, v]) => !/^\d*\.?\d+rem$/.test(v!))).toEqual([]);
  });

  it('the check catches each kind (it can fail)', () => {
    expect(offences('/x/a.css', '.a { color: #fff; }')).toHaveLength(1);
    expect(offences('/x/a.css', '.a { background: rgb(0 0 0 / 0.1); }')).toHaveLength(1);
    expect(offences('/x/a.css', '.a { font-size: 11px; }')).toHaveLength(1);
    expect(offences('/x/a.tsx', "const c = '#d97706';")).toHaveLength(1);
    expect(offences('/x/a.css', '.a { color: var(--c-text); font-size: var(--fs-sm); }')).toEqual([]);
  });
});
