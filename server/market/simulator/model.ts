import { civilDay, dayStart, localDay, type Session, sessionOfDay } from '../hours';
import type { Candle, Quote } from '../provider';
import type { Spec } from '../universe';
import { hash, hashString, normal, unit } from './random';

/**
 * One simulated instrument. Prices are integers of 10^-decimals ("units") until they leave here.
 *
 * Daily closes follow a mean-reverting random walk around a drifting trend (so any seed keeps
 * prices in a believable range for years): log close = log base + drift·(date − REF) + x, with
 * x ← φ·x + σ·(β·regional factor + √(1−β²)·own shock), starting at x = 0 on the fixed EPOCH —
 * so the history does not depend on when the server started. Open, high, low and volume of a day
 * are hashes of that day. A session's 1-minute path is a Brownian bridge from the day's open to its
 * close through its high and low, so the minutes of a finished session aggregate exactly to the
 * daily bar; the seconds of a minute run from its open to its close through its high and low.
 */

/** First day of every history: 2018-01-01, a Monday. */
const EPOCH_DAY = civilDay(2018, 1, 1);
/** The date where the trend equals the catalogue's base price. */
const REF_DAY = civilDay(2026, 1, 1);
const PHI = 0.997;

enum S {
  Close = 1,
  Gap,
  High,
  Low,
  Volume,
  Path,
  WickHigh,
  WickLow,
  MinuteVolume,
  KeyHigh,
  KeyLow,
  SecondHigh,
  SecondLow,
  Second,
  Drift,
  Factor,
}

/** Trading-day ordinal k (weekdays since EPOCH) → date. */
function dayOfOrdinal(k: number): number {
  const r = ((k % 5) + 5) % 5;
  return EPOCH_DAY + 7 * ((k - r) / 5) + r;
}

/** Date → ordinal of that weekday, or of the next one for a weekend date. */
function ordinalOfDay(day: number): number {
  const d = day - EPOCH_DAY;
  const week = Math.floor(d / 7);
  const r = d - week * 7;
  return r >= 5 ? (week + 1) * 5 : week * 5 + r;
}

/** Shared by every instrument of one simulator: the seed and the regional daily factors. */
export class MarketContext {
  private factors = new Map<string, Float64Array>();
  constructor(readonly seed: number) {}

  /** The common daily shock of a region's stocks and indices (a standard normal). */
  factor(region: string, k: number): number {
    let arr = this.factors.get(region);
    if (!arr || k >= arr.length) {
      const next = new Float64Array(Math.max(k + 260, (arr?.length ?? 0) * 2));
      if (arr) next.set(arr);
      const key = hashString(region);
      for (let j = arr?.length ?? 0; j < next.length; j++) next[j] = normal(this.seed, key, S.Factor, j);
      arr = next;
      this.factors.set(region, arr);
    }
    return arr[k]!;
  }
}

const BETA: Record<Spec['kind'], number> = { stock: 0.55, index: 0.9, forex: 0, futures: 0, treasury: 0 };
const GAP: Record<Spec['kind'], number> = {
  stock: 0.3,
  index: 0.15,
  forex: 0.03,
  futures: 0.08,
  treasury: 0.1,
};
const DRIFT: Record<Spec['kind'], [number, number]> = {
  stock: [-0.04, 0.16],
  index: [0.06, 0.12],
  forex: [-0.02, 0.03],
  futures: [-0.02, 0.06],
  treasury: [-0.01, 0.01],
};

interface SessionData {
  k: number;
  open: number;
  minutes: number;
  /** Path points: P[i] opens minute i, P[i+1] closes it. */
  P: Int32Array;
  h: Int32Array;
  l: Int32Array;
  v: Float64Array;
}

enum Mode {
  /** Listed, but its first session has not opened yet. */
  Pre,
  Live,
  Done,
}

export class Model {
  readonly key: number;
  readonly scale: number;
  private readonly mu: number;
  private readonly beta: number;
  private readonly idio: number;
  private readonly gap: number;

