/**
 * Counter-based randomness: every number is a hash of (seed, instrument, day, minute, …), so any
 * bar can be recomputed on its own, in any order, and comes out the same for the same seed. No
 * generator state is carried between calls, which is what makes history identical for one seed
 * whatever the start time of the server.
 */

/** murmur3's finaliser: a good 32-bit avalanche. */
function fmix(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a key of up to five integers (each below 2^31). */
export function hash(a: number, b = 0, c = 0, d = 0, e = 0): number {
  let h = fmix(a ^ 0x9e3779b9);
  h = fmix(h ^ Math.imul(b | 0, 0xcc9e2d51) ^ 0x27d4eb2f);
  h = fmix(h ^ Math.imul(c | 0, 0x1b873593) ^ 0x165667b1);
  h = fmix(h ^ Math.imul(d | 0, 0x85ebca77) ^ 0xd3a2646c);
  return fmix(h ^ Math.imul(e | 0, 0xc2b2ae3d) ^ 0xfd7046c5);
}

/** FNV-1a of a string: the stable identity of a symbol in every key. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A uniform number in (0, 1) from a hash. */
export function unit(h: number): number {
  return (h + 0.5) / 4_294_967_296;
}

/**
 * Inverse normal CDF (Acklam's rational approximation, relative error below 1.2e-9), used once to
 * fill a quantile table: a table lookup is ten times cheaper than Box–Muller's log, sqrt and cos,
 * and history for the whole catalogue is millions of draws.
 */
function inverseNormal(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

const TABLE_BITS = 16;
const TABLE = new Float64Array((1 << TABLE_BITS) + 1);
for (let i = 0; i <= 1 << TABLE_BITS; i++) {
  TABLE[i] = inverseNormal(Math.min(1 - 1e-7, Math.max(1e-7, (i + 0.5) / ((1 << TABLE_BITS) + 1))));
}

/** A standard normal number from a hash: the quantile table, interpolated on the low 16 bits. */
function gaussOf(h: number): number {
  const i = h >>> 16;
  const f = (h & 0xffff) / 65536;
  return TABLE[i]! + (TABLE[i + 1]! - TABLE[i]!) * f;
}

/** A standard normal number for a key. */
export function normal(a: number, b: number, c: number, d: number): number {
  return gaussOf(hash(a, b, c, d));
}
