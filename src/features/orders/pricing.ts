import type { Kobo } from '../../lib/money.ts';

/** Flat delivery fee per order: ₦1,500 (spec section 9). */
export const SHIPPING_FEE: Kobo = 150_000;
