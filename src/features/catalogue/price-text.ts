// No zod here: the listing's plain script (listing.browser.ts) checks the price boxes with these,
// and any zod schema in the browser brings zod's ~17 KB core with it (src/lib/light-schema.ts).
import { formatNaira, wholeNairaToKobo } from '../../lib/money.ts';

/** The price filter's default range in naira (spec section 5): its open ends, the query schema's defaults (search.ts). */
export const PRICE_FILTER_MIN_NAIRA = 0;
export const PRICE_FILTER_MAX_NAIRA = 5_000_000;

/** "1500000" → "1,500,000": how the price boxes show whole naira. */
export function formatNairaText(naira: number): string {
  return String(Math.trunc(naira)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export type NairaText = { ok: true; naira: number | null } | { ok: false; message: string };

/**
 * A price box's text: whole naira, separators and the naira sign allowed ("₦1,500,000");
 * empty is `null` (that end of the range is open). The limits are the query schema's.
 */
export function parseNairaText(text: string): NairaText {
  const digits = text.replace(/[\s,₦]/g, '');
  if (digits === '') return { ok: true, naira: null };
  if (!/^\d+$/.test(digits)) return { ok: false, message: 'Enter a whole number of naira, like 150,000' };
  const naira = Number(digits);
  if (naira > 100_000_000) return { ok: false, message: 'Enter at most ₦100,000,000' };
  return { ok: true, naira };
}

/** Why a price range cannot be searched (the max below the min), said with both amounts; undefined when it can. */
export function priceRangeProblem(minNaira: number, maxNaira: number): string | undefined {
  if (maxNaira >= minNaira) return undefined;
  const naira = (n: number) => formatNaira(wholeNairaToKobo(n));
  return `The max price (${naira(maxNaira)}) is below the min price (${naira(minNaira)}): raise the max or lower the min.`;
}
