import { dayStart, sessionOfDay } from '../hours';
import type { Candle } from '../provider';
import type { Spec } from '../universe';
import { dayOfOrdinal, REF_DAY } from './calendar';
import { type MarketContext, S } from './context';
import { hash, normal, unit } from './random';

const PHI = 0.997;
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

/** One day's bar, in units. */
export interface Bar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/**
 * An instrument's daily history, in units. Closes follow a mean-reverting random walk around a
 * drifting trend (so any seed keeps prices in a believable range for years): log close = log base +
 * drift·(date − REF) + x, with x ← φ·x + σ·(β·regional factor + √(1−β²)·own shock), starting at
 * x = 0 on the first day of history. Open, high, low and volume of a day are hashes of that day.
 * Closes and bars are computed once, as far as they are asked for.
 */
export class DailyHistory {
  /** Ordinal of the first day of history. */
  firstK = 0;
  private readonly mu: number;
  private readonly beta: number;
  private readonly idio: number;
  private readonly gap: number;

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
  readonly bar: Bar = { o: 0, h: 0, l: 0, c: 0, v: 0 };

  constructor(
    private readonly spec: Spec,
    private readonly ctx: MarketContext,
    private readonly key: number,
    private readonly scale: number,
  ) {
    const [lo, hi] = DRIFT[spec.kind];
    this.mu = (lo + (hi - lo) * unit(hash(key, S.Drift))) / 365;
    this.beta = BETA[spec.kind];
    this.idio = Math.sqrt(1 - this.beta * this.beta);
    this.gap = GAP[spec.kind];
  }

  /** Starts the history afresh on ordinal `firstK` (a listing). */
  restart(firstK: number): void {
    this.firstK = firstK;
    this.nCloses = 0;
    this.nBars = 0;
    this.x = 0;
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

  /** Daily bar of ordinal k into `bar` (and answers it): open, high, low and volume are hashes around the closes. */
  computeBar(k: number): Bar {
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
    return bar;
  }

  /** A daily bar's time: the session's open, or local midnight for sessions that open the evening before. */
  stamp(k: number): number {
    const day = dayOfOrdinal(k);
    const schedule = this.spec.schedule;
    return Math.max(sessionOfDay(schedule, day).open, dayStart(schedule, day));
  }

  /** Appends the finished daily bars of ordinals first..last−1 to `out` (cached: charts ask for all). */
  finishedCandles(first: number, last: number, out: Candle[]): void {
    if (last - this.firstK > this.nBars) this.extendBars(last - this.firstK);
    const scale = this.scale;
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
  }

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
      const bar = this.computeBar(this.firstK + idx);
      this.bo[idx] = bar.o;
      this.bh[idx] = bar.h;
      this.bl[idx] = bar.l;
      this.bv[idx] = bar.v;
    }
    this.nBars = n;
  }
}
