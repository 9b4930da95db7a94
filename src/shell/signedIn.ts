/**
 * The parts of the shell only a signed-in user sees: the bottom navigation, the frozen account's
 * banner, the sheets and offers,
 * the inbox watcher, the service button and the lock screen. AppShell and App load them on first
 * use (with the screens' kit: src/build/chunks.ts `appKit`), so the sign-in screen's first chunks
 * carry none of them; a signed-in start asks for them at once (src/main.tsx).
 */
export { AwaySheet } from './AwaySheet';
export { BottomNav } from './BottomNav';
export { FrozenBanner } from './FrozenBanner';
export { InstallOffer, IosGuide } from './HomeScreenOffer';
export { IdentityNeeded } from './IdentityNeeded';
export { InboxWatcher } from './Inbox';
export { LockScreen } from './LockScreen';
export { SecurityChanged } from './SecurityChanged';
export { ServiceButton } from './ServiceButton';
