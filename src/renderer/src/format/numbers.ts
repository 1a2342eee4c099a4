// Every number the page shows, formatted in one place: prices in cents (at the ladder's decimals, on a market's
// tick, or bare for the grid), shares and dollars; a figure that is not a number reads as a dash, never "NaN".
import { PRICE_DECIMALS, type TickSize } from '@pmdesk/toolkit/model';

/** What a figure that is unknown (null, undefined, NaN, ±Infinity) reads as. */
export const UNKNOWN = '—';

type Figure = number | null | undefined;
const known = (value: Figure): value is number => typeof value === 'number' && Number.isFinite(value);

// One formatter per format for every call: `toLocaleString` with options builds a new Intl.NumberFormat each time,
// which was the ladder's largest JS cost under a busy book (hundreds of rows a second). Same output.
const SHARES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Decimals a price in cents needs at this tick: 0.01 → 0 ("52¢"), 0.001 → 1 ("52.3¢"). */
export function centDecimals(tickSize: string | number | undefined): number {
  const text = tickSize === undefined ? '0.01' : String(tickSize);
  const decimals = text.includes('.') ? text.split('.')[1]!.length : 0;
  return Math.max(0, decimals - 2);
}

/** A 0..1 price as cents with at least `decimals` decimals, as the ladder, the tape and the chart show it ("52.0¢"). */
export function formatCents(price: Figure, decimals = 1): string {
  if (!known(price)) return UNKNOWN;
  const cents = Math.round(price * 10_000) / 100;
  // Never hide a finer price than the tick suggests (a book off the grid still shows what it says).
  const needed = Number.isInteger(cents) ? 0 : Number.isInteger(cents * 10) ? 1 : 2;
  return `${cents.toFixed(Math.max(decimals, needed))}¢`;
}

/** 0.455 → "45.5": as many cent decimals as the tick allows, no trailing zeros (what the ticket's price field holds). */
export function priceToCents(price: number, tick: TickSize = '0.0001'): string {
  if (!Number.isFinite(price)) return UNKNOWN;
  const decimals = Math.max(0, PRICE_DECIMALS[tick] - 2);
  return String(Number((price * 100).toFixed(decimals)));
}

/** A price as the ticket and the account tables show it: cents at the tick's decimals, no trailing zeros ("45.5¢"). */
export function formatTickCents(price: Figure, tick?: TickSize): string {
  return known(price) ? `${priceToCents(price, tick)}¢` : UNKNOWN;
}

/** A price as bare cents for the markets grid, whose column adds the sign: a whole cent or one decimal ("52", "52.5"). */
export function centsText(price: Figure): string {
  if (!known(price)) return UNKNOWN;
  const cents = price * 100;
  return Number.isInteger(Math.round(cents * 10) / 10) ? cents.toFixed(0) : cents.toFixed(1);
}

/** Shares, grouped, at most two decimals ("1,234.5"). */
export function formatShares(size: Figure): string {
  if (!known(size)) return UNKNOWN;
  const text = SHARES.format(size);
  // A size that rounds to zero reads "0", never "-0".
  return text === '-0' ? '0' : text;
}

/** How many characters formatShares writes for `size`, counted without formatting (the ladder asks it of every row). */
export function sharesTextLength(size: Figure): number {
  if (!known(size)) return UNKNOWN.length;
  // Rounded as Intl rounds: half away from zero on the number's shortest decimal form (9.995 → "10", where
  // 9.995 * 100 is 999.4999…).
  const shifted = Number(`${Math.abs(size)}e2`);
  const hundredths = Math.round(Number.isFinite(shifted) ? shifted : Math.abs(size) * 100);
  const digits = String(Math.floor(hundredths / 100)).length;
  const fraction = hundredths % 100;
  return (
    (size < 0 && hundredths > 0 ? 1 : 0) +
    digits +
    Math.floor((digits - 1) / 3) +
    (fraction === 0 ? 0 : fraction % 10 === 0 ? 2 : 3)
  );
}

/** Dollars with cents, grouped; a loss with a true minus sign ("$1,234.50", "−$3.20"; never "−$0.00"). */
export function formatUsd(value: Figure): string {
  if (!known(value)) return UNKNOWN;
  const text = USD.format(Math.abs(value));
  return value < 0 && text !== '$0.00' ? `−${text}` : text;
}

/** A profit or loss: "+$1.20", "−$0.40", "$0.00" (no sign on what rounds to zero). */
export function signedUsd(value: Figure): string {
  const text = formatUsd(value);
  return known(value) && value > 0 && text !== '$0.00' ? `+${text}` : text;
}

/** A change as a share: "+12.5 %", "−3 %", "0 %" (two decimals at most, no sign on what rounds to zero). */
export function signedPercent(value: Figure): string {
  if (!known(value)) return UNKNOWN;
  const text = `${PERCENT.format(Math.abs(value))} %`;
  return text === '0 %' ? text : value > 0 ? `+${text}` : `−${text}`;
}
