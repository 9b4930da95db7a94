import type { FactorProof, OpsReq } from '../shared/backoffice';
import { call, type Result } from './api';

/**
 * A passkey's answer for the member's session (sign-in's second step or a step-up): the server's
 * challenge, then the browser's prompt. The library is loaded only when a passkey is used.
 */
export async function passkeyProof(): Promise<Result<FactorProof>> {
  const options = await call('passkeyOptions');
  if (!options.ok) return options;
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const passkey = await startAuthentication({ optionsJSON: options.data as never });
    return { ok: true, data: { passkey } };
  } catch {
    return { ok: false, error: 'errors.passkeyRefused', status: 0 };
  }
}

/** A new passkey made for the member (enrolment). */
export async function passkeyRegistration(): Promise<Result<OpsReq<'passkeyRegister'>['response']>> {
  const options = await call('passkeyRegisterOptions');
  if (!options.ok) return options;
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    return { ok: true, data: await startRegistration({ optionsJSON: options.data as never }) };
  } catch {
    return { ok: false, error: 'errors.passkeyRefused', status: 0 };
  }
}

/** What a code field holds, as the server takes it (digits only). */
export const codeOf = (text: string) => text.replace(/\D/g, '').slice(0, 6);
