import path from 'node:path';
import { PATHS } from '../paths';
import { ROUTES } from '../routes';

const SRC = `${path.resolve('src')}${path.sep}`;
const WIDGET_ENTRY = path.resolve('src/widget/main.tsx');
const APP_ENTRY = path.resolve('src/main.tsx');
/** The first screen of every signed-out start. */
const SIGN_IN_SCREEN = path.resolve('src/screens/Login/LoginScreen.tsx');
/** The kit's modules; of both apps' (src/common) its icons, which the kit draws with (the QR code stays with its screen). */
const KIT = /[\\/]src[\\/](ui[\\/]|api[\\/]|shell[\\/]|common[\\/]icons)/;
/** What Rolldown's chunking pass tells of the module graph (its `ChunkingContext`). */
interface ChunkingContext {
  getModuleInfo(id: string): {
    importedIds: readonly string[];
    dynamicallyImportedIds: readonly string[];
    importers: readonly string[];
  } | null;
}
/** Per chunking pass, the app's own modules an entry imports, directly or not (static imports). */
const closures = new WeakMap<ChunkingContext, Map<string, Set<string>>>();

function ownModules(ctx: ChunkingContext, entry: string): Set<string> {
  let known = closures.get(ctx);
  if (!known) {
    known = new Map();
    closures.set(ctx, known);
  }
  let modules = known.get(entry);
  if (!modules) {
    const seen = new Set<string>();
    const visit = (m: string) => {
      if (seen.has(m)) return;
      seen.add(m);
      for (const next of ctx.getModuleInfo(m)?.importedIds ?? []) visit(next);
    };
    visit(entry);
    // The app's own modules only (packages stay where sharing puts them).
    modules = new Set([...seen].filter((m) => m.startsWith(SRC)));
    known.set(entry, modules);
  }
  return modules;
}

/**
 * The UI kit, the shell and the worker's client as two chunks every page loads from the start
 * (`kit`, and first `widget-kit`: what the quote widget uses of them and everything that needs).
 * Split by sharing they were seven small chunks a first screen waited for as a second round of
 * requests (bench:ui: login 12 → 7 files, home 18 → 12; on a throttled phone over HTTP/1.1 home's
 * largest paint 4.8 → 4.3 s). The widget (iframe.html, on partner sites) loads only `widget-kit`:
 * one kit chunk made it download the whole kit (107 → 128 KB gzip). Its entry stays out, as its
 * code must run only in iframe.html. What of it the app's start does not need (the widget itself,
 * its sparkline, the config and poll hooks) is `widget-parts`, which the widget and the screens
 * using them load beside it: the sign-in screen does not.
 */
export function widgetKit(id: string, ctx: ChunkingContext): string | null {
  if (id === WIDGET_ENTRY || !ownModules(ctx, WIDGET_ENTRY).has(id)) return null;
  // The widget itself (imported by its entry alone) stays in the entry's chunk: the screens that
  // load `widget-parts` for its sparkline and hooks (Home) do not download it.
  if (ctx.getModuleInfo(id)?.importers.every((m) => m === WIDGET_ENTRY)) return null;
  return startsTheApp(ctx, id) ? 'widget-kit' : 'widget-parts';
}

/** A module every start of the app needs: its entry's, or the sign-in screen's. */
const startsTheApp = (ctx: ChunkingContext, id: string) =>
  ownModules(ctx, APP_ENTRY).has(id) || ownModules(ctx, SIGN_IN_SCREEN).has(id);
/**
 * The rest of the kit in three chunks: what the app's entry and the sign-in screen import (`kit`,
 * every page loads it from the start); what the start screen and the signed-in shell's first parts
 * use (`screen-kit`, fetched beside the first screen that needs it, in the same round of requests);
 * and what only other screens and the later sheets use (`more-kit`: lists, dialogs, the PIN field,
 * the trade-password prompt…). As one chunk, login — which needs none of the second — downloaded
 * all of it; as two, Home downloaded every screen's kit (a third of its own code).
 */
export function appKit(id: string, ctx: ChunkingContext): string | null {
  return KIT.test(id) && startsTheApp(ctx, id) ? 'kit' : null;
}
/** `screen-kit`: of the kit, what the start screen and the signed-in shell's first parts use. */
export function screenKit(id: string, ctx: ChunkingContext): string | null {
  return KIT.test(id) && (ownModules(ctx, START_SCREEN).has(id) || ownModules(ctx, SIGNED_IN_FIRST).has(id))
    ? 'screen-kit'
    : null;
}
/**
 * `more-kit`: the rest of the kit. Its own group, after the others: a group takes in what its
 * modules import that no group before it has taken (Rolldown's `includeDependenciesRecursively`),
 * and one group for both took Home's tabs and dialogs into the chunk of the sheets that use them too.
 */
export function moreKit(id: string, ctx: ChunkingContext): string | null {
  return KIT.test(id) && !startScreenLater(ctx).has(id) ? 'more-kit' : null;
}
const laterOfStart = new WeakMap<ChunkingContext, Set<string>>();
/**
 * What the start screen's own lazy parts import (its value chart, loaded as it first renders): left
 * out of `more-kit` and placed by sharing, so drawing Home's chart does not fetch every screen's kit.
 */
function startScreenLater(ctx: ChunkingContext): Set<string> {
  let later = laterOfStart.get(ctx);
  if (!later) {
    later = new Set();
    for (const m of ownModules(ctx, START_SCREEN))
      if (m.startsWith(SCREENS))
        for (const d of ctx.getModuleInfo(m)?.dynamicallyImportedIds ?? [])
          for (const x of ownModules(ctx, d)) later.add(x);
    laterOfStart.set(ctx, later);
  }
  return later;
}
/** The signed-in shell's parts that a signed-in first screen shows (src/shell/signedIn.ts). */
const SIGNED_IN_FIRST = path.resolve('src/shell/signedIn.ts');
/** The screen at the start URL (the installed app opens there): every signed-in start shows it. */
const START = ROUTES.find((r) => r.path === PATHS.home)!;
const START_SCREEN = path.resolve(`src/screens/${START.screen}/${START.screen}Screen.tsx`);
const SCREENS = `${path.resolve('src/screens')}${path.sep}`;

/**
 * The start screen as one chunk with the screens' parts it uses (`home`), and the message areas it
 * waits for as one file per language (`home-<lang>`). Split by sharing they were five chunks, three
 * stylesheets and two message files: on a phone over HTTP/1.1 (six connections, a round trip each)
 * they were a third wave of requests. The screens that share those parts load `home` for them.
 */
export function startScreen(id: string, ctx: ChunkingContext): string | null {
  if (id.startsWith(SCREENS) && ownModules(ctx, START_SCREEN).has(id)) return 'home';
  const messages = /[\\/]locales[\\/](\w+)[\\/](\w+)\.json$/.exec(id);
  return messages && START.messages?.some((a) => a === messages[2]) ? `home-${messages[1]}` : null;
}
