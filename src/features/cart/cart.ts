// Light checks, not zod: this module is in every page's header script, and any zod schema in the
// browser brings zod's ~17 KB core with it (src/lib/light-schema.ts).
import { array, type Infer, int, object, orElse, string, withDefault } from '../../lib/light-schema.ts';
import type { Kobo } from '../../lib/money.ts';

/**
 * The cart's rules (spec section 4), pure so the islands, the header script and
 * the tests share them. A line is identified by product id plus variant.
 */

/**
 * The most units of one product one order may hold (issue 8: a consumer store, and a
 * script must not be able to put the catalogue on hold). The one home of the rule: the
 * cart caps a line at it, the checkout schema (src/features/orders/checkout.ts) refuses
 * more across an order's lines, and the Worker enforces it (or a lower configured value).
 * Here, not in checkout.ts, because this module must stay free of full zod.
 */
export const MAX_UNITS_PER_PRODUCT = 5;

/** The most a cart line may hold: what one order may hold of one product. */
export const MAX_LINE_QUANTITY = MAX_UNITS_PER_PRODUCT;

/**
 * The share of a product's (or variant's) units that unpaid orders may hold together (issue 20):
 * the default of the Worker's MAX_UNPAID_SHARE_PER_PRODUCT (functions/env.ts reads it from here).
 */
export const UNPAID_SHARE_PER_PRODUCT = 0.5;

/**
 * The most one new order may take of a product (or variant) with `stock` units on the shelf, as
 * the product page offers it: the per-order limit, and the share of the units unpaid orders may
 * hold, since every order waits unpaid until its transfer is in. The Worker's rule
 * (`mostHeld()` in functions/orders/limits.ts) with no other order holding any: at least one,
 * else the share rounded down. While other unpaid orders hold some, the Worker allows fewer, and
 * the cart's quote says so. 0 when none is on the shelf.
 */
export function mostPerOrder(stock: number, share = UNPAID_SHARE_PER_PRODUCT): number {
  if (stock <= 0) return 0;
  return Math.min(stock, MAX_LINE_QUANTITY, Math.max(1, Math.floor(share * stock + 0.000001)));
}

export const cartItemSchema = object({
  id: string({ min: 1 }),
  name: string({ min: 1 }),
  /** Price in kobo when the item was added; the server prices the order itself. */
  price: int({ min: 0 }),
  image: string(),
  /** The variant's id ('' for a product without variants)… */
  variant: withDefault(string(), ''),
  /** …and its label as the shopper reads it ("512GB"). */
  variantLabel: withDefault(string(), ''),
  /** Not capped here: a cart stored when the limit was higher is capped when read, not dropped. */
  quantity: int({ min: 1 }),
});

export type CartItem = Infer<typeof cartItemSchema>;
export type CartLine = Pick<CartItem, 'id' | 'variant'>;

const storedCartSchema = orElse(array(cartItemSchema), []);

/** Reads the cart from storage. Anything that does not parse is dropped, never thrown. */
export function parseStoredCart(raw: string | undefined | null): CartItem[] {
  if (!raw) return [];
  try {
    return storedCartSchema.parse(JSON.parse(raw)).map((item) => ({ ...item, quantity: clamp(item.quantity) }));
  } catch {
    return [];
  }
}

const sameLine = (a: CartLine, b: CartLine) => a.id === b.id && a.variant === b.variant;

const clamp = (quantity: number) => Math.min(MAX_LINE_QUANTITY, Math.floor(quantity));

/**
 * Adds an item: the same line gains quantity, otherwise a new line is appended; the line holds at
 * most `most` units (what one order may take of it, mostPerOrder(), when the caller knows its
 * stock; never more than MAX_LINE_QUANTITY). A line that already holds more keeps what it has.
 */
export function addItem(
  items: readonly CartItem[],
  item: Omit<CartItem, 'quantity' | 'variant' | 'variantLabel'> & Partial<Pick<CartItem, 'variant' | 'variantLabel'>>,
  quantity = 1,
  most = MAX_LINE_QUANTITY,
): CartItem[] {
  if (!(quantity >= 1)) return [...items];
  const line = { ...item, variant: item.variant ?? '', variantLabel: item.variantLabel ?? '' };
  const cap = (held: number) => Math.max(held, clamp(Math.min(held + quantity, Math.max(1, most))));
  const existing = items.find((i) => sameLine(i, line));
  if (!existing) return [...items, { ...line, quantity: cap(0) }];
  return items.map((i) => (sameLine(i, line) ? { ...i, quantity: cap(i.quantity) } : i));
}

/** How many units of `line` the cart holds (0 when it has no such line). */
export function quantityOf(items: readonly CartItem[], line: CartLine): number {
  return items.find((i) => sameLine(i, line))?.quantity ?? 0;
}

export function removeItem(items: readonly CartItem[], line: CartLine): CartItem[] {
  return items.filter((i) => !sameLine(i, line));
}

/** Sets a line's quantity; 0 or less removes the line. */
export function setQuantity(items: readonly CartItem[], line: CartLine, quantity: number): CartItem[] {
  if (!(quantity > 0)) return removeItem(items, line);
  return items.map((i) => (sameLine(i, line) ? { ...i, quantity: Math.max(1, clamp(quantity)) } : i));
}

/** Sets a line's price to the live one (the shopper is shown that it changed). */
export function setPrice(items: readonly CartItem[], line: CartLine, price: Kobo): CartItem[] {
  return items.map((i) => (sameLine(i, line) ? { ...i, price } : i));
}

/** A line as the shopper reads it: the product, and its variant when it has one ("Apple iPhone 17 (512GB)"). */
export function lineTitle(item: Pick<CartItem, 'name' | 'variant' | 'variantLabel'>): string {
  const variant = item.variantLabel || item.variant;
  return variant ? `${item.name} (${variant})` : item.name;
}

/** The key that names a line in lists and maps. */
export function lineKey(line: CartLine): string {
  return `${line.id}\u0000${line.variant}`;
}

export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((n, i) => n + i.quantity, 0);
}

export function cartSubtotal(items: readonly CartItem[]): Kobo {
  return items.reduce((sum, i) => sum + i.price * i.quantity, 0);
}
