import { S } from './context';
import { hash, unit } from './random';
import type { SessionData } from './session';

/**
 * The seconds of one minute of a session: from the minute's open to its close through its high and
 * low (at hashed seconds), with hashed noise that vanishes at each of those keys, never leaving the
 * minute's range. Up to four (second, price) keys, kept in place between calls.
 */
export class SecondPath {
  private readonly ks = new Int32Array(4);
  private readonly kv = new Int32Array(4);
  private nKeys = 0;

  constructor(private readonly key: number) {}

  /** Sets up the path of minute i of the session `sess` (ordinal k). */
  start(sess: SessionData, k: number, i: number): void {
    const o = sess.P[i]!;
    const c = sess.P[i + 1]!;
    const hi = sess.h[i]!;
    const lo = sess.l[i]!;
    const sh = hi > Math.max(o, c) ? 1 + (hash(this.key, S.SecondHigh, k, i) % 58) : -1;
    let sl = lo < Math.min(o, c) ? 1 + (hash(this.key, S.SecondLow, k, i) % 58) : -1;
    if (sl === sh && sl > 0) sl = sl === 58 ? 57 : sl + 1;
    // Keys in time order: the open, the interior high/low (earlier first), the close.
    let a = sh;
    let av = hi;
    let b = sl;
    let bv = lo;
    if (a < 0 || (b > 0 && b < a)) {
      [a, b, av, bv] = [b, a, bv, av];
    }
    this.ks[0] = 0;
    this.kv[0] = o;
    let n = 1;
    if (a > 0) {
      this.ks[n] = a;
      this.kv[n++] = av;
    }
    if (b > 0) {
      this.ks[n] = b;
      this.kv[n++] = bv;
    }
    this.ks[n] = 59;
    this.kv[n++] = c;
    this.nKeys = n;
  }

  /** Price at second s of minute i (the one `start` set up), within the minute's low and high. */
  price(sess: SessionData, k: number, i: number, s: number): number {
    let j = 0;
    while (j + 2 < this.nKeys && this.ks[j + 1]! <= s) j++;
    const a = this.ks[j]!;
    const b = this.ks[j + 1]!;
    const A = this.kv[j]!;
    const B = this.kv[j + 1]!;
    if (s === a) return A;
    if (s === b) return B;
    const f = (s - a) / (b - a);
    const hi = sess.h[i]!;
    const lo = sess.l[i]!;
    const tri = 1 - Math.abs(2 * f - 1);
    const noise = (unit(hash(this.key, S.Second, k, i, s)) - 0.5) * 0.7 * (hi - lo) * tri;
    return Math.min(hi, Math.max(lo, Math.round(A + (B - A) * f + noise)));
  }
}
