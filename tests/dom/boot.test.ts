import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages';
import { type BootTexts, bootScript } from '../../src/shell/boot';

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

function boot(path: string, storage: Record<string, string>) {
  history.replaceState(null, '', path);
  localStorage.clear();
  for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
  document.documentElement.className = '';
  document.documentElement.lang = '';
  document.body.innerHTML = '<div id="boot-title"></div><div id="boot-subtitle"></div>';
  // As the page runs it: a classic script in the global scope.
  new Function(bootScript(texts))();
  return {
    lang: document.documentElement.lang,
    login: document.documentElement.classList.contains('boot-login'),
    title: document.getElementById('boot-title')!.textContent,
    subtitle: document.getElementById('boot-subtitle')!.textContent,
  };
}

const session = (token: string | null) => JSON.stringify({ state: { token, userInfo: null }, version: 0 });

describe('static shell', () => {
  afterEach(() => localStorage.clear());

  it('paints the login header in English by default, on /login and on the start URL', () => {
    for (const path of ['/login', '/']) {
      expect(boot(path, {})).toEqual({
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
      expect(shell).toEqual({ lang: lng, login: true, ...texts[lng] });
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
      expect(boot(path, { 'bourse.language': 'zh' })).toEqual({
        lang: 'zh',
        login: false,
        title: '',
        subtitle: '',
      });
  });

  it('never throws, whatever storage holds', () => {
    expect(boot('/login', { 'bourse.language': 'constructor' })).toMatchObject({ lang: 'en', login: true });
    expect(boot('/login', { 'bourse.language': '__proto__' }).title).toBe('Welcome back');
    // Unreadable session: the skeleton stays (the app decides once it runs).
    expect(boot('/login', { 'bourse.session': '{not json' }).login).toBe(false);
    expect(boot('/login', { 'bourse.session': '42' }).login).toBe(true);
  });
});
