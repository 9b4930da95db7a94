import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initI18n, loadAllMessages } from './i18n/index';
import { installIosFixes } from './shell/ios';
import { startUpdates } from './shell/update';
import { applyStoredUpDown } from './shell/updown';
import './styles/global.css';

/** Lets the browser paint and handle input between the start-up steps (no long task on a slow phone). */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Waits until the browser has painted a frame (the static shell of index.html shows at once). */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function start(): Promise<void> {
  applyStoredUpDown();
  installIosFixes();
  await afterPaint();
  await initI18n();
  await yieldToMain();
  const root = createRoot(document.getElementById('root')!);
  // A transition renders in slices, so the first render does not block the main thread.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
  // The service worker is not needed for the first screen: register it once the page has loaded.
  const later = () =>
    setTimeout(() => {
      void startUpdates();
      // The rest of the messages, for the next screens and any toast (src/i18n).
      void loadAllMessages().catch(() => undefined);
    }, 1000);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

void start();
