import { persistentAtom } from '@nanostores/persistent';
import { z } from 'zod';

/**
 * What the checkout remembers in this browser: the idempotency key of the current
 * attempt (so a double click, a retry or reopening the dialog with the same cart
 * and details returns the same order instead of a second one), and the orders
 * placed here, which the tracking page offers.
 */

const placedSchema = z.object({ number: z.string(), accessToken: z.string() });
type PlacedRef = z.infer<typeof placedSchema>;

const attemptSchema = z
  .object({ key: z.string(), fingerprint: z.string(), order: placedSchema.optional() })
  .nullable()
  .catch(null);

const $attempt = persistentAtom<z.infer<typeof attemptSchema>>('checkoutAttempt', null, {
  encode: JSON.stringify,
  decode: (raw) => attemptSchema.parse(safeJson(raw)),
});

/**
 * The key for this cart and these details: the same until either changes or the order
 * is done. `replaces` is the order an earlier attempt placed with a different cart or
 * details, which the new order supersedes.
 */
export function checkoutAttempt(fingerprint: string): { key: string; replaces?: PlacedRef } {
  const current = $attempt.get();
  if (current?.fingerprint === fingerprint) return { key: current.key };
  const key = crypto.randomUUID();
  $attempt.set({ key, fingerprint });
  return { key, replaces: current?.order };
}

/** Remembers the order this attempt placed, and the token that lets this browser act on it. */
export function recordPlacedOrder(order: PlacedRef) {
  const current = $attempt.get();
  if (current) $attempt.set({ ...current, order });
}

/** The attempt is finished (paid, or its order is no longer payable): the next checkout is a new order. */
export function finishCheckoutAttempt() {
  $attempt.set(null);
}

const recentOrderSchema = z.object({ number: z.string(), email: z.string(), placedAt: z.string() });
export type RecentOrder = z.infer<typeof recentOrderSchema>;
const recentOrdersSchema = z.array(recentOrderSchema).catch([]);

export const $recentOrders = persistentAtom<RecentOrder[]>('recentOrders', [], {
  encode: JSON.stringify,
  decode: (raw) => recentOrdersSchema.parse(safeJson(raw)),
});

export function rememberOrder(number: string, email: string) {
  const others = $recentOrders.get().filter((o) => o.number !== number);
  $recentOrders.set([{ number, email, placedAt: new Date().toISOString() }, ...others].slice(0, 5));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
