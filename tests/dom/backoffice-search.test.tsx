import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Search } from '../../src/backoffice/Shell';
import type { CustomerHit } from '../../src/shared/backoffice';

/**
 * The back office's search box (src/backoffice/Shell.tsx): what is typed goes to the server as
 * typed (the server reads its forms), each hit shows its name, phone, account and how it matched,
 * Enter opens the first, and nothing found says so. The network is the back office's own fetch,
 * answered here as the server answers `GET /api/ops/customers`.
 */

const HITS: CustomerHit[] = [
  {
    id: 41,
    phone: '9876501234',
    no: 'B10000041',
    name: 'Asha Rao',
    nameFrom: 'kyc',
    kycStatus: 2,
    balance: '0.00',
    createdAt: 1,
    matched: 'phoneEnd',
  },
  {
    id: 7,
    phone: '9123400077',
    no: 'B10000007',
    name: null,
    nameFrom: null,
    kycStatus: 0,
    balance: '0.00',
    createdAt: 1,
    matched: 'cardEnd',
  },
];

function answer(urls: string[], hits: CustomerHit[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ msg: 'ok', data: hits }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function page() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Search />
      <Routes>
        <Route path="/" element={<p>queues</p>} />
        <Route path="/customers/:id" element={<p>customer page</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByLabelText(/last 4 digits/) as HTMLInputElement;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('back-office customer search box', () => {
  it('sends what is typed, shows each hit with how it matched, and Enter opens the first', async () => {
    const urls: string[] = [];
    answer(urls, HITS);
    const box = page();
    await act(async () => {
      fireEvent.change(box, { target: { value: '+91 98765 01234' } });
    });
    const list = await screen.findByRole('list', { name: 'Customers found' });
    expect(decodeURIComponent(urls.at(-1)!.replace(/\+/g, ' '))).toBe('/api/ops/customers?q=+91 98765 01234');
    const items = list.querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      'Asha Rao9876501234B10000041 · Last 4 of the phone',
      'No name yet9123400077B10000007 · Last 4 of a card',
    ]);
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(screen.getByText('customer page')).toBeTruthy();
  });

  it('says when no customer is found, and asks nothing for a single character', async () => {
    const urls: string[] = [];
    answer(urls, []);
    const box = page();
    await act(async () => {
      fireEvent.change(box, { target: { value: '7' } });
    });
    expect(urls).toEqual([]);
    expect(screen.queryByRole('list', { name: 'Customers found' })).toBeNull();
    await act(async () => {
      fireEvent.change(box, { target: { value: 'Zzyzx' } });
    });
    expect(await screen.findByText('No customer found')).toBeTruthy();
    expect(urls).toHaveLength(1);
  });
});
