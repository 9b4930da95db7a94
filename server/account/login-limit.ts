import type { Deps } from '../deps';
import { addressKey, attempt } from '../lib/attempts';

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
  const { perPhone, perAddress, windowMs } = deps.config.loginLimit;
  return attempt(
    deps.database.db,
    [
      { key: `ip:${addressKey(ip)}`, limit: perAddress, onSuccess: 'release' },
      { key: `phone:${phone}`, limit: perPhone, onSuccess: 'clear' },
    ],
    windowMs,
    deps.clock.now(),
    verify,
  );
}
