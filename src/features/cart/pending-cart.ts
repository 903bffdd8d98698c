// Light checks, not zod: the browser side of this module runs in every page's header script
// (cart-store.browser.ts), where any zod schema brings zod's ~17 KB core (src/lib/light-schema.ts).
import { int, string, tuple } from '../../lib/light-schema.ts';
import { MAX_LINE_QUANTITY } from './cart.ts';

/**
 * Lines added to the cart by a form (POST /cart/add: a tap before the page's JavaScript ran,
 * or a browser without it), waiting in the cookie `gts_cart_add` until the cart store takes
 * them into the cart kept in this browser (cart-store.browser.ts) and deletes the cookie.
 * Without JavaScript the cookie is the cart: /cart shows its lines, priced from D1.
 *
 * The Worker writes each line with the name, price and image the cart shows, read from D1, so
 * the store can take a line in at once, offline too, without asking the API. The cookie is a
 * URI-encoded JSON list of tuples `[id, variant, quantity, name, price (kobo), image, variant label]`.
 */
export const PENDING_CART_COOKIE = 'gts_cart_add';

/** What one order may hold: as many different lines as a cart can check out (MAX_ORDER_LINES). */
export const PENDING_CART_MAX_LINES = 10;

/** The cookie's value stays well under the 4 KB a browser keeps for one cookie. */
export const PENDING_CART_MAX_BYTES = 3_600;

/** How long lines wait for a browser with JavaScript to take them (a browser without it keeps its cart here). */
export const PENDING_CART_MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface PendingLine {
  id: string;
  /** The variant id; '' for a product without variants. */
  variant: string;
  /** The variant's label ("256GB"); '' without one. */
  variantLabel: string;
  quantity: number;
  name: string;
  /** Kobo, when the line was added (the cart checks live prices). */
  price: number;
  image: string;
}

const tupleSchema = tuple([
  string({ min: 1, max: 80 }),
  string({ max: 60 }),
  int({ min: 1, max: MAX_LINE_QUANTITY }),
  string({ min: 1, max: 200 }),
  int({ min: 0 }),
  string({ max: 300 }),
  string({ max: 60 }),
]);

/** The cookie's value for these lines. */
export function encodePendingCart(lines: readonly PendingLine[]): string {
  return encodeURIComponent(
    JSON.stringify(lines.map((l) => [l.id, l.variant, l.quantity, l.name, l.price, l.image, l.variantLabel])),
  );
}

/** The lines in a cookie value; a line that does not parse is dropped, a value that does not parse is no lines. */
export function decodePendingCart(value: string | undefined): PendingLine[] {
  if (!value) return [];
  let list: unknown;
  try {
    list = JSON.parse(decodeURIComponent(value));
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const lines: PendingLine[] = [];
  for (const entry of list.slice(0, PENDING_CART_MAX_LINES)) {
    const parsed = tupleSchema.safeParse(entry);
    if (!parsed.success) continue;
    const [id, variant, quantity, name, price, image, variantLabel] = parsed.data;
    lines.push({ id, variant, variantLabel, quantity, name, price, image });
  }
  return lines;
}

/** One cookie's value from a Cookie header (or `document.cookie`), still encoded. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Set-Cookie for the pending lines: readable by the page's script (it takes them into the cart), sent only by this site's own requests. */
export function pendingCartSetCookie(lines: readonly PendingLine[], { secure }: { secure: boolean }): string {
  return `${PENDING_CART_COOKIE}=${encodePendingCart(lines)}; Path=/; Max-Age=${PENDING_CART_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The same cookie deleted. */
export function pendingCartDeleteCookie({ secure }: { secure: boolean }): string {
  return `${PENDING_CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? '; Secure' : ''}`;
}
