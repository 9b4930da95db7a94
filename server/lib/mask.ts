/**
 * Hides all but the last `visible` characters of an account or identity number, keeping its
 * length so the user can still tell two cards apart: "123456789012" → "********9012".
 */
export function maskTail(text: string, visible = 4): string {
  if (text.length <= visible) return text;
  return '*'.repeat(text.length - visible) + text.slice(-visible);
}
