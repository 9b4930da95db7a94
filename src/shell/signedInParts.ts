/** The signed-in parts of the shell (src/shell/signedIn.ts): fetched once, on first use or at a signed-in start. */
let parts: Promise<typeof import('./signedIn')> | null = null;
export function loadSignedInParts(): Promise<typeof import('./signedIn')> {
  parts ??= import('./signedIn').catch((error: unknown) => {
    // A failed fetch (the connection) is tried again at the next use.
    parts = null;
    throw error;
  });
  return parts;
}
