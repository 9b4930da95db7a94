import { exchangeZone, type ScheduleId } from './market-hours';
import { minorToDisplayNumber, toMinor } from './money';

/**
 * Display formatting, written once: money from config (unit, symbol, 2 decimals, Indian digit
 * grouping for INR), prices with their instrument's decimals, signed changes and percents, times.
 */
export interface CurrencyDisplay {
  unit: string;
  symbol: string;
}

export const DEFAULT_CURRENCY: CurrencyDisplay = { unit: 'INR', symbol: '₹' };

/**
 * A currency's own sign from its ISO code (MXN → "$", EUR → "€"), as the locale data has it; an
 * unknown code shows itself. The region map of SPEC (IN ₹, US $) is applied by the config reader.
 */
export function currencySymbol(unit: string): string {
  try {
    const parts = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: unit,
      currencyDisplay: 'narrowSymbol',
    }).formatToParts(0);
    return parts.find((p) => p.type === 'currency')?.value ?? unit;
  } catch {
    return unit;
  }
}

const groupingLocale = (unit: string) => (unit === 'INR' ? 'en-IN' : 'en-US') as 'en-IN' | 'en-US';

/** The money an instrument's region trades in, for grouping its figures (IN: INR; US: USD). */
export const regionUnit = (region: string | undefined): string => (region === 'US' ? 'USD' : 'INR');

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}:${decimals}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(key, f);
  }
  return f;
}

/**
 * A figure with exactly `decimals` decimals, grouped as `locale` groups it (en-US: by threes;
 * en-IN: the last three, then by twos), as Intl.NumberFormat writes it (tests/unit/format.test.ts
 * compares the two): rounded half away from zero on the number's shortest decimal form (1.005 →
 * "1.01", as Intl does; toFixed would say "1.00"), "-" on a negative (-0 and -0.001 included).
 * Without Intl: the first Intl formatter a page makes loads the engine's locale data (30–40 ms of
 * a busy phone's main thread, one long task), and Home's first render needs only these figures
 * and an as-of time (`formatTime`). Anything else (exponent forms, more than 20 decimals,
 * non-finite values) goes to Intl.
 */
