import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { firstMessageFiles, LANGUAGES, type Language } from '../i18n/languages';
import { type AppRoute, firstRoute, ROUTES } from '../routes';
import { type BootBuild, type BootTexts, bootScript, type FirstScreens } from '../shell/boot';

/**
 * The entry pages' own stylesheets are written into the page as <style>, so the first paint waits
 * for no stylesheet request (Lighthouse: nothing render-blocking; CSP allows inline styles). The
 * <link> stays with media="not all" — never applied, never blocking: Vite's loader of lazy chunks
 * looks for it before adding the same stylesheet again, which would land later in the cascade
 * than the screens' own styles and override them.
 */
export function inlineEntryCss(): Plugin {
  return {
    name: 'bourse-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"( crossorigin)? href="\/([^"]+\.css)">/g,
          (tag, _c, file) => {
            const asset = bundle[file];
            if (asset?.type !== 'asset') return tag;
            const css =
              typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
            if (css.includes('</style')) return tag;
            return `<style>${css}</style>\n    ${tag.replace('rel="stylesheet"', 'rel="stylesheet" media="not all"')}`;
          },
        );
      },
    },
  };
}

/**
 * What index.html's script preloads at each static path (src/shell/boot.ts): the screen the app's
 * own rule shows there first (`firstRoute`), signed out and in — its chunk and the chunks and
 * stylesheets that chunk imports, less what the page loads anyway — and the message files it waits
 * for in each language (`firstMessageFiles`).
 */
function firstScreens(bundle: Rollup.OutputBundle): FirstScreens {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const byModule = new Map(chunks.flatMap((c) => c.moduleIds.map((m) => [m, c] as const)));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry && c.facadeModuleId === path.resolve('index.html'));
  const loaded = new Set<string>();
  const walk = (chunk: Rollup.OutputChunk, into: Set<string>) => {
    if (into.has(chunk.fileName) || loaded.has(chunk.fileName)) return;
    into.add(chunk.fileName);
    for (const file of chunk.imports) walk(byFile.get(file)!, into);
  };
  if (entry) walk(entry, loaded);

  const files: string[] = [];
  const index = (file: string) => {
    const at = files.indexOf(`/${file}`);
    return at >= 0 ? at : files.push(`/${file}`) - 1;
  };
  const areas = fs.readdirSync('locales/en').map((f) => path.basename(f, '.json'));
  const messageSets = new Map<string, number>();
  const out: FirstScreens = { files, screens: [], messages: [], paths: {} };
  const screenOf = new Map<AppRoute, number>();
  const screen = (route: AppRoute | undefined): number => {
    if (!route) return -1;
    const known = screenOf.get(route);
    if (known !== undefined) return known;
    const module = path.resolve(`src/screens/${route.screen}/${route.screen}Screen.tsx`);
    const chunk = byModule.get(module);
    if (!chunk) throw new Error(`no chunk for the screen of ${route.path} (${module})`);
    const own = new Set<string>();
    walk(chunk, own);
    const css = [...own].flatMap((f) => [...(byFile.get(f)!.viteMetadata?.importedCss ?? [])]);
    const key = JSON.stringify(route.messages ?? null);
    let messages = messageSets.get(key);
    if (messages === undefined) {
      const perLanguage: Partial<Record<Language, number[]>> = {};
      // Areas that share a chunk (the start screen's: `startScreen`) name it once.
      for (const lng of LANGUAGES)
        perLanguage[lng] = [
          ...new Set(
            firstMessageFiles(lng, route.messages, areas).map((p) => {
              const file = byModule.get(path.resolve(p.slice(1)))?.fileName;
              if (!file) throw new Error(`no chunk for ${p}`);
              return index(file);
            }),
          ),
        ];
      messages = out.messages.push(perLanguage) - 1;
      messageSets.set(key, messages);
    }
    const at = out.screens.push({ js: [...own].map(index), css: css.map(index), messages }) - 1;
    screenOf.set(route, at);
    return at;
  };
  for (const { path: p } of ROUTES)
    if (!/[:*]/.test(p)) out.paths[p] = [screen(firstRoute(p, false)), screen(firstRoute(p, true))];
  return out;
}

/**
 * Writes the static shell's script into index.html (src/shell/boot.ts), with the login screen's
 * title and subtitle in every language read from locales/ (the words the screen itself shows),
 * the built worker's file and the first screen's files at each path; and marks the page's scripts
 * as not needed for the first paint.
 */
export function bootShell(): Plugin {
  const texts = Object.fromEntries(
    LANGUAGES.map((lng) => {
      const auth = JSON.parse(fs.readFileSync(`locales/${lng}/auth.json`, 'utf8'));
      return [lng, { title: auth.auth.login.title, subtitle: auth.auth.login.subtitle }];
    }),
  ) as BootTexts;
  return {
    name: 'bourse-boot-shell',
    transformIndexHtml: {
      // After the bundle: the file names are known (none in development).
      order: 'post',
      handler(html, ctx) {
        if (!html.includes('<script data-boot></script>')) return html;
        const bundle = ctx.bundle;
        const worker = Object.keys(bundle ?? {}).find((f) => /(^|\/)sync\.worker-[\w-]+\.js$/.test(f));
        const build: BootBuild = {
          texts,
          worker: worker ? `/${worker}` : null,
          first: bundle ? firstScreens(bundle) : { files: [], screens: [], messages: [], paths: {} },
        };
        return (
          html
            .replace('<script data-boot></script>', `<script>${bootScript(build)}</script>`)
            // The first paint is the static shell's, which needs none of the app's scripts: they are
            // not fetched as if it did (Lighthouse's model of a slow phone then stops counting them
            // as blocking it, which moved its first paint by a second at random).
            .replace(
              /<(script type="module"|link rel="modulepreload")( crossorigin)/g,
              '<$1 fetchpriority="low"$2',
            )
        );
      },
    },
  };
}
