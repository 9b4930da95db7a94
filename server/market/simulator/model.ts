import { localDay, type Session } from '../hours';
import type { Candle, Quote } from '../provider';
import type { Spec } from '../universe';
import { ordinalOfDay } from './calendar';
import type { MarketContext } from './context';
import { DailyHistory } from './history';
import { hash, hashString } from './random';
import { SecondPath } from './seconds';
import { buildSession, type SessionData } from './session';

/**
 * One simulated instrument, live. Prices are integers of 10^-decimals ("units") until they leave
 * here. The daily history is `history.ts` (closes from the fixed epoch, so it does not depend on
 * when the server started), a session's minutes `session.ts` (aggregating exactly to the day's
 * bar), a minute's seconds `seconds.ts`; this follows the clock through them: the price, the day's
 * running open/high/low/volume, and the candles up to now.
 */

enum Mode {
  /** Listed, but its first session has not opened yet. */
  Pre,
  Live,
  Done,
}

export class Model {
  readonly key: number;
  readonly scale: number;
  private readonly history: DailyHistory;
  private readonly seconds: SecondPath;

  /** Epoch ms from which the instrument is listed (IPOs); -Infinity for the rest. */
  listedAt = Number.NEGATIVE_INFINITY;

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

  constructor(
    readonly spec: Spec,
    ctx: MarketContext,
  ) {
    this.key = hash(ctx.seed, hashString(spec.symbol));
    this.scale = 10 ** spec.decimals;
    this.history = new DailyHistory(spec, ctx, this.key, this.scale);
    this.seconds = new SecondPath(this.key);
  }

  /** Ordinal of the first day of history. */
  private get firstK(): number {
    return this.history.firstK;
  }

  /** Lists the instrument at `at`: its history starts on that trading date (from the trend). */
  list(at: number): void {
    this.listedAt = at;
    this.history.restart(ordinalOfDay(localDay(this.spec.schedule, at)));
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

  /** Close of ordinal k, in units; before the first day, the trend's price. */
  private close(k: number): number {
    return this.history.close(k);
  }

  /** The session's minute path (built once per session). */
  private sessionData(session: Session): SessionData {
    if (this.sess?.k === this.k) return this.sess;
    const ahead = this.ahead;
    this.ahead = null;
    this.sess = ahead?.k === this.k ? ahead : this.buildSession(session, this.k);
    return this.sess;
  }

  private buildSession(session: Session, k: number): SessionData {
    return buildSession(this.key, this.spec.vol, session, k, this.history.computeBar(k));
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
      const bar = this.history.computeBar(k);
      this.price = bar.c;
      this.dayOpen = bar.o;
      this.dayHigh = bar.h;
      this.dayLow = bar.l;
      this.dayVolume = bar.v;
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
      this.seconds.start(sess, k, i);
      this.second = 0;
      this.price = this.runHigh = this.runLow = sess.P[i]!;
    }
    for (let ss = this.second + 1; ss <= s; ss++) {
      const p = this.seconds.price(sess, k, i, ss);
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
    const out: Candle[] = [];
    this.history.finishedCandles(Math.max(this.firstK, last - limit + 1), last, out);
    const scale = this.scale;
    out.push({
      t: this.history.stamp(last),
      o: this.dayOpen / scale,
      h: this.dayHigh / scale,
      l: this.dayLow / scale,
      c: this.price / scale,
      v: this.dayVolume,
    });
    return out;
  }
}
