/**
 * Trading hours per market (shared by the server's order code and the app's "Closed · as of" marks). A market trades Monday to Friday of its local calendar; a session
 * belongs to one trading date and runs from `open` to `close` minutes after that date's local
 * midnight (a negative open starts the evening before, as CME Globex does). Exchange holidays are
 * not modelled: every weekday is a trading day.
 */
export type ScheduleId = 'NSE' | 'US' | 'FX' | 'CME';

interface Schedule {
  /** Offset of local time from UTC, in minutes, on a given local date (days since 1970-01-01). */
  offset(day: number): number;
  open: number;
  close: number;
}

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** 1970-01-01 was a Thursday; 0 = Sunday … 6 = Saturday. */
function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

function isWeekday(day: number): boolean {
  const w = weekday(day);
  return w >= 1 && w <= 5;
}

/** Days since 1970-01-01 of a civil date (proleptic Gregorian). */
export function civilDay(year: number, month: number, dayOfMonth: number): number {
  return Math.floor(Date.UTC(year, month - 1, dayOfMonth) / DAY_MS);
}

/** The nth (1-based) Sunday of a month, as a day number. */
function nthSunday(year: number, month: number, n: number): number {
  const first = civilDay(year, month, 1);
  return first + ((7 - weekday(first)) % 7) + (n - 1) * 7;
}

/** The last year asked about: [first day, first day of the next year, DST start, DST end]. */
let dstYear = [0, 0, 0, 0];
/** US daylight saving (since 2007): from the second Sunday of March to the first Sunday of November. */
function usDst(day: number): boolean {
  if (day < dstYear[0]! || day >= dstYear[1]!) {
    const year = new Date(day * DAY_MS).getUTCFullYear();
    dstYear = [civilDay(year, 1, 1), civilDay(year + 1, 1, 1), nthSunday(year, 3, 2), nthSunday(year, 11, 1)];
  }
  return day >= dstYear[2]! && day < dstYear[3]!;
}

const IST = () => 330;
const ET = (day: number) => (usDst(day) ? -240 : -300);

const SCHEDULES: Record<ScheduleId, Schedule> = {
  /** NSE and BSE: 09:15–15:30 IST (no daylight saving). */
  NSE: { offset: IST, open: 9 * 60 + 15, close: 15 * 60 + 30 },
  /** NYSE and NASDAQ regular hours: 09:30–16:00 Eastern. */
  US: { offset: ET, open: 9 * 60 + 30, close: 16 * 60 },
  /** Forex: round the clock on weekdays, by the UTC calendar. */
  FX: { offset: () => 0, open: 0, close: 24 * 60 },
  /** CME Globex futures: 18:00 Eastern the evening before to 17:00 Eastern. */
  CME: { offset: ET, open: -6 * 60, close: 17 * 60 },
};

export interface Session {
  /** Trading date, days since 1970-01-01 in the market's local calendar. */
  day: number;
  /** Epoch ms of the open and the close (exclusive). */
  open: number;
  close: number;
}

/** The session of a trading date (which must be a weekday). */
export function sessionOfDay(schedule: ScheduleId, day: number): Session {
  const s = SCHEDULES[schedule];
  const midnight = day * DAY_MS - s.offset(day) * MINUTE_MS;
  return { day, open: midnight + s.open * MINUTE_MS, close: midnight + s.close * MINUTE_MS };
}

/** Local midnight of a trading date, epoch ms: where a daily bar is stamped unless the session opens later. */
export function dayStart(schedule: ScheduleId, day: number): number {
  return day * DAY_MS - SCHEDULES[schedule].offset(day) * MINUTE_MS;
}

/** The local calendar date of an instant. */
export function localDay(schedule: ScheduleId, at: number): number {
  const s = SCHEDULES[schedule];
  const guess = Math.floor(at / DAY_MS);
  return Math.floor((at + s.offset(guess) * MINUTE_MS) / DAY_MS);
}

/** The most recent session that opened at or before `at` (it may be over, or still running). */
export function lastSession(schedule: ScheduleId, at: number): Session {
  // Sessions open at most a day before their date, so the answer is within a week of `at`.
  for (let day = localDay(schedule, at) + 1; ; day--) {
    if (!isWeekday(day)) continue;
    const session = sessionOfDay(schedule, day);
    if (session.open <= at) return session;
  }
}

/** The first session that opens after `at`. */
export function nextSession(schedule: ScheduleId, at: number): Session {
  for (let day = localDay(schedule, at) - 1; ; day++) {
    if (!isWeekday(day)) continue;
    const session = sessionOfDay(schedule, day);
    if (session.open > at) return session;
  }
}

/** Anything with a trading schedule: an instrument of the market provider. */
export interface Scheduled {
  schedule: ScheduleId;
}

/** True while the instrument's market is in its regular session. */
export function isMarketOpen(instrument: Scheduled, at: number): boolean {
  return at < lastSession(instrument.schedule, at).close;
}

/**
 * The schedule of an instrument from what every quote and row carries (its market and region):
 * forex round the clock on weekdays, futures and US treasuries on CME Globex, Indian treasuries with
 * NSE, stocks and indices with their region's exchange. server/market/universe.ts declares the same
 * per instrument; tests/unit/market-hours.test.ts checks the two agree.
 */
export function scheduleOf(market: string | undefined, region: string | undefined): ScheduleId {
  if (market === 'FOREX') return 'FX';
  if (market === 'FUTURE') return 'CME';
  if (market === 'CGI') return region === 'IN' ? 'NSE' : 'CME';
  return region === 'US' || market === 'US' ? 'US' : 'NSE';
}

/**
 * The zone an exchange states its times in, with the label shown beside them (DESIGN "Closed
 * markets"): NSE 09:15 IST, NYSE 09:30 ET, CME Globex 17:00 CT, forex in UTC — whatever
 * the phone's own zone. `src/shared/format.ts` formats every exchange time with it.
 */
export interface ExchangeZone {
  /** The IANA zone (Intl's `timeZone`). */
  timeZone: string;
  /** What follows the clock: "IST", "ET", "CT", "UTC". */
  label: string;
}

const EXCHANGE_ZONES: Record<ScheduleId, ExchangeZone> = {
  NSE: { timeZone: 'Asia/Kolkata', label: 'IST' },
  US: { timeZone: 'America/New_York', label: 'ET' },
  FX: { timeZone: 'UTC', label: 'UTC' },
  // The same instants as the schedule's 18:00–17:00 Eastern, told as CME states them (Chicago).
  CME: { timeZone: 'America/Chicago', label: 'CT' },
};

export function exchangeZone(schedule: ScheduleId): ExchangeZone {
  return EXCHANGE_ZONES[schedule];
}
