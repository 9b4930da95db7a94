import fs from 'node:fs';
import path from 'node:path';
import { cleanup, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OnboardingChecklist } from '../../src/screens/Home/OnboardingChecklist';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
/** What the onboarding watch answers in a test: its data and whether the first answer is on its way. */
const answer: { data: unknown; loading: boolean } = { data: undefined, loading: true };
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => ({ ...watchResult(answer.data), loading: answer.loading }) };
});

beforeAll(async () => {
  const watch = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../locales/en/watch.json'), 'utf8'));
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: watch } } });
});
afterEach(cleanup);

const show = () =>
  render(
    <MemoryRouter>
      <OnboardingChecklist />
    </MemoryRouter>,
  );

/*
 * Home's checklist: its place kept while the first answer comes, its five steps (fetched as a chunk
 * of their own) once the server says some are to do, nothing once all are done.
 */
describe('onboarding checklist', () => {
  it('keeps its place while loading, shows the steps to do, and leaves when all are done', async () => {
    answer.data = undefined;
    answer.loading = true;
    const { container, unmount } = show();
    expect(container.querySelector('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByTestId('onboarding')).toBeNull();
    unmount();

    answer.data = {
      done: false,
      identity: 2,
      trade_password: true,
      bank_card: false,
      funded: false,
      watchlist: false,
      second_factor: true,
    };
    answer.loading = false;
    show();
    const card = await screen.findByTestId('onboarding');
    expect(card.querySelectorAll('[data-step]').length).toBe(5);
    expect(card.querySelectorAll('[data-done="1"]').length).toBe(2);
    cleanup();

    answer.data = { ...(answer.data as object), done: true };
    const done = show();
    expect(done.container.innerHTML).toBe('');
  });
});
