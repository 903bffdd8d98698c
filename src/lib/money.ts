/**
 * Money is integer kobo everywhere (1 naira = 100 kobo); this module is the only
 * place that converts to or from naira, and formatNaira() is the only formatter.
 */
export type Kobo = number;

/**
 * ₦1,250,000.00 — or ₦1,250,000 when the amount has no kobo and `compact` is set.
 *
 * Written out rather than through Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }),
 * whose output it matches (money.test.ts checks them against each other): making that formatter
 * took about 14 ms on this machine's Chromium, four times that on a slow phone, and every page's
 * start-up script formats a price or loads this module (issue 23).
 */
export function formatNaira(kobo: Kobo, { compact = true }: { compact?: boolean } = {}): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.round(Math.abs(kobo));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = abs % 100;
  return compact && rest === 0 ? `${sign}₦${whole}` : `${sign}₦${whole}.${String(rest).padStart(2, '0')}`;
}

/**
 * Converts a naira amount with at most two decimals to kobo without floating-point
 * drift (0.29 * 100 is 28.999999999999996 in binary floating point).
 */
export function nairaToKobo(naira: number): Kobo {
  if (!Number.isFinite(naira)) throw new RangeError(`not a finite amount: ${naira}`);
  const [whole, fraction = ''] = Math.abs(naira).toFixed(2).split('.');
  const kobo = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return naira < 0 ? -kobo : kobo;
}

/** Whole naira (as the price filters take them) to kobo. */
export function wholeNairaToKobo(naira: number): Kobo {
  return Math.round(naira) * 100;
}

/**
 * The amount as plain decimal digits, the way a banking app wants it typed and
 * schema.org wants a price: "130500", or "1299.50" when there are kobo.
 */
export function plainNaira(kobo: Kobo): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const whole = Math.floor(abs / 100);
  const rest = abs % 100;
  return rest === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(rest).padStart(2, '0')}`;
}

/**
 * True when the number has no more than two decimal places (a valid naira amount), read from its
 * shortest decimal form, which is how it was typed or sent: 1299.99 is, 850499.999999999 is not
 * (a tolerance on n × 100 let that one round up to a whole ₦850,500).
 */
export function hasAtMostTwoDecimals(n: number): boolean {
  return Number.isFinite(n) && /^-?\d+(\.\d{1,2})?$/.test(String(n));
}

/**
 * Naira as someone types it into an amount box: separators and the naira sign allowed
 * ("1,250,000", "₦ 1 250 000.50" → 1250000.5); empty is undefined (not given); anything else is
 * NaN, which a schema's number check names. The admin's amount boxes read what they take with it.
 */
export function typedNaira(text: string): number | undefined {
  const plain = text.replace(/[\s,₦]/g, '');
  if (plain === '') return undefined;
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

/** typedNaira() for a form field whose schema wants a number: a number stays; an empty box is NaN too (the schema says it is missing). */
export function typedAmount(value: unknown): number {
  return typeof value === 'number' ? value : (typedNaira(String(value ?? '')) ?? Number.NaN);
}
