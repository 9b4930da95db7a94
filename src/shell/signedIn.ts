/**
 * The parts of the shell a signed-in screen shows from its first paint: the bottom navigation, the
 * frozen account's banner, the service button and the inbox watcher (it takes the notices already
 * there as seen: started later it would take a notice that came meanwhile as seen too). AppShell
 * loads them on first use (with the screens' kit: src/build/chunks.ts `appKit`), so the sign-in
 * screen's first chunks carry none of them; a signed-in start asks for them at once (src/main.tsx).
 * The sheets and offers wait until the first screen has shown (src/shell/signedInLater.ts), the
 * lock screen until it is needed (src/shell/signedInParts.ts `loadLockScreen`).
 */
export { BottomNav } from './BottomNav';
export { FrozenBanner } from './FrozenBanner';
export { InboxWatcher } from './Inbox';
export { ServiceButton } from './ServiceButton';
