/**
 * Remembered credentials (SPEC §3, settled in DESIGN.md): the phone number is remembered on this
 * device after a successful login so the next login and forgot-password can prefill it. The
 * password only when the user asks, and then encrypted: AES-GCM with a key that cannot be
 * exported, kept in its own IndexedDB store, so localStorage never holds the password itself.
 */
const KEY = 'bourse.remember';
const VAULT = 'bourse-vault';
const KEY_ID = 'remember';

export interface Remembered {
  user: string;
  timestamp: number;
  /** The encrypted password: base64 of the IV and of the ciphertext. */
  secret?: { iv: string; data: string };
}

export function remembered(): Remembered | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Remembered | null;
    return value && typeof value.user === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Remembers the phone number; with a password, encrypts it too, otherwise drops any kept one. */
export async function remember(user: string, password?: string): Promise<void> {
  const entry: Remembered = { user, timestamp: Date.now() };
  if (password) {
    try {
      entry.secret = await encrypt(password);
    } catch {
      // No WebCrypto or IndexedDB (private mode): the phone number alone is still remembered.
    }
  }
  localStorage.setItem(KEY, JSON.stringify(entry));
}

/** The remembered password, or null when none was kept or it can no longer be read. */
export async function recallPassword(): Promise<string | null> {
  const secret = remembered()?.secret;
  if (!secret) return null;
  try {
    const key = await vaultKey(false);
    if (!key) return null;
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(secret.iv) },
      key,
      fromBase64(secret.data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/**
 * Logout (hole 8): the kept password goes — its ciphertext and the device key that
 * could read it — and only the phone number stays remembered. A session that merely expired keeps
 * it: bringing the user back after that is what "Remember password" is for.
 */
export async function forgetPassword(): Promise<void> {
  const saved = remembered();
  if (saved?.secret)
    localStorage.setItem(KEY, JSON.stringify({ user: saved.user, timestamp: saved.timestamp }));
  try {
    await new Promise<void>((resolve, reject) => {
      const del = indexedDB.deleteDatabase(VAULT);
      del.onsuccess = () => resolve();
      del.onerror = () => reject(del.error);
      // Another tab holds the vault open: it is deleted once that tab lets go.
      del.onblocked = () => resolve();
    });
  } catch {
    // No IndexedDB: there was no key to delete.
  }
}

async function encrypt(password: string): Promise<{ iv: string; data: string }> {
  const key = await vaultKey(true);
  if (!key) throw new Error('no key');
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(password));
  return { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

/** The device's key (a non-extractable CryptoKey survives in IndexedDB by structured clone). */
async function vaultKey(create: boolean): Promise<CryptoKey | null> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(VAULT, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('keys');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const request = <T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      const req = run(db.transaction('keys', mode).objectStore('keys'));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  try {
    const existing = await request<CryptoKey | undefined>('readonly', (store) => store.get(KEY_ID));
    if (existing || !create) return existing ?? null;
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    await request('readwrite', (store) => store.put(key, KEY_ID));
    return key;
  } finally {
    db.close();
  }
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
