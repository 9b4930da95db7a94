import { createRoot } from 'react-dom/client';
import { initI18n } from '../i18n/index';
import { applyStoredUpDown } from '../shell/updown';
import '../styles/global.css';
import { Widget } from './Widget';

/**
 * iframe.html: the embeddable quote widget (DESIGN.md) for partner pages and hybrid app shells.
 * `?symbol=` picks the instrument; `market=` (IN, US…) is used for the currency until the quote
 * says otherwise.
 */
async function start(): Promise<void> {
  applyStoredUpDown();
  await initI18n();
  const params = new URLSearchParams(location.search);
  createRoot(document.getElementById('widget')!).render(
    <Widget symbol={(params.get('symbol') ?? '').trim()} market={params.get('market')} />,
  );
}

void start();
