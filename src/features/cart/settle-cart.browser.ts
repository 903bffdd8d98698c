import {
  cartLinesKey,
  finishCheckoutAttempt,
  type PlacedRef,
  placedOrderForCart,
  rememberFinishedOrder,
} from '../orders/checkout-store.browser.ts';
import { isClosedWithoutSale, type OrderStatus } from '../orders/order-status.ts';
import { orderLinesFromCart } from './cart-check.ts';
import { $cartItems, clearCart } from './cart-store.browser.ts';

type SettledOrder = Parameters<typeof rememberFinishedOrder>[0] & { status: OrderStatus };

/**
 * The order the cart's lines were placed for no longer waits for its transfer: paid (or reported
 * paid), its lines leave the cart, which shows the order instead (and the header's count drops);
 * ended unpaid, the lines stay. Either way the next checkout is a new order.
 */
export function settleCart(order: SettledOrder, placed: PlacedRef) {
  if (!isClosedWithoutSale(order.status)) {
    rememberFinishedOrder(order, placed.accessToken);
    clearCart();
  }
  finishCheckoutAttempt();
}

/**
 * An order seen on another page (/orders): when this browser's cart was placed for it and it no
 * longer waits for a transfer, the cart is settled as /cart would settle it, so the header's
 * count does not go on counting paid items until /cart is opened.
 */
export function settleCartFor(order: SettledOrder) {
  if (order.status === 'awaiting_payment') return;
  const placed = placedOrderForCart(cartLinesKey(orderLinesFromCart($cartItems.get())));
  if (placed?.number === order.number) settleCart(order, placed);
}
