import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import HomeScreen from '../../src/screens/Home/HomeScreen';
import { ServiceButton } from '../../src/shell/ServiceButton';
import { serviceTarget } from '../../src/shell/service';
import { useSession } from '../../src/store/session';
import { useUi } from '../../src/store/ui';

/** Customer service (SPEC §7 `kefu`, §1 flag): where the icon and the floating button go, and when they show. */
let flag = '1';
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => parseConfig([{ tag: 'customer_service', value: flag }]),
}));
let kefu: string | undefined;
const watched: Array<{ name: string; input: unknown }> = [];
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string, input: unknown) => {
      watched.push({ name, input });
      const data = name === 'kefu' ? kefu : name === 'unreadCount' ? { unread_count: 2 } : undefined;
      return watchResult(data);
    },
  };
});
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
const idle = {
  data: undefined,
  error: null,
  loading: false,
  stale: false,
  updatedAt: null,
  reload: () => {},
};
vi.mock('../../src/screens/Home/useHome', () => ({
  useHome: () => ({
    info: idle,
    categories: idle,
    indices: idle,
    cards: [],
    showNews: false,
    news: idle,
    latest: [],
  }),
}));

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  flag = '1';
  kefu = undefined;
  watched.length = 0;
  useSession.setState({ token: 'tok', userInfo: { id: 1, user: '9876543210', login: 1 } });
});
afterEach(cleanup);

const show = () =>
  render(
    <MemoryRouter>
      <ServiceButton />
    </MemoryRouter>,
  );

describe('kefu target', () => {
  it('reads a path as an in-app route and an http(s) address as a URL; anything else is the chat', () => {
    expect(serviceTarget('/customer-service')).toEqual({ kind: 'route', to: '/customer-service' });
    expect(serviceTarget('/news')).toEqual({ kind: 'route', to: '/news' });
    expect(serviceTarget('https://help.example.com/chat?x=1')).toEqual({
      kind: 'url',
      href: 'https://help.example.com/chat?x=1',
    });
    const older = { url: 'https://help.example.com/chat' };
    for (const odd of [undefined, '', 'javascript:alert(1)', '//evil.example', 'ftp://x', 'http://', older]) {
      expect(serviceTarget(odd)).toEqual({ kind: 'route', to: '/customer-service' });
    }
  });
});

describe('floating service button', () => {
  it('goes to the in-app chat by default, with the unread count in its name', () => {
    show();
    const link = screen.getByRole('link', { name: 'Customer service, 2 unread' });
    expect(link.getAttribute('href')).toBe('/customer-service');
    expect(link.getAttribute('target')).toBeNull();
  });

  it('opens the URL kefu gives outside the app', () => {
    kefu = 'https://help.example.com/chat';
    show();
    const link = screen.getByRole('link', { name: /Customer service/ });
    expect(link.getAttribute('href')).toBe('https://help.example.com/chat');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows its name on a bar of its own, the words first in its accessible name (label in name)', () => {
    show();
    const link = screen.getByRole('link', { name: 'Customer service, 2 unread' });
    expect(link.textContent).toBe('Customer service2');
    expect(link.closest('[data-service-bar]')).not.toBeNull();
  });

  it('leaves room after the screen for its bar, kept while a dialog hides it (the page does not move)', () => {
    const { container } = show();
    const room = () => container.querySelectorAll('div[aria-hidden="true"]');
    expect(room()).toHaveLength(1);
    act(() => useUi.getState().openDialog());
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.querySelector('[data-service-bar]')).toBeNull();
    expect(room()).toHaveLength(1);
    act(() => useUi.getState().closeDialog());
  });

  it('is not there when the customer-service flag is off, and asks nothing of the server', () => {
    flag = '0';
    show();
    expect(screen.queryByRole('link')).toBeNull();
    expect(watched.filter((w) => w.input !== null)).toEqual([]);
  });
});

describe('Home quick access', () => {
  it('shows each tile as an icon and its name, no letter marks', () => {
    render(
      <MemoryRouter>
        <HomeScreen />
      </MemoryRouter>,
    );
    const tiles = within(screen.getByRole('region', { name: 'Quick access' })).getAllByRole('link');
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      'Block trading',
      'IPO',
      'QIP',
      'Fund investment',
      'Forex',
      'Futures',
      'Treasury debt',
    ]);
    for (const tile of tiles) expect(tile.querySelector('svg[aria-hidden="true"] path')).not.toBeNull();
  });
});

describe('Home header service icon', () => {
  const home = () =>
    render(
      <MemoryRouter>
        <HomeScreen />
      </MemoryRouter>,
    );

  it('goes where kefu says, like the floating button, with the unread count', () => {
    kefu = 'https://help.example.com/chat';
    home();
    const icon = screen.getByRole('link', { name: 'Customer service, 2 unread' });
    expect(icon.getAttribute('href')).toBe('https://help.example.com/chat');
    expect(icon.getAttribute('target')).toBe('_blank');
    expect(icon.textContent).toBe('2');
  });

  it('is hidden when the customer-service flag is off', () => {
    flag = '0';
    home();
    expect(screen.queryByRole('link', { name: /Customer service/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Settings' })).toBeTruthy();
  });
});