function fixed(locale: 'en-IN' | 'en-US', decimals: number, value: number): string {
  const shortest = String(Math.abs(value));
  if (
    !Number.isFinite(value) ||
    shortest.includes('e') ||
    !Number.isInteger(decimals) ||
    decimals < 0 ||
    decimals > 20
  )
    return numberFormat(locale, decimals).format(value);
  const [whole = '0', fraction = ''] = shortest.split('.');
  let digits = whole + fraction.slice(0, decimals).padEnd(decimals, '0');
  if ((fraction[decimals] ?? '0') >= '5') {
    // Adds one to the last kept digit, carrying leftwards (a new leading 1 when all were nines).
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === '9') i--;
    digits = `${i < 0 ? '1' : digits.slice(0, i)}${i < 0 ? '' : String(Number(digits[i]) + 1)}${'0'.repeat(digits.length - 1 - i)}`;
  }
  const int = digits.slice(0, digits.length - decimals);
  const grouped =
    locale === 'en-IN' && int.length > 3
      ? `${int.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${int.slice(-3)}`
      : int.replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${grouped}${decimals ? `.${digits.slice(-decimals)}` : ''}`;
}

/** "₹12,34,567.50" from "1234567.50" (or from minor units). */
export function formatMoney(
  amount: string | number,
  currency: CurrencyDisplay = DEFAULT_CURRENCY,
  decimals = 2,
): string {
  const minor = typeof amount === 'number' ? amount : toMinor(amount);
  if (minor === null) return '—';
  const sign = minor < 0 ? '-' : '';
  return `${sign}${currency.symbol}${fixed(groupingLocale(currency.unit), decimals, minorToDisplayNumber(Math.abs(minor)))}`;
}

export function formatNumber(value: number, decimals = 2, unit = 'INR'): string {
  if (!Number.isFinite(value)) return '—';
  return fixed(groupingLocale(unit), decimals, value);
}

/**
 * Made on first use: a compact-notation formatter loads its locale data when it is made (tens of
 * milliseconds on a slow phone), and this module is evaluated at every start, on the first screen's
 * critical path (Lighthouse's blocking time), where nothing formats a volume.
 */
let compact: Intl.NumberFormat | undefined;

/**
 * A count of shares or lots, exact (an order book's quantities: a trader reads them to the unit),
 * grouped as the instrument's money is: "1,55,000" for INR, "155,000" otherwise.
 */
export function formatQuantity(value: number, unit = 'INR'): string {
  return Number.isFinite(value) ? fixed(groupingLocale(unit), 0, value) : '—';
}

/**
 * A traded volume, in the units its money is read in: lakh and crore beside Indian
 * rupees ("13.40 L", "2.15 Cr"; below a lakh, exact), thousands and millions otherwise ("5.43M").
 */
export function formatVolume(value: number, unit = 'INR'): string {
  if (!Number.isFinite(value)) return '—';
  if (unit !== 'INR') {
    compact ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
    return compact.format(value);
  }
  if (Math.abs(value) >= 1e7) return `${fixed('en-IN', 2, value / 1e7)} Cr`;
  if (Math.abs(value) >= 1e5) return `${fixed('en-IN', 2, value / 1e5)} L`;
  return fixed('en-IN', 0, value);
}

export function formatPrice(price: number | null | undefined, decimals = 2): string {
  return price === null || price === undefined || !Number.isFinite(price)
    ? '—'
    : fixed('en-US', decimals, price);
}

/** "+1.23" / "-0.40": a sign always, so colour never carries the meaning alone. */
export function formatChange(change: number, decimals = 2): string {
  if (!Number.isFinite(change)) return '—';
  const text = fixed('en-US', decimals, Math.abs(change));
  return `${change > 0 ? '+' : change < 0 ? '-' : ''}${text}`;
}

export function formatPercent(percent: number, decimals = 2): string {
  return Number.isFinite(percent) ? `${formatChange(percent, decimals)}%` : '—';
}

/** The last four digits of a card number, whole or as the server masks it ("********3456"). */
export function cardLastFour(number: string): string {
  return number.replace(/\D/g, '').slice(-4);
}

/**
 * A bank card number as every screen shows it (bank cards, withdraw, record detail): "•••• 3456",
 * whatever the server's mask or the number's length.
 */
export function maskCardNumber(number: string): string {
  return `•••• ${cardLastFour(number)}`;
}

/**
 * The colour class of a change: `up`, `down` or none. The classes are global (styles/global.css),
 * written once, so every gain and loss follows the user's green-up / red-up choice. Put it on an
 * element whose other classes set no colour (a CSS module loads after global.css and would win).
 */
export function trendClass(change: number): string {
  return change > 0 ? 'up' : change < 0 ? 'down' : '';
}

/**
 * Dates and times: one format per interface language, everywhere (News, records, account changes,
 * as-of stamps, chat). Day-first in English (en-GB), the language's own order otherwise, and always
 * the 24-hour clock. Callers pass the interface language (`i18n.language`); src/ui/dates.ts binds it.
 */
const DATE_LOCALES: Record<string, string> = { en: 'en-GB', zh: 'zh-CN', es: 'es-ES', de: 'de-DE' };

/** The Intl locale of an interface language ("de" → "de-DE"); unknown ones read as English. */
export function dateLocale(language?: string): string {
  return DATE_LOCALES[(language ?? '').slice(0, 2)] ?? DATE_LOCALES.en!;
}

const DATE_PARTS = {
  date: { year: 'numeric', month: '2-digit', day: '2-digit' },
  dateTime: {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  },
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  clock: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dayMonth: { day: '2-digit', month: '2-digit' },
  dayMonthClock: { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  weekdayClock: { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  axisDay: { day: 'numeric', month: 'short' },
  axisMonth: { month: 'short', year: '2-digit' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** A format of the interface language, in the phone's zone or (exchange times) in `timeZone`. */
function dateFormat(
  kind: keyof typeof DATE_PARTS,
  language?: string,
  timeZone?: string,
): Intl.DateTimeFormat {
  const locale = dateLocale(language);
  const key = `${kind}:${locale}:${timeZone ?? ''}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, timeZone ? { ...DATE_PARTS[kind], timeZone } : DATE_PARTS[kind]);
    dateFormats.set(key, f);
  }
  return f;
}

/** "24/11/2026, 14:05" (en), "24.11.2026, 14:05" (de), "2026/11/24 14:05" (zh). */
export function formatDateTime(ms: number, language?: string): string {
  return dateFormat('dateTime', language).format(ms);
}

