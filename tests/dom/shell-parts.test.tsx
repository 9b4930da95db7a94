import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import type { AppRoute } from '../../src/routes';
import { AppShell } from '../../src/shell/AppShell';
import { useSession } from '../../src/store/session';

/**
 * The signed-in shell's parts (navigation bar, banner, inbox watcher: src/shell/signedIn.ts) when
 * their code cannot be fetched (a server restarting, a dropped connection, no service worker yet):
 * the screen still shows, the fetch is not repeated render after render, and the next screen asks
 * again. A failed part was forgotten at once and asked for in a loop — thousands of fetches a minute
 * in the deploy journey, the route's Suspense never showing its screen (a blank page).
 */
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => watchResult(undefined) };
});
const reachable = { now: false };
let asked = 0;
vi.mock('../../src/shell/signedInParts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/shell/signedInParts')>();
  return {
    ...real,
    loadSignedInParts: () => {
      asked++;
      return reachable.now ? real.loadSignedInParts() : Promise.reject(new TypeError('Failed to fetch'));
    },
  };
});

beforeAll(async () => {
  await initI18n('all');
});
afterEach(cleanup);

let go: (to: string) => void = () => {};
function Navigator() {
  go = useNavigate();
  return null;
}

describe('signed-in parts that could not be fetched', () => {
  it('leave the screen showing, are not asked for again on the same screen, and are on the next', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    useSession.setState({ token: 't', userInfo: { id: 1, user: '9876543210', login: 1 } });
    const route: AppRoute = { path: '/', screen: 'Home', nav: true };
    render(
      <MemoryRouter>
        <Navigator />
        <AppShell route={route}>
          <p>Home</p>
        </AppShell>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Home')).toBeTruthy();
    for (let i = 0; i < 20; i++)
      await act(async () => {
        await new Promise((r) => setTimeout(r, 0));
      });
    // One load for the parts the screen shows (they share one module), not one per render.
    const onHome = asked;
    expect(onHome).toBeGreaterThan(0);
    expect(onHome).toBeLessThanOrEqual(4);
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();

    reachable.now = true;
    await act(async () => go('/markets'));
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(asked).toBeGreaterThan(onHome);
  });
});
