import { computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import type { Kobo } from '../../lib/money.ts';
import { addItem, cartCount, parseStoredCart, removeItem, setPrice, setQuantity, type CartItem, type CartLine } from './cart.ts';

/**
 * The cart, shared by every island and the header through one store, persisted to
 * localStorage key `cartItems` and kept in step across tabs (storage events).
 */
export const $cartItems = persistentAtom<CartItem[]>('cartItems', [], {
  encode: JSON.stringify,
  decode: parseStoredCart,
});

export const $cartCount = computed($cartItems, cartCount);

export function addToCart(item: Omit<CartItem, 'quantity'>, quantity = 1) {
  $cartItems.set(addItem($cartItems.get(), item, quantity));
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
