import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Lines of the app's own TypeScript (src, server, workers) that match `pattern`, as "file:line:
 * text", leaving out `except` files: for tests that keep a rule written in one place.
 */
export function linesMatching(pattern: RegExp, except: (file: string) => boolean): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) return walk(rel);
      return /\.tsx?$/.test(e.name) ? [rel] : [];
    });
  return ['src', 'server', 'workers']
    .flatMap(walk)
    .filter((f) => !except(f))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .map((line, i) => (pattern.test(line) ? `${f}:${i + 1}: ${line.trim()}` : null))
        .filter((x): x is string => x !== null),
    );
}
