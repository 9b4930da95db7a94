import { useEffect } from 'react';
import { create } from 'zustand';
import { call } from '../api/client';
import type { SecurityChange } from '../shared/contract/security';

/**
 * "Your security changed": a factor added or removed, new recovery codes or a password
 * reset made from another device is shown at the next sign-in of every other device — the inbox
 * alone is read by whoever holds a session, a thief too — with when and from where, until this
 * device acknowledges it ("It was me"); "Review" leads to Sign-in & security and leaves it for the
 * next start. The store and its read start with the shell; the sheet (SecurityChanged.tsx) loads with
 * the signed-in parts of the shell.
 */
export const useChanges = create<{ changes: SecurityChange[] }>(() => ({ changes: [] }));

/** Sessions whose changes were read already: the shell wraps each route anew, one read per session. */
const read = new Set<string>();

/**
 * Reads the session's unacknowledged changes once. Called by AppShell after it handed the worker
 * the token (a child's effect would run first, before the worker has it).
 */
export function useSecurityChangesLoad(session: string | null): void {
  useEffect(() => {
    if (session === null || read.has(session)) return;
    read.add(session);
    // Another session's (a sign-out and in on this tab) are not this one's.
    useChanges.setState({ changes: [] });
    void call('securityChanges', {}).then((r) => {
      // An answer without a list (an older server) shows no sheet rather than breaking the shell.
      if (r.ok && Array.isArray(r.data)) useChanges.setState({ changes: r.data });
    });
  }, [session]);
}
