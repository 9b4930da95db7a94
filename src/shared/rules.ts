import { toMinor, unitsToMinor } from './money';

/**
 * Validation rules of SPEC §5 and the constants of §9, written once for the app and the server.
 * Each check returns null when the value is fine, or the i18n key of the message to show.
 */

export const PHONE_LENGTH = 10;
const PASSWORD_MIN = 6;
const TRADE_PASSWORD_LENGTH = 6;
export const MIN_RECHARGE = 5000;
const MIN_WITHDRAW_FIXED = 10;
export const DEFAULT_MIN_WITHDRAW = 100;
export const MIN_LOAN = 500;
export const DEFAULT_CREDIT_SCORE = 100;
export const STOCK_QTY_MIN = 1;
export const STOCK_QTY_MAX = { half: 50, full: 100 } as const;
export const IPO_QTY_STEP = 100;
export const BLOCK_DEFAULT_MIN_QTY = 100;
export const PAGE_SIZE = 10;
/** SPEC §9: the account screen's market list. */
export const ACCOUNT_MARKET_LIMIT = 3;
export const NEWS_PAGE_SIZES = [10, 20, 30, 50] as const;
export const SEARCH_DEBOUNCE_MS = 300;
/** Watchlists: lists per user, instruments per list. */
export const WATCHLIST_MAX_LISTS = 10;
export const WATCHLIST_MAX_ITEMS = 50;
/**
 * Price alerts a user keeps, triggered ones included (counting only active ones let
 * re-arming make any number), and how many times a user's alerts may trigger in 24 hours before
 * creating or re-arming one is refused.
 */
export const ALERTS_MAX = 50;
export const ALERT_FIRES_PER_DAY = 100;
/** A "% move in the day" alert: between these percents. */
export const ALERT_MOVE_MIN = 0.1;
export const ALERT_MOVE_MAX = 50;
export const REQUEST_TIMEOUT_MS = 10_000;
export const MESSAGES_TTL_MS = 1_800_000;
export const REDIRECT_DELAY_MS = 1500;
export const FUND_BUTTON_REENABLE_MS = 800;

export type Check = string | null;

/** Strips everything but digits, as the phone and amount inputs do while typing. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

export function checkRequired(...values: string[]): Check {
  return values.some((v) => v.trim() === '') ? 'hint.requiredFields' : null;
}

export function checkPhone(phone: string): Check {
  return new RegExp(`^\\d{${PHONE_LENGTH}}$`).test(phone) ? null : 'hint.phoneNumberInvalid';
}

export function checkPassword(password: string): Check {
  return password.length >= PASSWORD_MIN ? null : 'hint.passwordTooShort';
}

export function checkPasswordsMatch(password: string, confirm: string): Check {
  return password === confirm ? null : 'hint.passwordNotMatch';
}

export function checkTradePassword(code: string): Check {
  return new RegExp(`^\\d{${TRADE_PASSWORD_LENGTH}}$`).test(code) ? null : 'hint.tradePasswordInvalid';
}

/** A whole, positive amount typed as digits; returns the number or null. */
export function parseWholeAmount(text: string): number | null {
  if (!/^\d{1,12}$/.test(text)) return null;
  const n = Number(text);
  return n > 0 ? n : null;
}

/** The withdraw minimum settled in DESIGN.md: the larger of the fixed 10 and the configured one. */
export function withdrawMinimum(configured: number | null | undefined): number {
  return Math.max(MIN_WITHDRAW_FIXED, configured ?? DEFAULT_MIN_WITHDRAW);
}

/**
 * Display codes drop the exchange suffixes .BO and .NS (SPEC §9), and the data provider's marks no
 * trader writes: a pair's =X (USDINR), a future's =F (GC), an index's leading ^ (NSEI).
 */
export function displayCode(symbol: string): string {
  return symbol
    .replace(/\.(BO|NS)$/i, '')
    .replace(/=[XF]$/i, '')
    .replace(/^\^/, '');
}

