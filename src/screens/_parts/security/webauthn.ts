import type { CallResult } from '../../../shared/call';
import type { WebAuthnOptions } from '../../../shared/contract/security';

/**
 * The WebAuthn ceremonies on the UI thread (the browser offers them to pages only): the options
 * come from the server, or from the sync worker for the app lock offline, and the answer goes back
 * the same way. @simplewebauthn/browser turns the JSON options into the browser's call and its
 * answer into JSON; it is loaded when a ceremony starts, not with the screen.
 */

/** Can this browser make and use passkeys at all (secure context, WebAuthn present)? */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === 'function'
  );
}

/** Loads the browser library ahead (the lock screen: it may have to work offline next). */
export function warmPasskeys(): void {
  if (passkeysSupported()) void import('@simplewebauthn/browser').catch(() => undefined);
}

/** What a refused or cancelled ceremony tells the user. */
function failure(err: unknown): { ok: false; error: string; status: number } {
  const name =
    (err as { name?: string; cause?: { name?: string } } | null)?.cause?.name ?? (err as Error)?.name;
  const code = (err as { code?: string } | null)?.code;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return { ok: false, error: 'core.passkey.cancelled', status: 0 };
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return { ok: false, error: 'errors.passkeyExists', status: 0 };
  return { ok: false, error: 'core.passkey.failed', status: 0 };
}

/** Creates a passkey on this device for the registration options; answers the browser's JSON. */
export async function createPasskey(options: WebAuthnOptions): Promise<CallResult<Record<string, unknown>>> {
  if (!passkeysSupported()) return { ok: false, error: 'core.passkey.unsupported', status: 0 };
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const response = await startRegistration({ optionsJSON: options as never });
    return { ok: true, data: response as unknown as Record<string, unknown> };
  } catch (err) {
    return failure(err);
  }
}

/** Signs the authentication options' challenge with a passkey (user verification required). */
export async function signWithPasskey(
  options: WebAuthnOptions,
): Promise<CallResult<Record<string, unknown>>> {
  if (!passkeysSupported()) return { ok: false, error: 'core.passkey.unsupported', status: 0 };
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const response = await startAuthentication({ optionsJSON: options as never });
    return { ok: true, data: response as unknown as Record<string, unknown> };
  } catch (err) {
    return failure(err);
  }
}
