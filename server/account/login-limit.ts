import type { Deps } from '../deps';
import { type FactorOwner, factorGuesses, type Guard } from '../factors/index';
import { type AttemptKey, addressKey, attempt } from '../lib/attempts';

/** The caller's address (IPv6: its /64): every guess from it, password or factor, counts here. */
function addressGuesses(deps: Deps, ip: string): AttemptKey {
  const { perAddress, windowMs } = deps.config.loginLimit;
  return { key: `ip:${addressKey(ip)}`, limit: perAddress, onSuccess: 'release', windowMs };
}

/**
 * Password guesses (login, forgot-password, changing the login password) are limited per phone
 * number and per client address (IPv6: per /64) in the database, so the limit holds across API
 * instances and across simultaneous requests: each guess reserves its attempt before the password
 * is checked (lib/attempts.ts). Past the limit the key answers `errors.tooManyAttempts` (429) until
 * its window ends; a right password clears the phone's count.
 */
export function verifyUnderLoginLimit(
  deps: Deps,
  phone: string,
  ip: string,
  verify: () => Promise<boolean>,
): Promise<boolean> {
  const { perPhone, windowMs } = deps.config.loginLimit;
  return attempt(
    deps.database.db,
    [addressGuesses(deps, ip), { key: `phone:${phone}`, limit: perPhone, onSuccess: 'clear' }],
    windowMs,
    deps.clock.now(),
    verify,
  );
}

/**
 * Second-factor guesses (app codes, recovery codes, passkey tries) count per account, apart from
 * passwords, and only time clears them: a right password — which an intruder
 * who holds it gives at will — must not buy more guesses, nor the owner's right code between an
 * intruder's wrong ones. Past FACTOR_LIMIT_ACCOUNT in the window even the right code waits. They
 * count against the address's login limit as well.
 */
export function factorGuard(deps: Deps, owner: FactorOwner, ip: string): Guard {
  const { perAccount, windowMs } = deps.config.factorLimit;
  return (verify) =>
    attempt(
      deps.database.db,
      [addressGuesses(deps, ip), factorGuesses(owner, perAccount, windowMs)],
      windowMs,
      deps.clock.now(),
      verify,
    );
}
