import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every class a component names from a CSS module exists in that module. A CSS module's import is
 * typed as a plain record, so `inv.dialogActions` after the rule moved to the kit compiled, ran and
 * left three sheets' buttons unstyled; this finds such a name by reading the files.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });

const cache = new Map<string, Set<string>>();
function classesOf(css: string): Set<string> {
  let found = cache.get(css);
  if (!found) {
    const text = fs.readFileSync(css, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    found = new Set([...text.matchAll(/\.([A-Za-z_][\w-]*)/g)].map((m) => m[1]!));
    cache.set(css, found);
  }
  return found;
}

/** The module each local name stands for: `import s from './x.module.css'`, and the kit's `ui`. */
function modulesOf(file: string, text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(/import (\w+) from '([^']+\.module\.css)'/g))
    found.set(m[1]!, path.resolve(path.dirname(file), m[2]!));
  if (/import \{[^}]*\bui\b[^}]*\} from '(?:\.\.?\/)+ui(?:\/index)?'/.test(text))
    found.set('ui', path.join(SRC, 'ui/ui.module.css'));
  return found;
}

describe('CSS module classes', () => {
  it('every class named in a component is defined in its module', () => {
    const missing = walk(SRC).flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const body = text.replace(/^import [^;]*;$/gm, '');
      return [...modulesOf(file, text)].flatMap(([name, css]) => {
        const defined = classesOf(css);
        const used = [
          ...[...body.matchAll(new RegExp(`\\b${name}\\.([A-Za-z_]\\w*)`, 'g'))].map((m) => m[1]!),
          ...[...body.matchAll(new RegExp(`\\b${name}\\['([\\w-]+)'\\]`, 'g'))].map((m) => m[1]!),
        ];
        return used
          .filter((c) => !defined.has(c))
          .map((c) => `${path.relative(SRC, file)}: ${name}.${c} (${path.relative(SRC, css)})`);
      });
    });
    expect([...new Set(missing)]).toEqual([]);
  });
});
