import fs from 'node:fs';
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PATHS, PATTERNS } from '../../src/paths';
import { firstRoute, loadScreen, ROUTES } from '../../src/routes';

/** The screen src/main.tsx starts loading before React: the one the router and the shell will show. */
describe('firstRoute', () => {
  const at = (url: string, signedIn: boolean) => firstRoute(url, signedIn)?.path;

  it('follows the shell’s redirects', () => {
    expect(at('/', false)).toBe(PATHS.login);
    expect(at('/records', false)).toBe(PATHS.login);
    expect(at('/login', true)).toBe(PATHS.home);
    expect(at('/register', false)).toBe(PATHS.register);
    expect(at('/', true)).toBe(PATHS.home);
  });

  it('ranks as the router does, and knows no screen for an unknown path', () => {
    expect(at('/stock/trading/INFY.NS/IN', true)).toBe(PATTERNS.stockTrading);
    expect(at('/stock/v2/INFY.NS/Infosys', true)).toBe(PATTERNS.stockDetail);
    expect(at('/no/such/screen', true)).toBeUndefined();
  });

  it('finds a route by its own path as the router would rank it', () => {
    const statics = ROUTES.filter((r) => !/[:*]/.test(r.path));
    expect(statics.length).toBeGreaterThan(20);
    for (const { path } of statics) {
      const ranked = matchRoutes(
        ROUTES.map((r) => ({ path: r.path })),
        path,
      )?.[0]?.route.path;
      expect(ranked).toBe(path);
      expect(at(path, true)).toBe(path === PATHS.login ? PATHS.home : path);
    }
  });
});

/** A route names its screen; `loadScreen` finds it by the screens' file convention. */
describe('loadScreen', () => {
  it('finds a module for every route’s screen, and refuses a name no screen has', async () => {
    const screens = new Set(ROUTES.map((r) => r.screen));
    for (const screen of screens)
      expect(fs.existsSync(`src/screens/${screen}/${screen}Screen.tsx`), screen).toBe(true);
    const login = await loadScreen({ screen: 'Login' });
    expect(typeof login.default).toBe('function');
    await expect(loadScreen({ screen: 'Nowhere' })).rejects.toThrow('no screen named Nowhere');
  });
});
