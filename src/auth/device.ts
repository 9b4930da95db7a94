/**
 * This device's id for the server: random, made once and kept in localStorage, sent
 * with the login so a sign-in from a device the account has not used before is told to the user.
 * It identifies nothing but "the same browser as before"; clearing site data makes a new one.
 */
const KEY = 'bourse.device';

export function deviceId(): string {
  let id = localStorage.getItem(KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = crypto.randomUUID();
    localStorage.setItem(KEY, id);
  }
  return id;
}
