import { useEffect } from 'react';
import { worker } from '../api/client';

/** What this app start has loaded already: categories once, messages once per signed-in user. */
const loaded = { categories: false, messagesFor: new Set<number>() };

/**
 * SPEC §4 app start: the categories and the messages load whatever the first route is, so Home,
 * Markets and the chat open on what the device already knows. Failures are ignored (the screens
 * that need the data watch it themselves); the worker keeps what arrives.
 */
export function useStartupLoad(userId: number | null): void {
  useEffect(() => {
    if (!loaded.categories) {
      loaded.categories = true;
      // As a held poll, not a call: Home and Markets watch the same list, and share this request
      // (a call beside their poll asked for it twice while a phone's first screen loaded).
      void worker()
        .prefetch([{ name: 'categoryList', input: {} }])
        .catch(() => {});
    }
    if (userId === null || loaded.messagesFor.has(userId)) return;
    loaded.messagesFor.add(userId);
    // A fresh cached list (30 minutes) is not fetched again.
    void worker()
      .prefetchMessages()
      .catch(() => {});
  }, [userId]);
}
