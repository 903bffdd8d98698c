import { computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import type { Kobo } from '../../lib/money.ts';
import {
  addItem,
  cartCount,
  parseStoredCart,
  quantityOf,
  removeItem,
  setPrice,
  setQuantity,
  type CartItem,
  type CartLine,
} from './cart.ts';
import { decodePendingCart, PENDING_CART_COOKIE, pendingCartDeleteCookie, readCookie } from './pending-cart.ts';

/**
 * The cart, shared by every island and the header through one store, persisted to
 * localStorage key `cartItems` and kept in step across tabs (storage events).
 */
export const $cartItems = persistentAtom<CartItem[]>('cartItems', [], {
  encode: JSON.stringify,
  decode: parseStoredCart,
});

export const $cartCount = computed($cartItems, cartCount);

/**
 * Lines added by the Add to Cart form (POST /cart/add, before this page's JavaScript ran or in
 * a browser without it) wait in the `gts_cart_add` cookie (pending-cart.ts): taken into the
 * cart once, when this module loads (every page's header script loads it), then deleted.
 * Deleted before merging, so a second copy of this module or another tab finds nothing left.
 */
function takePendingAdds() {
  if (typeof document === 'undefined') return;
  const raw = readCookie(document.cookie, PENDING_CART_COOKIE);
  if (raw === undefined) return;
  // biome-ignore lint/suspicious/noDocumentCookie: synchronous on purpose (gone before the merge, so nothing merges twice); the Cookie Store API is async and not in every browser
  document.cookie = pendingCartDeleteCookie({ secure: window.location.protocol === 'https:' });
  let items = $cartItems.get();
  for (const { quantity, ...item } of decodePendingCart(raw)) items = addItem(items, item, quantity);
  $cartItems.set(items);
}

takePendingAdds();

/**
 * Adds `quantity` of an item, up to `most` on its line (addItem()); answers how many units were
 * added, which is fewer when the line reached its most.
 */
export function addToCart(item: Omit<CartItem, 'quantity'>, quantity = 1, most?: number): number {
  const before = $cartItems.get();
  const after = addItem(before, item, quantity, most);
  $cartItems.set(after);
  return quantityOf(after, item) - quantityOf(before, item);
}

export function removeFromCart(line: CartLine) {
  $cartItems.set(removeItem($cartItems.get(), line));
}

export function updateCartQuantity(line: CartLine, quantity: number) {
  $cartItems.set(setQuantity($cartItems.get(), line, quantity));
}

export function repriceCartLine(line: CartLine, price: Kobo) {
  $cartItems.set(setPrice($cartItems.get(), line, price));
}

export function clearCart() {
  $cartItems.set([]);
}
