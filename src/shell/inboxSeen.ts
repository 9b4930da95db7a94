/**
 * The newest inbox item this tab has seen (null until the first answer: older items are not news).
 * Apart from the watcher (src/shell/Inbox.tsx), which loads with the signed-in shell: the logout
 * wipe (src/shell/device.ts) runs from the start.
 */
export const inboxSeen: { id: number | null } = { id: null };

/**
 * Forgets what this tab has seen: called on logout (src/shell/device.ts), so the next user of the
 * device starts from their own inbox rather than being measured against the last user's newest item.
 */
export function resetInboxWatcher(): void {
  inboxSeen.id = null;
}
