import type { Capability, Me, Role } from '../../src/shared/backoffice';

/**
 * The back office's DOM tests' shared pieces: a signed-in member of staff, and modal dialogs
 * happy-dom can open.
 */

/** A member with a full session and these capabilities (the maker-checker tests' maker and checker). */
export function member(id: number, caps: Capability[], role: Role = 'admin'): Me {
  return {
    id,
    login: `m${id}`,
    name: `Member ${id}`,
    role,
    stage: 'full',
    caps,
    freshUntil: 0,
    expiresAt: 0,
    idleMs: 0,
    factors: { totp: true, passkeys: 0 },
  };
}

/** happy-dom's dialogs: open and close are enough for these pages. */
export function fakeModalDialogs(): void {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
}