/** "24/11/2026"; with `schedule`, the date on that exchange's calendar (a daily bar's day). */
export function formatDate(ms: number, language?: string, schedule?: ScheduleId): string {
  return dateFormat('date', language, schedule && exchangeZone(schedule).timeZone).format(ms);
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * "14:05:09", in the phone's zone. Every interface language writes this time alike (2-digit, 24-hour,
 * colons: tests/unit/format.test.ts compares it with Intl), so it is written without Intl, as
 * `fixed` is: Home's as-of time is then not the first Intl formatter of the page, with its long task.
 */
export function formatTime(ms: number, language?: string): string {
  const at = new Date(ms);
  if (Number.isNaN(at.getTime())) return dateFormat('time', language).format(ms);
  return `${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}`;
}

/** "22/11 – 26/11/2026": the year once when both ends share it. */
export function formatDateRange(from: number, to: number, language?: string): string {
  const start =
    new Date(from).getFullYear() === new Date(to).getFullYear()
      ? dateFormat('dayMonth', language).format(from)
      : formatDate(from, language);
  return `${start} – ${formatDate(to, language)}`;
}

/**
 * A chart's time axis: the clock for minute bars, "24 Nov" for days, "Nov 26" for weeks and months;
 * with `schedule`, in that exchange's zone (its session reads 09:15–15:30, its daily bars their own day).
 */
export function formatAxisTime(
  ms: number,
  bars: 'minute' | 'day' | 'month',
  language?: string,
  schedule?: ScheduleId,
): string {
  return dateFormat(
    bars === 'minute' ? 'clock' : bars === 'day' ? 'axisDay' : 'axisMonth',
    language,
    schedule && exchangeZone(schedule).timeZone,
  ).format(ms);
}

/** A message time: the clock alone for today, the date and clock otherwise. */
export function formatMessageTime(ms: number, language?: string, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString()
    ? dateFormat('clock', language).format(ms)
    : formatDateTime(ms, language);
}

/**
 * How an exchange's time is told: `clock` "09:15 IST", `weekdayClock` "Mon 09:15 IST",
 * `time` "14:05:09 IST", `dateTime` "24/11/2026, 14:05 IST".
 */
export type ExchangeTimeKind = 'clock' | 'weekdayClock' | 'dayMonthClock' | 'time' | 'dateTime';

/**
 * An exchange's time — its hours, when it opens or closes, the as-of time of its prices, its
 * orders' times — in the exchange's own zone with the zone's label ("09:15 IST", "09:30 ET"),
 * whatever the phone's zone (DESIGN "Closed markets"). The one formatter of exchange times.
 */
export function formatExchangeTime(
  ms: number,
  schedule: ScheduleId,
  kind: ExchangeTimeKind,
  language?: string,
): string {
  const zone = exchangeZone(schedule);
  return `${dateFormat(kind, language, zone.timeZone).format(ms)} ${zone.label}`;
}

/** Whether two instants fall on one calendar day of the exchange's zone. */
export function sameExchangeDay(a: number, b: number, schedule: ScheduleId): boolean {
  const f = dateFormat('date', 'en', exchangeZone(schedule).timeZone);
  return f.format(a) === f.format(b);
}

/** An opening or close: "15:30 IST" on the exchange's today, "Mon 09:15 IST" on another day. */
export function formatExchangeSession(
  ms: number,
  schedule: ScheduleId,
  now: number,
  language?: string,
): string {
  return formatExchangeTime(
    ms,
    schedule,
    sameExchangeDay(ms, now, schedule) ? 'clock' : 'weekdayClock',
    language,
  );
}

/** A price's as-of time: "14:05:09 IST" on the exchange's today, "24/11/2026, 14:05 IST" otherwise. */
export function formatExchangeAsOf(ms: number, schedule: ScheduleId, now: number, language?: string): string {
  return formatExchangeTime(ms, schedule, sameExchangeDay(ms, now, schedule) ? 'time' : 'dateTime', language);
}

/** Sparkline paths are drawn in this box (workers/chart.ts); the SVG scales it (preserveAspectRatio="none"). */
export const SPARK_WIDTH = 100;
export const SPARK_HEIGHT = 32;
export const SPARK_VIEWBOX = `0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`;

/** The device's time zone (IANA), in which notification quiet hours are kept. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
