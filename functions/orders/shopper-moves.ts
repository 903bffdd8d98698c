import type { Db } from '../platform/db.ts';
import { ApiError } from '../platform/errors.ts';
import type { OrderRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { changeOrderStatus, reloadOrder } from './move.ts';

/** The moves the browser holding an order's access token may ask for, and the status each leads to. */
const DONE = { report_payment: 'payment_reported', cancel: 'cancelled' } as const;

/** A shopper's move: 'I Have Made Payment', or dropping an order they have not paid for. */
export type ShopperMove = keyof typeof DONE;

/**
 * A move the shopper asks for on their order (`userId`: their account when signed in, kept on
 * the history row). Asking again for a move already made (a retry after a lost answer), or
 * losing a race to the same move (a double click sending two reports or two cancels at once),
 * gets the order as it now is, not an error. `moved` says whether this request made the move
 * (and so queued an e-mail).
 */
export async function moveForShopper(
  db: Db,
  config: Config,
  order: OrderRow,
  event: ShopperMove,
  userId: string | null,
  note?: string,
): Promise<{ order: OrderRow; moved: boolean }> {
  const done = DONE[event];
  if (order.status === done) return { order, moved: false };
  try {
    return { order: await changeOrderStatus(db, config, order, event, 'customer', { note, actorUserId: userId }), moved: true };
  } catch (err) {
    // Refused because another request made this very move first: that request's answer is ours too.
    const current = err instanceof ApiError && err.status === 409 ? await reloadOrder(db, order) : undefined;
    if (current?.status === done) return { order: current, moved: false };
    throw err;
  }
}
