import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The four languages of SPEC §1: the same files, the same keys, each top-level key in one file, and every key the code uses exists. */
const ROOT = path.resolve(__dirname, '../../locales');
const LANGS = ['en', 'zh', 'es', 'de'];

function leaves(node: unknown, prefix = ''): string[] {
  if (node === null || typeof node !== 'object') return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
    leaves(v, prefix ? `${prefix}.${k}` : k),
  );
}

function load(lng: string): Record<string, Record<string, unknown>> {
  const dir = path.join(ROOT, lng);
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))]),
  );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe('locales', () => {
  const files = Object.fromEntries(LANGS.map((l) => [l, load(l)]));
  const en = files.en!;

  it('every language has the same files and the same keys', () => {
    for (const lng of LANGS) {
      expect(Object.keys(files[lng]!).sort(), lng).toEqual(Object.keys(en).sort());
      for (const file of Object.keys(en)) {
        expect(leaves(files[lng]![file]).sort(), `${lng}/${file}`).toEqual(leaves(en[file]).sort());
      }
    }
  });

  it('each key belongs to exactly one file', () => {
    const owner = new Map<string, string>();
    for (const [file, tree] of Object.entries(en)) {
      for (const key of leaves(tree)) {
        const clash = [...owner.keys()].find(
          (k) => k === key || k.startsWith(`${key}.`) || key.startsWith(`${k}.`),
        );
        expect(
          clash,
          `${key} (${file}) collides with ${clash} (${clash && owner.get(clash)})`,
        ).toBeUndefined();
        owner.set(key, file);
      }
    }
  });

  it('no translation is empty, and zh/es/de are translated rather than copied English', () => {
    const enLeaves = new Map(Object.values(en).flatMap((tree) => leaves(tree).map((k) => [k, get(tree, k)])));
    for (const lng of LANGS) {
      let same = 0;
      let total = 0;
      for (const tree of Object.values(files[lng]!)) {
        for (const key of leaves(tree)) {
          const value = get(tree, key);
          expect(typeof value === 'string' && value.trim().length > 0, `${lng}:${key}`).toBe(true);
          total += 1;
          if (lng !== 'en' && value === enLeaves.get(key)) same += 1;
        }
      }
      // Brand names, codes and symbols legitimately stay the same; prose must not.
      if (lng !== 'en') expect(same / total, `${lng} identical to English`).toBeLessThan(0.15);
    }
  });

  it('German addresses the user one way, as Sie: no du, dich, dein… and no du-form instructions', () => {
    // The verbs the app's instructions use, in their du-imperative (the Sie form is "Tippen Sie").
    const du =
      /(?<!\p{L})([Dd]u|[Dd]ich|[Dd]ir|[Dd]ein(?:e|en|em|er|es)?|[Tt]ippe|[Ww]ähle|[Pp]rüfe|[Vv]ersuche es|versuche|[Mm]elde|[Gg]ib|[Öö]ffne|[Ff]üge|[Nn]utze|[Vv]erwende|[Ww]arte|[Bb]estätige|[Kk]opiere|[Rr]ichte|[Ss]canne|[Bb]ewahre|[Ww]ische)(?!\p{L})/u;
    const found = Object.values(files.de!).flatMap((tree) =>
      leaves(tree)
        .map((key) => [key, String(get(tree, key))] as const)
        .filter(([, text]) => du.test(text)),
    );
    expect(found).toEqual([]);
  });

  it('every literal key the code translates exists in English', () => {
    const known = new Set(Object.values(en).flatMap((tree) => leaves(tree)));
    const roots = ['src', 'server', 'workers'].map((d) => path.resolve(__dirname, '../..', d));
    const missing: string[] = [];
    const prefixes = new Set(Object.values(en).flatMap((tree) => Object.keys(tree)));
    const quoted = /['"`]([A-Za-z][A-Za-z0-9_]*\.[A-Za-z0-9_.]*[A-Za-z0-9_])['"`]/g;
    const fileLike = /\.(css|tsx?|jsx?|json|html|svg|png|webmanifest|mjs)$/;
    for (const file of roots.flatMap(sourceFiles)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(quoted)) {
        const key = m[1]!;
        if (!prefixes.has(key.split('.')[0]!) || fileLike.test(key)) continue;
        // i18next plurals: `key` with a count resolves to key_one / key_other.
        if (!known.has(key) && !known.has(`${key}_other`))
          missing.push(`${path.relative(process.cwd(), file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

function get(tree: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}
