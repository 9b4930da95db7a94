import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages';
import { type BootTexts, bootScript, EARLY_WORKER, type FirstScreens } from '../../src/shell/boot';

/**
 * The static shell's inline script (index.html, src/shell/boot.ts) paints the login screen's header
 * in the chosen language before any script file arrives — only where the login screen will show,
 * and never breaking the page whatever storage holds.
 */
const texts = Object.fromEntries(
  LANGUAGES.map((lng) => {
    const auth = JSON.parse(fs.readFileSync(`locales/${lng}/auth.json`, 'utf8')).auth.login;
    return [lng, { title: auth.title, subtitle: auth.subtitle }];
  }),
) as BootTexts;

/** A Worker that records how it was made and what it was sent. */
class RecordingWorker extends EventTarget {
  static made: Array<{ url: string; options: unknown }> = [];
  sent: unknown[] = [];
  constructor(url: string | URL, options?: unknown) {
    super();
    RecordingWorker.made.push({ url: String(url), options });
  }
  postMessage(message: unknown) {
    this.sent.push(message);
  }
  terminate() {}
}

const WORKER_URL = '/assets/sync.worker-AbC123.js';

/** A build's first screens, as vite.config.ts writes them: login signed out, home signed in at /. */
const FIRST: FirstScreens = {
  files: ['/a/Login.js', '/a/Home.js', '/a/parts.js', '/a/Home.css', '/a/en-markets.js', '/a/de-core.js'],
  screens: [
    { js: [0], css: [], messages: 0 },
    { js: [1, 2], css: [3], messages: 1 },
  ],
  messages: [
    { en: [], de: [5] },
    { en: [4], de: [5, 4] },
  ],
  paths: { '/': [0, 1], '/login': [0, 1], '/markets': [0, -1] },
};

function boot(path: string, storage: Record<string, string>, workerUrl: string | null = WORKER_URL) {
  history.replaceState(null, '', path);
  for (const link of document.head.querySelectorAll('link')) link.remove();
  localStorage.clear();
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  document.documentElement.className = '';
  document.documentElement.lang = '';
  document.body.innerHTML = '<div id="boot-title"></div><div id="boot-subtitle"></div>';
  // As the page runs it: a classic script in the global scope.
  new Function(bootScript({ texts, worker: workerUrl, first: FIRST }))();
  return {
    lang: document.documentElement.lang,
    login: document.documentElement.classList.contains('boot-login'),
    title: document.getElementById('boot-title')!.textContent,
    subtitle: document.getElementById('boot-subtitle')!.textContent,
    preloads: [...document.head.querySelectorAll('link')].map(
      (l) => `${l.rel}${l.getAttribute('as') ? ` as ${l.getAttribute('as')}` : ''} ${l.getAttribute('href')}`,
    ),
  };
}

const session = (token: string | null) => JSON.stringify({ state: { token, userInfo: null }, version: 0 });

describe('static shell', () => {
  afterEach(() => {
    localStorage.clear();
    delete (window as unknown as Record<string, unknown>)[EARLY_WORKER];
    vi.unstubAllGlobals();
    RecordingWorker.made = [];
  });

  it('paints the login header in English by default, on /login and on the start URL', () => {
    for (const path of ['/login', '/']) {
      expect(boot(path, {})).toMatchObject({
        lang: 'en',
        login: true,
        title: 'Welcome back',
        subtitle: texts.en.subtitle,
      });
    }
  });

  it('paints it in the language the user chose', () => {
    for (const lng of LANGUAGES) {
      const shell = boot('/login', { 'bourse.language': lng });
      expect(shell).toMatchObject({ lang: lng, login: true, ...texts[lng] });
    }
    expect(texts.de.title).toBe('Willkommen zurück');
  });

  it('keeps the neutral skeleton when another screen will show', () => {
    // Signed in: / is home and /login sends home.
    for (const path of ['/', '/login'])
      expect(boot(path, { 'bourse.session': session('t0ken') }).login).toBe(false);
    // A signed-out session left behind by a logout still shows login.
    expect(boot('/login', { 'bourse.session': session(null) }).login).toBe(true);
    // Any other path: its words depend on data the shell does not have.
    for (const path of ['/markets', '/register', '/login/x', '/stock/AAPL'])
      expect(boot(path, { 'bourse.language': 'zh' })).toMatchObject({
        lang: 'zh',
        login: false,
        title: '',
        subtitle: '',
      });
  });

  it('preloads the files of the screen that will show first, as the app’s loader asks for them', () => {
    expect(boot('/', {}).preloads).toEqual(['modulepreload /a/Login.js']);
    expect(boot('/', { 'bourse.session': session('t0ken') }).preloads).toEqual([
      'modulepreload /a/Home.js',
      'modulepreload /a/parts.js',
      'preload as style /a/Home.css',
      'modulepreload /a/en-markets.js',
    ]);
    // In German: its messages in German and, for words it lacks, English.
    expect(boot('/login', { 'bourse.session': session('t0ken'), 'bourse.language': 'de' }).preloads).toEqual([
      'modulepreload /a/Home.js',
      'modulepreload /a/parts.js',
      'preload as style /a/Home.css',
      'modulepreload /a/de-core.js',
      'modulepreload /a/en-markets.js',
    ]);
    // Vite's loader matches a preload by its URL and CORS mode: a mismatch would download it twice.
    boot('/', {});
    expect(document.head.querySelector('link')?.crossOrigin).toBe('');
    // Not as if the first paint needed it: the static shell's does not.
    expect(document.head.querySelector('link')?.fetchPriority).toBe('low');
    // A path with parameters, or unknown, or one no screen shows: nothing (src/main.tsx does it).
    for (const path of ['/stock/AAPL', '/nowhere', '/__proto__', '/constructor'])
      expect(boot(path, { 'bourse.session': session('t0ken') }).preloads).toEqual([]);
    expect(boot('/markets', { 'bourse.session': session('t0ken') }).preloads).toEqual([]);
    expect(boot('/markets', {}).preloads).toEqual(['modulepreload /a/Login.js']);
  });

  it('never throws, whatever storage holds', () => {
    expect(boot('/login', { 'bourse.language': 'constructor' })).toMatchObject({ lang: 'en', login: true });
    expect(boot('/login', { 'bourse.language': '__proto__' }).title).toBe('Welcome back');
    // Unreadable session: the skeleton stays (the app decides once it runs).
    expect(boot('/login', { 'bourse.session': '{not json' }).login).toBe(false);
    expect(boot('/login', { 'bourse.session': '42' }).login).toBe(true);
  });

  it('starts the sync worker when the page opens signed in, and the app adopts it', async () => {
    vi.stubGlobal('Worker', RecordingWorker);
    boot('/login', {});
    boot('/markets', { 'bourse.session': session(null) });
    expect(RecordingWorker.made).toEqual([]);
    boot('/markets', { 'bourse.session': session('t0ken') }, null);
    expect(RecordingWorker.made, 'no built worker (development): the app starts it').toEqual([]);

    boot('/markets', { 'bourse.session': session('t0ken') });
    expect(RecordingWorker.made).toEqual([{ url: WORKER_URL, options: { type: 'module', name: 'sync' } }]);
    const early = (window as unknown as Record<string, RecordingWorker>)[EARLY_WORKER]!;
    const { worker } = await import('../../src/api/client');
    worker();
    // The app made no second worker and talks to the shell's.
    expect(RecordingWorker.made).toHaveLength(1);
    expect(early.sent.length).toBeGreaterThan(0);
    expect((window as unknown as Record<string, unknown>)[EARLY_WORKER]).toBeUndefined();
  });
});