/** A phone number as typed or pasted: digits only, at most PHONE_LENGTH of them. */
export function typedPhone(text: string): string {
  return digitsOnly(text).slice(0, PHONE_LENGTH);
}

/** Indian Financial System Code: 4 letters (bank), a zero, 6 letters/digits (branch). */
const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** Elsewhere the field holds a SWIFT/BIC (8 or 11) or a national routing code (digits). */
const ROUTING_PATTERN = /^(?:[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?|\d{6,11})$/;
/** Bank account and card numbers: 8 to 20 digits once spaces are removed. */
const ACCOUNT_NUMBER_PATTERN = /^\d{8,20}$/;

/** Spaces and dashes people type inside card numbers and codes. */
export function compactCode(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

/** The branch code of a bank card: an IFSC when the account currency is INR. */
export function checkBranchCode(code: string, currencyUnit: string): Check {
  const pattern = currencyUnit === 'INR' ? IFSC_PATTERN : ROUTING_PATTERN;
  return pattern.test(compactCode(code)) ? null : 'errors.ifscInvalid';
}

export function checkBankCardNumber(number: string): Check {
  return ACCOUNT_NUMBER_PATTERN.test(compactCode(number)) ? null : 'errors.bankCardInvalid';
}

/** Identity photos (SPEC §5/§9): fit within 1200×1200 at quality 0.8, lower quality while over 1 MB. */
export const IMAGE_MAX_SIDE = 1200;
const IMAGE_QUALITY = 0.8;
export const IMAGE_MAX_BYTES = 1024 * 1024;
/** Qualities tried in turn once the first encoding is over IMAGE_MAX_BYTES. */
export const IMAGE_QUALITY_STEPS = [IMAGE_QUALITY, 0.7, 0.6, 0.5, 0.4, 0.3] as const;

/** The size an image is drawn at: scaled down (never up) to fit a max × max box, aspect kept. */
export function fitWithin(
  width: number,
  height: number,
  max = IMAGE_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export function checkRechargeAmount(units: number): Check {
  return units >= MIN_RECHARGE ? null : 'errors.rechargeMin';
}

/** `minimum` is `withdrawMinimum(config)`; the message shows it. */
export function checkWithdrawAmount(units: number, minimum: number): Check {
  return units >= minimum ? null : 'errors.withdrawMin';
}

export function checkLoanAmount(units: number): Check {
  return units >= MIN_LOAN ? null : 'errors.loanMin';
}

/** The contract's largest whole amount (WholeAmount, 1e9) has 10 digits; more is never valid. */
const AMOUNT_MAX_DIGITS = 10;

/** A wallet amount as typed or pasted: digits only (SPEC §5), at most AMOUNT_MAX_DIGITS. */
export function typedAmount(text: string): string {
  return digitsOnly(text).slice(0, AMOUNT_MAX_DIGITS);
}

/** A typed amount is more than the available balance (a decimal string), compared exactly. */
function exceeds(units: number, available: string | null | undefined): boolean {
  if (available === null || available === undefined) return false;
  const minor = toMinor(available);
  return minor !== null && unitsToMinor(units) > minor;
}

/**
 * The inline message under a wallet amount while it is typed: nothing while empty, otherwise what
 * is wrong with it. The submit button is disabled while this is not null.
 */
function amountInline(text: string, rule: (units: number) => Check, invalidKey: string): Check {
  if (text === '') return null;
  const units = parseWholeAmount(text);
  return units === null ? invalidKey : rule(units);
}

/** SPEC §5 recharge, inline: below 5000 (or not a whole amount) while typed. */
export function rechargeInline(text: string): Check {
  return amountInline(text, checkRechargeAmount, 'wallet.recharge.invalidAmount');
}

/** SPEC §5 recharge, on submit: the amount, the method (bank is the only one), then the inline rules. */
export function checkRechargeForm(method: string | null, text: string): Check {
  if (text === '') return 'wallet.recharge.enterAmount';
  if (method !== 'bank') return 'wallet.recharge.selectMethod';
  return rechargeInline(text);
}

/**
 * SPEC §5 withdraw, inline: below the minimum (`withdrawMinimum(config)`, shown in the message) or
 * above the available balance.
 */
export function withdrawInline(text: string, minimum: number, available?: string | null): Check {
  return amountInline(
    text,
    (units) =>
      checkWithdrawAmount(units, minimum) ?? (exceeds(units, available) ? 'errors.insufficientFunds' : null),
    'wallet.withdraw.invalidAmount',
  );
}

/** SPEC §5 withdraw: a bank card, an amount, then the inline rules. Submit stays disabled until null. */
export function checkWithdrawForm(
  bankId: number | null,
  text: string,
  minimum: number,
  available?: string | null,
): Check {
  if (bankId === null) return 'wallet.withdraw.selectCard';
  if (text === '') return 'wallet.withdraw.enterAmount';
  return withdrawInline(text, minimum, available);
}

/** SPEC §5 loan, inline: below 500, or above the remaining credit (`errors.loanOverLimit`). */
export function loanInline(text: string, remaining?: string | null): Check {
  return amountInline(
    text,
    (units) => checkLoanAmount(units) ?? (exceeds(units, remaining) ? 'errors.loanOverLimit' : null),
    'wallet.loan.invalidAmount',
  );
}

/** SPEC §5 loan: an amount, then the inline rules. Submit stays disabled until null. */
export function checkLoanForm(text: string, remaining?: string | null): Check {
  return text === '' ? 'wallet.loan.enterAmount' : loanInline(text, remaining);
}
/**
 * How far (basis points) the server's quote may move against the user from the price they saw
 * before a stock order stops filling at once and rests as a pending limit order at their price.
 */
export const PRICE_TOLERANCE_BPS = 100;

/** A protected limit's grid (ticks): whole hundredths, a price of every instrument here (2 or 4 decimals). */
const PROTECTION_GRID = 100n;

/**
 * The protection of a market order (an after-market order's limit) and a stop-loss-market's limit:
 * the price seen or the trigger (ticks) moved PRICE_TOLERANCE_BPS against the user, then
 * onto whole hundredths away from them (a buy up, a sell down: never less than the tolerance) — a
 * price the instrument can quote, shown with two decimals, never "₹1,969.0960". The
 * server reserves there; the ticket prices the review there.
 */
export function protectedLimit(side: 'buy' | 'sell', triggerTicks: number): number {
  const bps = side === 'buy' ? 10_000 + PRICE_TOLERANCE_BPS : 10_000 - PRICE_TOLERANCE_BPS;
  const moved = BigInt(triggerTicks) * BigInt(bps);
  const step = 10_000n * PROTECTION_GRID;
  return Number((side === 'buy' ? (moved + step - 1n) / step : moved / step) * PROTECTION_GRID);
}

/** SPEC §7 polling intervals, for `useWatch(name, input, POLL_MS.x)`. */
export const POLL_MS = {
  accountInfo: 3000,
  indexCard: 5000,
  stockDetailList: 3000,
  /** Holdings, forex, futures and treasury prices. */
  prices: 5000,
  stockTrading: 3000,
  unreadCount: 10_000,
} as const;

/** The largest quantity an order takes (the contract's Quantity schema). */
export const QUANTITY_MAX = 10_000_000;

/** The quantities an IPO takes (SPEC §5): whole lots of IPO_QTY_STEP from its min to its max. */
export function ipoQuantityBounds(min: number, max: number): { min: number; max: number } {
  const lo = Math.ceil(Math.max(min, IPO_QTY_STEP) / IPO_QTY_STEP) * IPO_QTY_STEP;
  const hi = Math.floor(Math.min(max, QUANTITY_MAX) / IPO_QTY_STEP) * IPO_QTY_STEP;
  return { min: lo, max: Math.max(lo, hi) };
}

/** A typed IPO quantity clamped between the IPO's min and max, down to a whole lot. */
export function clampIpoQuantity(qty: number, min: number, max: number): number {
  const bounds = ipoQuantityBounds(min, max);
  if (!Number.isFinite(qty)) return bounds.min;
  const lots = Math.floor(qty / IPO_QTY_STEP) * IPO_QTY_STEP;
  return Math.min(bounds.max, Math.max(bounds.min, lots));
}

/** SPEC §5 block/QIP quantity: at least the item's minimum (SPEC's exact message). */
export function checkBlockQuantity(qty: number, minimum: number): Check {
  return qty >= minimum ? null : 'errors.belowMinimumQuantity';
}

/** SPEC §5 stock trading: the position size sets the largest quantity one order takes. */
export type PositionSize = keyof typeof STOCK_QTY_MAX;
export const DEFAULT_POSITION_SIZE: PositionSize = 'half';

/**
 * The ticket's largest quantity and why: SPEC's half/full position limit, or what limits
 * this order beyond it — the quantity the balance affords (a buy) or the shares free to sell (a
 * sell), as the server answered it; the smaller wins. `limit` null: not known yet.
 */
export function quantityMaximum(
  size: PositionSize,
  side: 'buy' | 'sell',
  limit: number | null,
): { qty: number; reason: PositionSize | 'funds' | 'shares' } {
  const position = STOCK_QTY_MAX[size];
  if (limit === null || limit >= position) return { qty: position, reason: size };
  return { qty: Math.max(0, limit), reason: side === 'buy' ? 'funds' : 'shares' };
}

/**
 * A typed stock quantity (SPEC §5): at least 1 ('Quantity cannot be less than 1'), at most 50 for
 * a half position and 100 for a full one ('Cannot exceed N for half/full position'; the message
 * takes `{ max: STOCK_QTY_MAX[size] }`). An empty or unparsable field counts as below the minimum.
 */
export function checkStockQuantity(qty: number | null, size: PositionSize): Check {
  if (qty === null || !Number.isFinite(qty) || qty < STOCK_QTY_MIN) return 'trade.qty.min';
  if (qty > STOCK_QTY_MAX[size]) return size === 'half' ? 'trade.qty.maxHalf' : 'trade.qty.maxFull';
  return null;
}

/** A sell may not take more than the free (not reserved) units of the position. */
export function checkSellQuantity(qty: number, available: number): Check {
  return qty > available ? 'errors.insufficientShares' : null;
}

/** The stepper's − and +: one unit at a time, kept within 1..max of the position size. */
export function stepStockQuantity(qty: number | null, delta: 1 | -1, size: PositionSize): number {
  const from = qty === null || !Number.isFinite(qty) ? STOCK_QTY_MIN - delta : Math.trunc(qty);
  return clampStockQuantity(from + delta, size);
}

export function clampStockQuantity(qty: number, size: PositionSize): number {
  if (!Number.isFinite(qty)) return STOCK_QTY_MIN;
  return Math.min(STOCK_QTY_MAX[size], Math.max(STOCK_QTY_MIN, Math.trunc(qty)));
}

/** The digits of a quantity field as a number, or null while it is empty. */
export function parseQuantity(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** Holdings types (SPEC §2 /trade-no-nav/{type}): an unknown route param falls back to stock. */
export const HOLDING_TYPES = ['stock', 'forex', 'futures', 'treasury'] as const;
export type HoldingKind = (typeof HOLDING_TYPES)[number];
export function holdingType(param: string | null | undefined): HoldingKind {
  return (HOLDING_TYPES as readonly string[]).includes(param ?? '') ? (param as HoldingKind) : 'stock';
}

/** The holdings type of an instrument by its market code (futures FUTURE, treasury CGI, SPEC §9). */
export function holdingTypeOfMarket(market: string): HoldingKind {
  switch (market.toUpperCase()) {
    case 'FOREX':
      return 'forex';
    case 'FUTURE':
      return 'futures';
    case 'CGI':
      return 'treasury';
    default:
      return 'stock';
  }
}

/** SPEC §9: the next page of an infinite list loads when its end comes within this many pixels. */
export const INFINITE_SCROLL_PX = 50;
