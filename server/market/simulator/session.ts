import type { Session } from '../hours';
import { S } from './context';
import type { Bar } from './history';
import { hash, normal, unit } from './random';

/** One session's 1-minute path, in units. */
export interface SessionData {
  k: number;
  open: number;
  minutes: number;
  /** Path points: P[i] opens minute i, P[i+1] closes it. */
  P: Int32Array;
  h: Int32Array;
  l: Int32Array;
  v: Float64Array;
}

/**
 * The minute path of the session of ordinal k whose daily bar is `bar`: a Brownian bridge from the
 * day's open to its close through its high and low (reached at hashed interior minutes), so the
 * minutes of a finished session aggregate exactly to the daily bar; wicks and volumes are hashed,
 * the volumes adding up to the day's exactly.
 */
export function buildSession(key: number, vol: number, session: Session, k: number, bar: Bar): SessionData {
  const { o: O, h: H, l: L, c: C, v: V } = bar;
  const M = Math.round((session.close - session.open) / 60_000);
  const P = new Int32Array(M + 1);
  P[0] = O;
  P[M] = C;
  // Key points: the day's high and low are reached at hashed interior minutes.
  const keys: Array<[number, number]> = [
    [0, O],
    [M, C],
  ];
  const hMinute = H > Math.max(O, C) ? 1 + (hash(key, S.KeyHigh, k) % (M - 1)) : -1;
  let lMinute = L < Math.min(O, C) ? 1 + (hash(key, S.KeyLow, k) % (M - 1)) : -1;
  if (lMinute === hMinute && lMinute > 0) lMinute = lMinute === M - 1 ? lMinute - 1 : lMinute + 1;
  if (hMinute > 0) keys.push([hMinute, H]);
  if (lMinute > 0) keys.push([lMinute, L]);
  keys.sort((a, b) => a[0] - b[0]);
  const sigma = (vol * 1.2) / Math.sqrt(M);
  const walk = new Float64Array(M + 1);
  for (let s = 0; s + 1 < keys.length; s++) {
    const [a, A] = keys[s]!;
    const [b, B] = keys[s + 1]!;
    P[b] = B;
    walk[a] = 0;
    for (let j = a + 1; j <= b; j++) walk[j] = walk[j - 1]! + sigma * normal(key, S.Path, k, j);
    const lnA = Math.log(A);
    const lnB = Math.log(B);
    const end = walk[b]!;
    for (let j = a + 1; j < b; j++) {
      const f = (j - a) / (b - a);
      const value = Math.exp(lnA + (lnB - lnA) * f + walk[j]! - f * end);
      P[j] = Math.min(H, Math.max(L, Math.round(reflect(value, L, H))));
    }
  }
  const h = new Int32Array(M);
  const l = new Int32Array(M);
  const v = new Float64Array(M);
  const cum = new Float64Array(M + 1);
  for (let i = 0; i < M; i++) {
    const o = P[i]!;
    const c = P[i + 1]!;
    const top = Math.max(o, c);
    const bottom = Math.min(o, c);
    // Exponential wicks from one uniform each: cheap, and mostly small.
    const up = -Math.log(unit(hash(key, S.WickHigh, k, i))) * sigma * 0.4;
    const down = -Math.log(unit(hash(key, S.WickLow, k, i))) * sigma * 0.4;
    h[i] = Math.min(H, Math.max(top, Math.round(top * Math.exp(up))));
    l[i] = Math.max(L, Math.min(bottom, Math.round(bottom * Math.exp(-down))));
    // Busier near the open and the close.
    const edge = ((i + 0.5) / M - 0.5) * 2;
    cum[i + 1] = cum[i]! + (1 + 1.5 * edge * edge) * (0.5 + unit(hash(key, S.MinuteVolume, k, i)));
  }
  // Integer volumes that add up to the day's volume exactly.
  let prevCut = 0;
  for (let i = 0; i < M; i++) {
    const cut = i + 1 === M ? V : Math.floor((V * cum[i + 1]!) / cum[M]!);
    v[i] = cut - prevCut;
    prevCut = cut;
  }
  return { k, open: session.open, minutes: M, P, h, l, v };
}

/** Folds a value back into [lo, hi] like a reflecting barrier, so a path never sticks to an edge. */
function reflect(value: number, lo: number, hi: number): number {
  const span = hi - lo;
  if (span <= 0) return lo;
  let y = (value - lo) % (2 * span);
  if (y < 0) y += 2 * span;
  return lo + (y <= span ? y : 2 * span - y);
}
