import { persistentAtom } from '@nanostores/persistent';
// Light checks, not zod: this store loads with /track and the cart, and any zod schema brings
// zod's ~17 KB core (decision 004).
import {
  array,
  boolean,
  type Infer,
  int,
  nullable,
  object,
  oneOf,
  optional,
  orElse,
  string,
  withDefault,
} from '../../lib/light-schema.ts';

/**
 * What the checkout remembers in this browser: the idempotency key of the current
 * attempt (so a double click, a retry or reopening the dialog with the same cart
 * and details returns the same order instead of a second one), and the orders
 * placed here, which the tracking page offers.
 */

const placedSchema = object({ number: string(), accessToken: string() });
export type PlacedRef = Infer<typeof placedSchema>;

const attemptSchema = orElse(
  nullable(
    object({
      key: string(),
      /** The cart lines and details this key stands for. */
      fingerprint: string(),
      /** The cart lines alone (product, variant, quantity), to recognise the cart an order was placed for. */
      lines: optional(string()),
      /** The order this attempt placed. */
      order: optional(placedSchema),
      /**
       * An unpaid order an earlier attempt placed for another cart or other details. It is
       * kept until the order that supersedes it is placed, then cancelled, so a failed
       * replacement never leaves it holding stock unseen.
       */
      replaces: optional(placedSchema),
    }),
  ),
  null,
);
type Attempt = NonNullable<Infer<typeof attemptSchema>>;

const $attempt = persistentAtom<Attempt | null>('checkoutAttempt', null, {
  encode: JSON.stringify,
  decode: (raw) => attemptSchema.parse(safeJson(raw)),
});

/** The cart's lines as the checkout compares them: what is ordered, not the prices shown. */
export function cartLinesKey(lines: readonly { productId: string; variant: string; quantity: number }[]): string {
  return JSON.stringify(lines.map((l) => [l.productId, l.variant, l.quantity]));
}

/**
 * The key for this cart and these details: the same until either changes or the order
 * is done. `replaces` is the unpaid order an earlier attempt placed with a different
 * cart or details, which the new order supersedes once it is placed.
 */
export function checkoutAttempt(fingerprint: string, lines: string): { key: string; replaces?: PlacedRef } {
  const current = $attempt.get();
  if (current?.fingerprint === fingerprint) return { key: current.key, replaces: current.replaces };
  const key = crypto.randomUUID();
  const replaces = current?.order ?? current?.replaces;
  $attempt.set({ key, fingerprint, lines, replaces });
  return { key, replaces };
}

/** Remembers the order this attempt placed, and the token that lets this browser act on it. */
export function recordPlacedOrder(order: PlacedRef) {
  const current = $attempt.get();
  if (current) $attempt.set({ ...current, order });
}

/** The superseded order is dealt with (cancelled, or already beyond the shopper's cancel). */
export function forgetReplacedOrder(number: string) {
  const current = $attempt.get();
  if (current?.replaces?.number === number) $attempt.set({ ...current, replaces: undefined });
}

/** This browser's unpaid order for exactly these cart lines, if the checkout placed one and was closed before paying. */
export function placedOrderForCart(lines: string): PlacedRef | undefined {
  const current = $attempt.get();
  return current?.lines === lines ? current.order : undefined;
}

/** The attempt is finished (paid, or its order is no longer payable): the next checkout is a new order. */
export function finishCheckoutAttempt() {
  $attempt.set(null);
}

const recentOrderSchema = object({ number: string(), email: string(), placedAt: string() });
export type RecentOrder = Infer<typeof recentOrderSchema>;
const recentOrdersSchema = orElse(array(recentOrderSchema), []);

export const $recentOrders = persistentAtom<RecentOrder[]>('recentOrders', [], {
  encode: JSON.stringify,
  decode: (raw) => recentOrdersSchema.parse(safeJson(raw)),
});

export function rememberOrder(number: string, email: string) {
  const others = $recentOrders.get().filter((o) => o.number !== number);
  $recentOrders.set([{ number, email, placedAt: new Date().toISOString() }, ...others].slice(0, 5));
}

/** An order this browser cancelled itself (replaced by a new one): /track no longer lists it among "Orders placed in this browser". */
export function forgetRecentOrder(number: string) {
  const recent = $recentOrders.get();
  if (recent.some((o) => o.number === number)) $recentOrders.set(recent.filter((o) => o.number !== number));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * The order this browser finished last ('I Have Made Payment'): when the dialog closes
 * itself and the cart clears, /cart shows it (number, amount, how to pay, a Track link)
 * instead of a bare "Your cart is empty". Shown for a day.
 */
const lastOrderSchema = orElse(
  nullable(
    object({
      number: string(),
      total: int(),
      deliveryMethod: oneOf(['delivery', 'pickup']),
      bankName: string(),
      accountName: string(),
      accountNumber: string(),
      /** The order's own account (decision 023): its transfer confirms itself. Absent in what older versions kept. */
      ownAccount: withDefault(boolean(), false),
      /** The order's access token: /cart asks where the order stands with it. Absent in what older versions kept. */
      accessToken: withDefault(string(), ''),
      finishedAt: string(),
    }),
  ),
  null,
);
export type LastOrder = NonNullable<Infer<typeof lastOrderSchema>>;

export const $lastOrder = persistentAtom<LastOrder | null>('lastOrder', null, {
  encode: JSON.stringify,
  decode: (raw) => lastOrderSchema.parse(safeJson(raw)),
});

const LAST_ORDER_SHOWN_MS = 24 * 3_600_000;

export function rememberLastOrder(order: Omit<LastOrder, 'finishedAt'>) {
  $lastOrder.set({ ...order, finishedAt: new Date().toISOString() });
}

/** What of an order the cart's notice keeps (an OrderView has it). */
interface FinishedOrder {
  number: string;
  total: number;
  deliveryMethod: LastOrder['deliveryMethod'];
  payment?: { bankName: string; accountName: string; accountNumber: string; ownAccount?: boolean } | null;
}

/**
 * An order this browser placed is done with (paid, or the shopper says they paid): /cart shows it
 * in place of its lines, with where to pay while that is still due (no account once it is settled).
 */
export function rememberFinishedOrder(order: FinishedOrder, accessToken: string) {
  rememberLastOrder({
    number: order.number,
    total: order.total,
    deliveryMethod: order.deliveryMethod,
    bankName: order.payment?.bankName ?? '',
    accountName: order.payment?.accountName ?? '',
    accountNumber: order.payment?.accountNumber ?? '',
    ownAccount: order.payment?.ownAccount ?? false,
    accessToken,
  });
}

/** The last finished order while it is worth showing, else null. */
export function lastOrderToShow(order: LastOrder | null, now = Date.now()): LastOrder | null {
  return order && now - Date.parse(order.finishedAt) < LAST_ORDER_SHOWN_MS ? order : null;
}

export function forgetLastOrder() {
  $lastOrder.set(null);
}
