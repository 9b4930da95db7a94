import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { useState } from 'react';
import { initReactI18next } from 'react-i18next';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionBanner } from '../../src/shell/ConnectionBanner';
import { SkipLink } from '../../src/shell/SkipLink';
import { Button } from '../../src/ui/Button';
import { Dialog } from '../../src/ui/Dialog';
import { PageHeader } from '../../src/ui/PageHeader';
import { Segmented, Tabs } from '../../src/ui/Tabs';
import type { Connection } from '../../workers/network';
import { fake } from '../support/fake-worker';

/**
 * The keyboard and the screen reader: focus back to a dialog's opener, arrow keys in tabs
 * and radio groups, a screen's title and heading, the skip link, the connection banner's region.
 */
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

beforeAll(async () => {
  const dir = path.resolve(__dirname, '../../locales/en');
  const merge = (into: Record<string, unknown>, from: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(from)) {
      const at = into[k];
      if (v && typeof v === 'object' && at && typeof at === 'object')
        merge(at as Record<string, unknown>, v as Record<string, unknown>);
      else into[k] = v;
    }
  };
  const translation = {};
  for (const f of fs.readdirSync(dir))
    merge(translation, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  await i18n
    .use(initReactI18next)
    .init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

function Opener({ removeOpener = false }: { removeOpener?: boolean }) {
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
  return (
    <main>
      <h1 tabIndex={-1}>Watchlist</h1>
      {!gone && (
        <button type="button" onClick={() => setOpen(true)}>
          Delete TCS
        </button>
      )}
      <Dialog
        open={open}
        onClose={() => {
          if (removeOpener) setGone(true);
          setOpen(false);
        }}
        title="Delete?"
      >
        <button type="button">Inside</button>
      </Dialog>
    </main>
  );
}

describe('dialogs', () => {
  it('give the focus back to the control that opened them when they close', () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Delete TCS' });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByRole('dialog', { name: 'Delete?' })).toBeTruthy();
    // The browser moves the focus into a modal dialog.
    screen.getByRole('button', { name: 'Inside' }).focus();
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('give it to the screen’s heading when the opener went with what the dialog did', () => {
    render(<Opener removeOpener />);
    const opener = screen.getByRole('button', { name: 'Delete TCS' });
    opener.focus();
    fireEvent.click(opener);
    screen.getByRole('button', { name: 'Inside' }).focus();
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('button', { name: 'Delete TCS' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Watchlist' }));
  });
});

function Review() {
  const [phase, setPhase] = useState<'review' | 'sending' | 'done'>('review');
  return (
    <main>
      <Dialog open onClose={() => {}} title={phase === 'done' ? 'Order filled' : 'Buy TCS?'}>
        {phase === 'done' ? (
          <p>Bought 1 TCS</p>
        ) : (
          <Button loading={phase === 'sending'} onClick={() => setPhase('sending')}>
            Confirm buy
          </Button>
        )}
        <button type="button" onClick={() => setPhase('done')}>
          Answer arrives
        </button>
      </Dialog>
    </main>
  );
}

describe('an order’s review', () => {
  it('keeps the focus on Confirm while it is sent, then gives it to the outcome’s title', () => {
    render(<Review />);
    const confirm = screen.getByRole('button', { name: 'Confirm buy' });
    confirm.focus();
    fireEvent.click(confirm);
    // Busy: still focused, refusing a second tap (not `disabled`, which drops the focus).
    expect(document.activeElement).toBe(confirm);
    expect(confirm.getAttribute('aria-disabled')).toBe('true');
    expect(confirm.hasAttribute('disabled')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Answer arrives' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Order filled' }));
  });
});

function Choices() {
  const [tab, setTab] = useState<'all' | 'pending' | 'done'>('all');
  const [size, setSize] = useState<'half' | 'full'>('half');
  return (
    <>
      <Tabs
        label="Orders"
        value={tab}
        onChange={setTab}
        items={[
          { value: 'all', label: 'All' },
          { value: 'pending', label: 'Pending', disabled: true },
          { value: 'done', label: 'Done' },
        ]}
      />
      <Segmented
        label="Position"
        value={size}
        onChange={setSize}
        items={[
          { value: 'half', label: 'Half' },
          { value: 'full', label: 'Full' },
        ]}
      />
    </>
  );
}

describe('tabs and radio groups', () => {
  it('are one Tab stop each, the chosen item', () => {
    render(<Choices />);
    const stops = [...document.querySelectorAll('[role="tab"], [role="radio"]')].map((b) => [
      b.textContent,
      b.getAttribute('tabindex'),
    ]);
    expect(stops).toEqual([
      ['All', '0'],
      ['Pending', '-1'],
      ['Done', '-1'],
      ['Half', '0'],
      ['Full', '-1'],
    ]);
  });

  it('move and choose with the arrow keys, wrapping and skipping what is disabled; Home and End', () => {
    render(<Choices />);
    const all = screen.getByRole('tab', { name: 'All' });
    all.focus();
    fireEvent.keyDown(all, { key: 'ArrowRight' });
    const done = screen.getByRole('tab', { name: 'Done' });
    expect(done.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(done);
    fireEvent.keyDown(done, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(all);
    expect(all.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(all, { key: 'End' });
    expect(document.activeElement).toBe(done);
    fireEvent.keyDown(done, { key: 'Home' });
    expect(document.activeElement).toBe(all);

    const half = screen.getByRole('radio', { name: 'Half' });
    half.focus();
    fireEvent.keyDown(half, { key: 'ArrowLeft' });
    const full = screen.getByRole('radio', { name: 'Full' });
    expect(full.getAttribute('aria-checked')).toBe('true');
    expect(full.getAttribute('tabindex')).toBe('0');
    expect(document.activeElement).toBe(full);
  });
});

function Screen({ title, to }: { title: string; to: string }) {
  return (
    <main>
      <PageHeader title={title} />
      <section>
        <Link to={to}>Go</Link>
      </section>
    </main>
  );
}

describe('screens', () => {
  it('name the document after their title and give their heading the focus after a navigation', () => {
    render(
      <MemoryRouter initialEntries={['/a']}>
        <SkipLink />
        <Routes>
          <Route path="/a" element={<Screen title="Markets" to="/b" />} />
          <Route path="/b" element={<Screen title="Settings" to="/a" />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(document.title).toBe('Markets · Bourse');
    // The first screen keeps the browser's own start.
    expect(document.activeElement).toBe(document.body);
    fireEvent.click(screen.getByRole('link', { name: 'Go' }));
    expect(document.title).toBe('Settings · Bourse');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Settings' }));

    // The skip link goes past the title bar to where the content starts.
    fireEvent.click(screen.getByRole('link', { name: 'Skip to main content' }));
    expect(document.activeElement?.tagName).toBe('SECTION');
  });
});

describe('the connection banner', () => {
  it('is a live region in the page before anything is wrong, its text arriving into it', () => {
    const emit = (state: Connection) =>
      act(() =>
        fake.emit('connection', {
          state,
          lastGoodAt: Date.now(),
          since: Date.now(),
          lowData: false,
          lowDataBy: null,
        }),
      );
    emit('online');
    render(<ConnectionBanner />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    emit('offline');
    expect(screen.getByRole('status')).toBe(region);
    expect(region.textContent).toContain('offline');
  });
});