  /** Epoch ms from which the instrument is listed (IPOs); -Infinity for the rest. */
  listedAt = Number.NEGATIVE_INFINITY;
  /** Ordinal of the first day of history. */
  firstK = 0;

  private closes = new Int32Array(0);
  private nCloses = 0;
  private x = 0;
  private bo = new Int32Array(0);
  private bh = new Int32Array(0);
  private bl = new Int32Array(0);
  private bv = new Float64Array(0);
  /** Epoch ms each daily bar is stamped with. */
  private bt = new Float64Array(0);
  private nBars = 0;
  /** Scratch: the last bar computed by computeBar(). */
  private readonly bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };

  private sess: SessionData | null = null;
  /** The next session's path, built ahead of its open. */
  private ahead: SessionData | null = null;
  // Live state of the last advance().
  private mode = Mode.Pre;
  private session: Session | null = null;
  private k = -1;
  private minute = -1;
  private second = -1;
  private runHigh = 0;
  private runLow = 0;
  private highBefore = 0;
  private lowBefore = 0;
  private volBefore = 0;
  private price = 0;
  private dayOpen = 0;
  private dayHigh = 0;
  private dayLow = 0;
  private dayVolume = 0;
  private asOf = 0;
  private cached: Quote | null = null;
  // Keys of the current minute's second path: up to four (second, price) points.
  private readonly ks = new Int32Array(4);
  private readonly kv = new Int32Array(4);
  private nKeys = 0;

  constructor(
    readonly spec: Spec,
    private readonly ctx: MarketContext,
  ) {
    this.key = hash(ctx.seed, hashString(spec.symbol));
    this.scale = 10 ** spec.decimals;
    const [lo, hi] = DRIFT[spec.kind];
    this.mu = (lo + (hi - lo) * unit(hash(this.key, S.Drift))) / 365;
    this.beta = BETA[spec.kind];
    this.idio = Math.sqrt(1 - this.beta * this.beta);
    this.gap = GAP[spec.kind];
  }

  /** Lists the instrument at `at`: its history starts on that trading date (from the trend). */
  list(at: number): void {
    this.listedAt = at;
    this.firstK = ordinalOfDay(localDay(this.spec.schedule, at));
    this.nCloses = 0;
    this.nBars = 0;
    this.x = 0;
    this.enter(null);
  }

  /** Starts following a new session (null: start afresh at the next advance). */
  private enter(session: Session | null): void {
    this.k = session ? ordinalOfDay(session.day) : -1;
    this.session = session;
    this.sess = null;
    this.cached = null;
    this.minute = -1;
  }

  private trendUnits(k: number): number {
    return Math.log(this.spec.base) + this.mu * (dayOfOrdinal(k) - REF_DAY);
  }

  private toUnits(logPrice: number): number {
    return Math.max(1, Math.round(Math.exp(logPrice) * this.scale));
  }

  /** Close of ordinal k, in units; before the first day, the trend's price. */
  close(k: number): number {
    if (k < this.firstK) return this.toUnits(this.trendUnits(this.firstK - 1));
    const idx = k - this.firstK;
    if (idx >= this.nCloses) this.extendCloses(idx + 1);
    return this.closes[idx]!;
  }

  private extendCloses(n: number): void {
    if (n > this.closes.length) {
      const next = new Int32Array(Math.max(n + 64, this.closes.length * 2));
      next.set(this.closes.subarray(0, this.nCloses));
      this.closes = next;
    }
    const { vol, region } = this.spec;
    let x = this.x;
    for (let idx = this.nCloses; idx < n; idx++) {
      const k = this.firstK + idx;
      const shock =
        this.beta === 0
          ? normal(this.key, S.Close, k, 0)
          : this.beta * this.ctx.factor(region, k) + this.idio * normal(this.key, S.Close, k, 0);
      x = PHI * x + vol * shock;
      this.closes[idx] = this.toUnits(this.trendUnits(k) + x);
    }
    this.x = x;
    this.nCloses = n;
  }

  /** Daily bar of ordinal k (units) into `bar`: open, high, low and volume are hashes around the closes. */
  private computeBar(k: number): void {
    const { vol, volume } = this.spec;
    const prev = this.close(k - 1);
    const c = this.close(k);
    const o = Math.max(1, Math.round(prev * Math.exp(this.gap * vol * normal(this.key, S.Gap, k, 0))));
    const top = Math.max(o, c);
    const bottom = Math.min(o, c);
    const up = vol * (0.1 + 0.5 * Math.abs(normal(this.key, S.High, k, 0)));
    const down = vol * (0.1 + 0.5 * Math.abs(normal(this.key, S.Low, k, 0)));
    const bar = this.bar;
    bar.o = o;
    bar.h = Math.max(top, Math.round(top * Math.exp(up)));
    bar.l = Math.max(1, Math.min(bottom, Math.round(bottom * Math.exp(-down))));
    bar.c = c;
    const move = Math.abs(Math.log(c / prev));
    bar.v = Math.round(volume * Math.exp(0.35 * normal(this.key, S.Volume, k, 0)) * (1 + 12 * move));
  }

  /** A daily bar's time: the session's open, or local midnight for sessions that open the evening before. */
  private stamp(k: number): number {
    const day = dayOfOrdinal(k);
    const schedule = this.spec.schedule;
    return Math.max(sessionOfDay(schedule, day).open, dayStart(schedule, day));
  }

  /** Caches the daily bars of the first n days (charts ask for all of them). */
  private extendBars(n: number): void {
    if (n > this.bo.length) {
      const size = Math.max(n + 64, this.bo.length * 2);
      const grow = <T extends Int32Array | Float64Array>(a: T, make: (s: number) => T): T => {
        const b = make(size);
        b.set(a.subarray(0, this.nBars));
        return b;
      };
      this.bo = grow(this.bo, (s) => new Int32Array(s));
      this.bh = grow(this.bh, (s) => new Int32Array(s));
      this.bl = grow(this.bl, (s) => new Int32Array(s));
      this.bv = grow(this.bv, (s) => new Float64Array(s));
      this.bt = grow(this.bt, (s) => new Float64Array(s));
    }
    for (let idx = this.nBars; idx < n; idx++) {
      this.bt[idx] = this.stamp(this.firstK + idx);
      this.computeBar(this.firstK + idx);
      this.bo[idx] = this.bar.o;
      this.bh[idx] = this.bar.h;
      this.bl[idx] = this.bar.l;
      this.bv[idx] = this.bar.v;
    }
    this.nBars = n;
  }

  /** The session's minute path (built once per session). */
  private sessionData(session: Session): SessionData {
    if (this.sess?.k === this.k) return this.sess;
    const ahead = this.ahead;
    this.ahead = null;
    this.sess = ahead?.k === this.k ? ahead : this.buildSession(session, this.k);
    return this.sess;
  }

  /**
   * Builds the next session's minute path before it opens (the simulator calls this on the ticks
   * just before an open), so the opening tick does not build every instrument's path at once.
   */
  prepareSession(session: Session): void {
    const k = ordinalOfDay(session.day);
    if (k < this.firstK || this.ahead?.k === k || this.sess?.k === k) return;
    this.ahead = this.buildSession(session, k);
  }

  /** Whether the session of that date is built (current or prepared). */
  hasSession(day: number): boolean {
    const k = ordinalOfDay(day);
    return this.sess?.k === k || this.ahead?.k === k || k < this.firstK;
  }

  private buildSession(session: Session, k: number): SessionData {
    this.computeBar(k);
    const { o: O, h: H, l: L, c: C, v: V } = this.bar;
    const M = Math.round((session.close - session.open) / 60_000);
    const P = new Int32Array(M + 1);
    P[0] = O;
    P[M] = C;
    // Key points: the day's high and low are reached at hashed interior minutes.
    const keys: Array<[number, number]> = [
      [0, O],
      [M, C],
    ];
    const hMinute = H > Math.max(O, C) ? 1 + (hash(this.key, S.KeyHigh, k) % (M - 1)) : -1;
    let lMinute = L < Math.min(O, C) ? 1 + (hash(this.key, S.KeyLow, k) % (M - 1)) : -1;
    if (lMinute === hMinute && lMinute > 0) lMinute = lMinute === M - 1 ? lMinute - 1 : lMinute + 1;
    if (hMinute > 0) keys.push([hMinute, H]);
    if (lMinute > 0) keys.push([lMinute, L]);
    keys.sort((a, b) => a[0] - b[0]);
    const sigma = (this.spec.vol * 1.2) / Math.sqrt(M);
    const walk = new Float64Array(M + 1);
    for (let s = 0; s + 1 < keys.length; s++) {
      const [a, A] = keys[s]!;
      const [b, B] = keys[s + 1]!;
      P[b] = B;
      walk[a] = 0;
      for (let j = a + 1; j <= b; j++) walk[j] = walk[j - 1]! + sigma * normal(this.key, S.Path, k, j);
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
      const up = -Math.log(unit(hash(this.key, S.WickHigh, k, i))) * sigma * 0.4;
      const down = -Math.log(unit(hash(this.key, S.WickLow, k, i))) * sigma * 0.4;
      h[i] = Math.min(H, Math.max(top, Math.round(top * Math.exp(up))));
      l[i] = Math.max(L, Math.min(bottom, Math.round(bottom * Math.exp(-down))));
      // Busier near the open and the close.
      const edge = ((i + 0.5) / M - 0.5) * 2;
      cum[i + 1] = cum[i]! + (1 + 1.5 * edge * edge) * (0.5 + unit(hash(this.key, S.MinuteVolume, k, i)));
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

  /** Sets up the second path of minute i of the current session. */
  private startMinute(sess: SessionData, i: number): void {
    const o = sess.P[i]!;
    const c = sess.P[i + 1]!;
    const hi = sess.h[i]!;
    const lo = sess.l[i]!;
    const sh = hi > Math.max(o, c) ? 1 + (hash(this.key, S.SecondHigh, this.k, i) % 58) : -1;
    let sl = lo < Math.min(o, c) ? 1 + (hash(this.key, S.SecondLow, this.k, i) % 58) : -1;
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

  /** Price at second s of the current minute, within the minute's low and high. */
  private secondPrice(sess: SessionData, i: number, s: number): number {
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
    const noise = (unit(hash(this.key, S.Second, this.k, i, s)) - 0.5) * 0.7 * (hi - lo) * tri;
    return Math.min(hi, Math.max(lo, Math.round(A + (B - A) * f + noise)));
  }

  /**
   * Moves the instrument to `at` (a whole second) within `session`, its market's most recent
   * session. Cheap when called once a second: one hashed price per call.
   */
  advance(at: number, session: Session): void {
    this.asOf = at;
    this.cached = null;
    if (!this.session || session.day !== this.session.day) this.enter(session);
    const k = this.k;
    if (k < this.firstK) {
      this.mode = Mode.Pre;
      const p = this.close(k);
      this.price = this.dayOpen = this.dayHigh = this.dayLow = p;
      this.dayVolume = 0;
      return;
    }
    if (at >= session.close) {
      this.mode = Mode.Done;
      // The price is the close's: answers stay byte-identical (304s) until the next session.
      this.asOf = session.close - 1000;
      this.computeBar(k);
      this.price = this.bar.c;
      this.dayOpen = this.bar.o;
      this.dayHigh = this.bar.h;
      this.dayLow = this.bar.l;
      this.dayVolume = this.bar.v;
      return;
    }
    this.mode = Mode.Live;
    const sess = this.sessionData(session);
    const elapsed = at - session.open;
    const i = Math.floor(elapsed / 60_000);
    const s = Math.floor((elapsed - i * 60_000) / 1000);
    if (i !== this.minute || s < this.second) {
      if (this.minute < 0 || i < this.minute) {
        this.highBefore = 0;
        this.lowBefore = Number.MAX_SAFE_INTEGER;
        this.volBefore = 0;
        this.minute = 0;
      }
      for (let j = this.minute; j < i; j++) {
        if (sess.h[j]! > this.highBefore) this.highBefore = sess.h[j]!;
        if (sess.l[j]! < this.lowBefore) this.lowBefore = sess.l[j]!;
        this.volBefore += sess.v[j]!;
      }
      this.minute = i;
      this.startMinute(sess, i);
      this.second = 0;
      this.price = this.runHigh = this.runLow = sess.P[i]!;
    }
    for (let ss = this.second + 1; ss <= s; ss++) {
      const p = this.secondPrice(sess, i, ss);
      if (p > this.runHigh) this.runHigh = p;
      if (p < this.runLow) this.runLow = p;
      this.price = p;
    }
    this.second = s;
    this.dayOpen = sess.P[0]!;
    this.dayHigh = Math.max(this.highBefore, this.runHigh);
    this.dayLow = Math.min(this.lowBefore, this.runLow);
    this.dayVolume = this.volBefore + Math.floor((sess.v[i]! * (s + 1)) / 60);
  }

  quote(): Quote {
    if (this.cached) return this.cached;
    const scale = this.scale;
    const prev = this.close(this.k - 1);
    const change = (this.price - prev) / scale;
    this.cached = {
      symbol: this.spec.symbol,
      price: this.price / scale,
      open: this.dayOpen / scale,
      high: this.dayHigh / scale,
      low: this.dayLow / scale,
      prevClose: prev / scale,
      change,
      changePercent: Math.round(((this.price - prev) / prev) * 1_000_000) / 10_000,
      volume: this.dayVolume,
      asOf: this.asOf,
    };
    return this.cached;
  }

  /** The current session's 1-minute bars; the last one is live (its close is the quote). */
  minuteCandles(): Candle[] {
    if (this.mode === Mode.Pre || !this.session) return [];
    const sess = this.sessionData(this.session);
    const scale = this.scale;
    const out: Candle[] = [];
    const full = this.mode === Mode.Done ? sess.minutes : this.minute;
    for (let i = 0; i < full; i++) {
      out.push({
        t: sess.open + i * 60_000,
        o: sess.P[i]! / scale,
        h: sess.h[i]! / scale,
        l: sess.l[i]! / scale,
        c: sess.P[i + 1]! / scale,
        v: sess.v[i]!,
      });
    }
    if (this.mode === Mode.Live) {
      const i = this.minute;
      out.push({
        t: sess.open + i * 60_000,
        o: sess.P[i]! / scale,
        h: this.runHigh / scale,
        l: this.runLow / scale,
        c: this.price / scale,
        v: Math.floor((sess.v[i]! * (this.second + 1)) / 60),
      });
    }
    return out;
  }

  /** Daily bars from the first day of history (at most `limit` of the latest); the last is live. */
  dailyCandles(limit = Number.POSITIVE_INFINITY): Candle[] {
    if (this.mode === Mode.Pre) return [];
    const last = this.k;
    const first = Math.max(this.firstK, last - limit + 1);
    if (last - this.firstK > this.nBars) this.extendBars(last - this.firstK);
    const scale = this.scale;
    const out: Candle[] = [];
    for (let k = first; k < last; k++) {
      const idx = k - this.firstK;
      out.push({
        t: this.bt[idx]!,
        o: this.bo[idx]! / scale,
        h: this.bh[idx]! / scale,
        l: this.bl[idx]! / scale,
        c: this.closes[idx]! / scale,
        v: this.bv[idx]!,
      });
    }
    out.push({
      t: this.stamp(last),
      o: this.dayOpen / scale,
      h: this.dayHigh / scale,
      l: this.dayLow / scale,
      c: this.price / scale,
      v: this.dayVolume,
    });
    return out;
  }
}

/** Folds a value back into [lo, hi] like a reflecting barrier, so a path never sticks to an edge. */
function reflect(value: number, lo: number, hi: number): number {
  const span = hi - lo;
  if (span <= 0) return lo;
  let y = (value - lo) % (2 * span);
  if (y < 0) y += 2 * span;
  return lo + (y <= span ? y : 2 * span - y);
}
