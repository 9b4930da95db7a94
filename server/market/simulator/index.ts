import { aggregate } from '../candles';
import { lastSession, localDay, nextSession, type ScheduleId, type Session } from '../hours';
import type { Candle, Instrument, Interval, MarketProvider, Quote } from '../provider';
import { type Spec, UNIVERSE } from '../universe';
import { MarketContext } from './context';
import { simulatedBook } from './depth';
import { Model } from './model';

/**
 * The embedded default provider: a deterministic market (see model.ts). The price at an instant
 * is a function of the seed and that instant's second, so the timer only decides how often the
 * snapshot moves; reads catch up with the clock by themselves (tests that advance the clock need
 * no timer), and the same seed gives the same history on any machine at any start time.
 */
export interface SimulatorOptions {
  seed: number;
  tickMs: number;
  now: () => number;
  /** The catalogue (default: server/market/universe.ts); the benchmark passes a bigger one. */
  universe?: readonly Spec[];
}

export function createSimulator(opts: SimulatorOptions): MarketProvider {
  const ctx = new MarketContext(opts.seed);
  const models = (opts.universe ?? UNIVERSE).map((spec) => {
    const m = new Model(spec, ctx);
    // An IPO candidate is not listed until the seed gives it a listing date.
    if (spec.ipo) m.listedAt = Number.POSITIVE_INFINITY;
    return m;
  });
  const bySymbol = new Map(models.map((m) => [m.spec.symbol.toUpperCase(), m]));
  const schedules = [...new Set(models.map((m) => m.spec.schedule))];
  const listeners = new Set<(at: number) => void>();
  let active: Model[] = [];
  let listed: Instrument[] = [];
  let listedUntil = Number.NEGATIVE_INFINITY;
  let listedFrom = Number.POSITIVE_INFINITY;
  let current = Number.NaN;
  let timer: ReturnType<typeof setInterval> | null = null;

  /** Recomputes which instruments are listed at `at`, and between which instants that holds. */
  function relist(at: number): void {
    active = models.filter((m) => m.listedAt <= at);
    listed = active.map((m) => m.spec);
    listedFrom = Math.max(
      Number.NEGATIVE_INFINITY,
      ...models.map((m) => (m.listedAt <= at ? m.listedAt : -Infinity)),
    );
    listedUntil = Math.min(...models.map((m) => (m.listedAt > at ? m.listedAt : Number.POSITIVE_INFINITY)));
  }

  /** Seconds before an open during which the ticks build the coming session's paths. */
  const PREPARE_S = 30;

  /** Each schedule's most recent session at `current`. */
  let sessions = {} as Record<ScheduleId, Session>;
  /**
   * The instant each model was last moved to. A model moves when it is read, not on every tick:
   * `advance` catches up over any gap exactly as second by second, and a start or a clock
   * moved across a session built every instrument's minute path at once (171 of them; about a
   * quarter of a second a test server) while a test reads a few.
   */
  const movedTo = new Map<Model, number>();

  function tick(at: number): void {
    if (at >= listedUntil || at < listedFrom) relist(at);
    sessions = {} as Record<ScheduleId, Session>;
    for (const s of schedules) {
      sessions[s] = lastSession(s, at);
      const next = nextSession(s, at);
      const left = Math.ceil((next.open - at) / 1000);
      if (left <= PREPARE_S) prepare(s, next, left);
    }
    for (const l of listeners) l(at);
  }

  /** Builds a share of the coming session's paths, so that all are ready by the open. */
  function prepare(schedule: ScheduleId, next: Session, secondsLeft: number): void {
    const waiting = active.filter((m) => m.spec.schedule === schedule && !m.hasSession(next.day));
    const share = Math.ceil(waiting.length / Math.max(1, secondsLeft - 1));
    for (const m of waiting.slice(0, share)) m.prepareSession(next);
  }

  function sync(): void {
    const at = Math.floor(opts.now() / 1000) * 1000;
    if (at === current) return;
    current = at;
    tick(at);
  }

  function model(symbol: string): Model | undefined {
    sync();
    const m = bySymbol.get(symbol.toUpperCase());
    if (!m || m.listedAt > current) return undefined;
    if (movedTo.get(m) !== current) {
      m.advance(current, sessions[m.spec.schedule]);
      movedTo.set(m, current);
    }
    return m;
  }

  return {
    simulated: true,
    instruments() {
      sync();
      return listed;
    },
    instrument: (symbol) => model(symbol)?.spec,
    quote: (symbol): Quote | undefined => model(symbol)?.quote(),
    depth(symbol) {
      const m = model(symbol);
      return m ? simulatedBook(m.spec, m.quote(), opts.seed) : undefined;
    },
    candles(symbol: string, interval: Interval): Candle[] {
      const m = model(symbol);
      if (!m) return [];
      if (interval === '1m') return m.minuteCandles();
      const daily = m.dailyCandles();
      if (interval === '1d') return daily;
      return aggregate(daily, interval, (t) => localDay(m.spec.schedule, t));
    },
    sync,
    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setListing(symbol, listedAt) {
      const m = bySymbol.get(symbol.toUpperCase());
      if (!m) throw new Error(`setListing: ${symbol} is not in the catalogue`);
      if (m.listedAt === listedAt) return;
      m.list(listedAt);
      movedTo.delete(m);
      listedUntil = Number.NEGATIVE_INFINITY;
      current = Number.NaN;
    },
    start() {
      if (timer) return;
      sync();
      timer = setInterval(sync, opts.tickMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
