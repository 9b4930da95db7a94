import { hashString, normal } from './random';

/** The streams of hashed randomness an instrument draws from (one key component each). */
export enum S {
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
  /** A fund's own daily NAV shock (server/funds/nav.ts). */
  Nav,
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
