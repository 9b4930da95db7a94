import { act, cleanup, render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n, loadAllMessages, loadMessages } from '../../src/i18n/index';

/**
 * Message areas that arrive after the first screen (src/i18n): a screen already on the page shows
 * their words once they are in, re-rendering once for the whole batch — not once per area, which
 * on a phone still starting up re-rendered every translated component for each file.
 */
let renders = 0;
function Shown() {
  const { t } = useTranslation();
  renders++;
  return (
    <p>
      {t('bill.reason.recharge')} / {t('ipo.ordersTitle')}
    </p>
  );
}

/** A component whose words are all among the first areas. */
function Complete() {
  const { t } = useTranslation();
  renders++;
  return <p>{t('common.retry')}</p>;
}

describe('message areas', () => {
  afterEach(cleanup);
  // First: the module's areas are loaded once for the whole file.
  it('a screen that lacks no word is not re-rendered when more areas arrive', async () => {
    await initI18n([]);
    render(<Complete />);
    expect(screen.getByText('Retry')).toBeTruthy();
    const before = renders;
    await act(() => loadMessages(['watch']));
    expect(renders - before).toBe(0);
  });

  it('a shown screen gets the later areas in one re-render', async () => {
    await initI18n([]);
    render(<Shown />);
    expect(screen.getByText('bill.reason.recharge / ipo.ordersTitle')).toBeTruthy();
    const before = renders;
    await act(() => loadAllMessages());
    expect(screen.getByText('Recharge / IPO orders')).toBeTruthy();
    expect(renders - before).toBe(1);
    // Asked again, nothing new arrives and nothing re-renders.
    await act(() => loadAllMessages());
    expect(renders - before).toBe(1);
  });
});
