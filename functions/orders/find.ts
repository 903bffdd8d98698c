import { eq } from 'drizzle-orm';
import type { Db } from '../platform/db.ts';
import { orders, type OrderRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { sameDigest, sha256Hex } from '../platform/crypto.ts';
import { ApiError, RetryLater } from '../platform/errors.ts';
import { limitWrongGuesses, waitText } from '../platform/rate-limit.ts';
import { expireIfOverdue } from './expire.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import { loadOrderView } from './view.ts';

/**
 * Finding an order: by its number, and as a shopper may (a guest by number and
 * e-mail, the browser that placed it by its access token). A shopper's read also
 * expires an overdue order (docs/decisions/007-what-expires.md).
 */
export async function findOrderByNumber(db: Db, number: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.number, number)).limit(1);
  return row;
}

const NOT_FOUND = () =>
  new ApiError(404, 'order_not_found', 'We could not find an order with that order number and e-mail address.');

/**
 * Compared with what was presented when there is no order: an unknown number and a wrong
 * e-mail take the same steps (two hashes and a constant-time comparison), so the answer's
 * timing does not tell whether an order number exists.
 */
const STAND_IN_EMAIL = 'no-such-order@invalid';
const STAND_IN_DIGEST = '0'.repeat(64);

/**
 * A guest's lookup: the number and the checkout e-mail must both match; a wrong pair reveals
 * nothing, also not by its timing. `hash` is SHA-256 (a test passes a counting one).
 */
export async function findGuestOrder(
  db: Db,
  config: Config,
  number: string,
  email: string,
  now = new Date(),
  hash: (text: string) => Promise<string> = sha256Hex,
): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  const [expected, presented] = await Promise.all([hash(row?.email ?? STAND_IN_EMAIL), hash(email)]);
  const matches = sameDigest(expected, presented);
  if (!row || !matches) throw NOT_FOUND();
  return expireIfOverdue(db, config, row, now);
}

/**
 * The per-client limit on looking orders up (functions/platform/rate-limit.ts): the API's lookup
 * and the order-for-this-browser read, and /track as the Worker renders it, share it.
 */
export const LOOKUP_LIMIT = 'orders.lookup';

/** A guest's lookup as the shopper sees its answer: the order's view (POST /api/orders/lookup and /track/order). */
export async function lookUpGuestOrder(
  db: Db,
  config: Config,
  { number, email }: { number: string; email: string },
  now = new Date(),
): Promise<OrderView> {
  // Wrong e-mails per order number, from all clients together (RATE_LIMIT_LOOKUP_ORDER): its
  // owner still has the order in the browser that placed it and in their account.
  const order = await limitWrongGuesses(
    db,
    { key: `${LOOKUP_LIMIT}.order:${number}`, rule: config.RATE_LIMIT_LOOKUP_ORDER },
    () => findGuestOrder(db, config, number, email, now),
    (seconds) => new TooManyLookups(seconds),
    now,
  );
  return loadOrderView(db, config, order);
}

/** A lookup refused because its order number had too many wrong ones: 429 with how long to wait. */
export class TooManyLookups extends RetryLater {
  constructor(retryAfterSeconds: number) {
    super(
      retryAfterSeconds,
      `This order number was tried with a wrong e-mail address too many times. Please wait ${waitText(retryAfterSeconds)} and try again, or sign in to see it under Orders.`,
    );
  }
}

/** The order whose access token the caller holds (the browser that placed it). */
export async function findOrderForToken(
  db: Db,
  config: Config,
  number: string,
  accessToken: string,
  now = new Date(),
): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  const presented = await sha256Hex(accessToken);
  const matches = sameDigest(row?.accessTokenHash ?? STAND_IN_DIGEST, presented);
  if (!row || !matches) {
    throw new ApiError(404, 'order_not_found', 'We could not find that order for this browser.');
  }
  return expireIfOverdue(db, config, row, now);
}

/**
 * An order of the signed-in account (`orders.user_id`): placed while signed in, or a guest order
 * made with its address, joined once the address was proven (functions/accounts/links.ts). The
 * account makes the shopper's moves on it without the placing browser's token: its owner may be
 * on another device, or the order may have been placed by someone else in their name and now
 * hold their allowance (functions/orders/limits.ts). 404 for any other order, as for a wrong token.
 */
export async function findOrderForAccount(
  db: Db,
  config: Config,
  number: string,
  userId: string,
  now = new Date(),
): Promise<OrderRow> {
  const row = await findOrderByNumber(db, number);
  if (!row || row.userId !== userId) {
    throw new ApiError(404, 'order_not_found', 'We could not find that order in your account.');
  }
  return expireIfOverdue(db, config, row, now);
}
