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
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
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
  return startsTheApp(ctx, id) ? 'widget-kit' : 'widget-parts';
}

/** A module every start of the app needs: its entry's, or the sign-in screen's. */
const startsTheApp = (ctx: ChunkingContext, id: string) =>
  ownModules(ctx, APP_ENTRY).has(id) || ownModules(ctx, SIGN_IN_SCREEN).has(id);
/**
 * The rest of the kit in two chunks: what the app's entry and the sign-in screen import (`kit`, every
 * page loads it from the start) and what only other screens and the signed-in shell use (`screen-kit`: lists, tabs, money buttons, the trade-password
 * prompt…, fetched beside the first screen that needs it, in the same round of requests). As one
 * chunk, login — which needs none of the second — downloaded all of it.
 */
export function appKit(id: string, ctx: ChunkingContext): string | null {
  if (!KIT.test(id)) return null;
  return startsTheApp(ctx, id) ? 'kit' : 'screen-kit';
}
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
