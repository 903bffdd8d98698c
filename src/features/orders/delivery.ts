import type { Kobo } from '../../lib/money.ts';
import { STORE } from '../../lib/site.ts';

/**
 * How an order reaches the shopper: delivered to an address for a flat fee (spec section 9),
 * or collected from the Ikeja store for free (/shipping). The Worker prices it with
 * deliveryFee(); the browser only shows the same figure.
 */
export const DELIVERY_METHODS = ['delivery', 'pickup'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** Flat delivery fee per order: ₦1,500. */
export const DELIVERY_FEE: Kobo = 150_000;

export function deliveryFee(method: DeliveryMethod): Kobo {
  return method === 'pickup' ? 0 : DELIVERY_FEE;
}

/** Where a pick-up order is collected, and when. */
export const PICKUP_POINT = {
  name: `${STORE.name} store`,
  address: STORE.address,
  hours: STORE.hours,
} as const;

export const DELIVERY_LABELS: Record<DeliveryMethod, string> = {
  delivery: 'Delivery to your address',
  pickup: 'Pick-up at our Ikeja store',
};
