/**
 * iOS workarounds (SPEC §1). Safari ignores `user-scalable=no`, so multi-touch zoom is blocked by
 * cancelling pinch gestures; `maximum-scale=1` is added on iOS only (it also stops the zoom-in on a
 * focused input), so other browsers keep their accessible zoom. The "opacity fix" nudges WebKit to
 * repaint 100 ms after the page is restored or the keyboard closes, which otherwise can leave a
 * blank or stale screen in standalone mode.
 */
export function isIos(): boolean {
  const ua = navigator.userAgent;
  // iPadOS reports itself as a Mac with touch.
  return /iP(hone|ad|od)/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

function repaint(): void {
  const body = document.body;
  body.style.opacity = '0.99';
  setTimeout(() => {
    body.style.opacity = '';
  }, 100);
}

export function installIosFixes(): boolean {
  if (!isIos()) return false;
  const viewport = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
  if (viewport && !/maximum-scale/.test(viewport.content)) viewport.content += ', maximum-scale=1';
  const block = (e: Event) => e.preventDefault();
  document.addEventListener('gesturestart', block, { passive: false });
  document.addEventListener('gesturechange', block, { passive: false });
  document.addEventListener(
    'touchmove',
    (e) => {
      if (e.touches.length > 1) e.preventDefault();
    },
    { passive: false },
  );
  window.addEventListener('pageshow', repaint);
  document.addEventListener('focusout', (e) => {
    if ((e.target as Element | null)?.matches?.('input, textarea, select')) repaint();
  });
  return true;
}
