import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAppPath } from '../paths';

/** A route the worker sent before the app could go there (the shell not yet on screen). */
let pending: string | null = null;
let go: ((path: string) => void) | null = null;

/*
 * Listened for from the module's start, not from the shell's first render: a message that arrives
 * before its listener is lost (a tap that brings the app forward as it starts).
 */
if (typeof navigator !== 'undefined' && navigator.serviceWorker)
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const msg = e.data as { type?: unknown; path?: unknown } | null;
    if (msg?.type !== 'bourse:navigate' || !isAppPath(msg.path)) return;
    if (go) go(msg.path);
    else pending = msg.path;
  });

/**
 * A click on a system notification: the service worker focuses this window and sends the route
 * (public/sw-notify.js); the app goes there in place. Only routes of this app.
 */
export function useNotificationClicks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    go = (path) => navigate(path);
    if (pending !== null) {
      navigate(pending);
      pending = null;
    }
    return () => {
      go = null;
    };
  }, [navigate]);
}
