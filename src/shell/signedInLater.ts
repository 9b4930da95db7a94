/**
 * The signed-in shell's sheets and offers: each shows only once something happens (the server
 * answers after an absence, a money action needs identity, a security change, an install offer),
 * never on a screen's first paint. AppShell loads them once the first screen has shown
 * (src/shell/signedInParts.ts `afterFirstScreen`): on a slow phone their code (dialogs, the PIN
 * field, the wallet's words) was part of Home's start.
 */
export { AwaySheet } from './AwaySheet';
export { InstallOffer, IosGuide } from './HomeScreenOffer';
export { IdentityNeeded } from './IdentityNeeded';
export { SecurityChanged } from './SecurityChanged';
