/**
 * Remembered credentials (SPEC §3, settled in DESIGN.md): the phone number is remembered on this
 * device after a successful login so the next login and forgot-password can prefill it.
 */
const KEY = 'bourse.remember';

export interface Remembered {
  user: string;
  timestamp: number;
}

export function remembered(): Remembered | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Remembered | null;
    return value && typeof value.user === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function remember(user: string): void {
  localStorage.setItem(KEY, JSON.stringify({ user, timestamp: Date.now() } satisfies Remembered));
}

export function forget(): void {
  localStorage.removeItem(KEY);
}
