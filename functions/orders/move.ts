import { and, eq, exists, inArray, isNull, notExists, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { nextStatus, type OrderActor, type OrderEvent, type OrderStatus } from '../../src/features/orders/order-status.ts';
import type { Db } from '../platform/db.ts';
import { orderEvents, orderLines, orders, products, productVariants, type OrderRow } from '../platform/schema.ts';
import { statusChangeEmail } from './messages.ts';
import { queueEmailIfTransition } from '../platform/outbox.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import type { Config } from '../env.ts';
import { ApiError, transitionRefused } from '../platform/errors.ts';
import { loadOrderLinesAndHistory, toOrderView } from './view.ts';

/** The order as D1 holds it now. */
export async function reloadOrder(db: Db, order: Pick<OrderRow, 'id'>): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, order.id)).limit(1);
  return row;
}

const HOUR_MS = 3_600_000;

/**
 * The new end of the order's hold on its stock when it enters `status`, if that changes it. A
 * reported transfer into the store's shared account extends the hold once, to
 * PAYMENT_REPORT_HOLD_HOURS after the report, for staff to find the money on the statement;
 * never shortening it, and never a second time (an order reported before keeps its end), so no
 * shopper's action holds stock past placing + the unpaid hold + the report's hold
 * (docs/decisions/007-what-expires.md, amended for issue 20). An order with an account of its
 * own is not extended: the provider confirms its transfer by itself, and the account takes
 * payment only until the hold it was opened with (a report would only hold the stock longer).
 * Kept in `expires_at`, the column the cron and the on-read expiry already look at.
 */
export function holdEndsAt(
  status: OrderStatus,
  config: Config,
  now: Date,
  order: Pick<OrderRow, 'expiresAt'>,
  history: readonly { toStatus: OrderStatus }[],
  ownAccount: boolean,
): Date | undefined {
  if (ownAccount || status !== 'payment_reported' || history.some((e) => e.toStatus === 'payment_reported')) return undefined;
  const reportEnds = Math.floor(now.getTime() / 1000) * 1000 + config.PAYMENT_REPORT_HOLD_HOURS * HOUR_MS;
  return reportEnds > order.expiresAt.getTime() ? new Date(reportEnds) : undefined;
}

/** Columns a move may set along with the status (the payment an admin confirmed, the shipment). */
export type OrderMoveColumns = Partial<
  Pick<
    typeof orders.$inferInsert,
    'paymentReceived' | 'paymentReference' | 'paymentConfirmedBy' | 'paymentConfirmedAt' | 'carrier' | 'trackingNote'
  >
>;

/** A move the state machine allowed: from the status the order was read in, to its next. */
export interface AllowedMove {
  from: OrderStatus;
  to: OrderStatus;
}

/** What a move writes besides the status, its history row, its e-mail and any stock release. */
export interface MoveParts {
  /** More columns for the compare-and-set update, written only with the move. */
  set?: OrderMoveColumns;
  /**
   * More statements for the move's batch (the admin's audit row). `won` is true only if this
   * move won its compare-and-set; each statement must be guarded by it (an INSERT … SELECT …
   * WHERE won), as the history row and the e-mail are.
   */
  also?: (won: SQL) => BatchItem<'sqlite'>[];
}

export interface MoveOptions {
  /** Kept on the history row (a cancel's reason). */
  note?: string;
  now?: Date;
  /**
   * The order's last transition as the caller saw it (null: none since it was placed). Given,
   * the compare-and-set also requires it, and a lost race is a 409 `order_changed` instead of
   * being judged again against the order's new state: an admin's move made on a page showing
   * an older version of the order must not happen (two admins confirming at once: one wins).
   */
  expectedTransitionId?: string | null;
  /** The signed-in user making the move (an admin), kept on the history row. */
  actorUserId?: string | null;
  /**
   * What else the move writes, decided once the state machine has allowed it (so a move it
   * refuses is refused before the move's own rules are judged; functions/orders/admin-moves.ts).
   */
  with?: (move: AllowedMove) => MoveParts;
}

/**
 * Moves an order with the state machine (src/features/orders/order-status.ts), as one
 * D1 batch: a compare-and-set on the status that stamps a fresh transition id, then the
 * history row, the e-mail (a shopper's own move's only within the per-recipient limit) and
 * (for cancelled or expired orders) the stock release, each guarded by that id so they happen
 * only if this change won
 * (docs/decisions/006-stock-reserved-in-the-order-batch.md). A move the state machine
 * refuses is a 409 (transitionRefused(), functions/platform/errors.ts). Why orders keep
 * this compare-and-set rather than functions/platform/compare-and-set.ts's is written there.
 */
export async function changeOrderStatus(
  db: Db,
  config: Config,
  order: OrderRow,
  event: OrderEvent,
  actor: OrderActor,
  options: MoveOptions = {},
): Promise<OrderRow> {
  const { note, now = new Date(), expectedTransitionId, actorUserId = null } = options;
  const move = nextStatus(order.status, event, actor);
  if (!move.ok) throw transitionRefused(move);
  const { set = {}, also } = options.with?.(move) ?? {};
  const transitionId = crypto.randomUUID();
  const [lines, events, accounts] = await loadOrderLinesAndHistory(db, order.id);
  const expiresAt = holdEndsAt(move.to, config, now, order, events, accounts.length > 0);
  const moved = { ...order, ...set, status: move.to, lastTransitionId: transitionId, ...(expiresAt ? { expiresAt } : {}) };
  // The order as the e-mail about this change shows it, its history included (an expiry can
  // tell whether the shopper had reported a transfer).
  const view = toOrderView(moved, lines, [...events, { toStatus: move.to, createdAt: now, actor, note }], config, accounts[0]);
  // Paid with more than the total (the provider's sum, or what the admin saw on the statement): the shopper is told it comes back.
  const over = move.to === 'paid' && set.paymentReceived != null ? Math.max(0, set.paymentReceived - order.total) : 0;
  const email = statusChangeEmail(view, move.to, config.SITE_URL, { over });
  // A shopper's own move (a cancel, a reported transfer) can be made by whoever placed the order,
  // in anyone's name, and repeated with new orders; so can the expiry those orders come to, all
  // at once, twelve hours later. Their e-mails are counted per recipient and left out past the
  // limit, the move made all the same (allowEmailTo). Staff's and payments' moves always tell
  // the shopper: nobody outside the store can make them.
  const mayEmail =
    actor === 'admin' || actor === 'provider' || (await allowEmailTo(db, config, order.email, 'order_update', now));
  // Only query builders go in the batch: drizzle's D1 batch cannot bind the parameters of a
  // raw db.run(sql`…`) statement (drizzle-orm#2277, "Cannot read properties of undefined (reading 'bind')").
  // updated_at is set by the schema's $onUpdate on each update() below.
  const won = and(eq(orders.id, order.id), eq(orders.lastTransitionId, transitionId)) as SQL;
  const sameVersion =
    expectedTransitionId === undefined
      ? undefined
      : expectedTransitionId === null
        ? isNull(orders.lastTransitionId)
        : eq(orders.lastTransitionId, expectedTransitionId);

  const [updated] = await db.batch([
    db
      .update(orders)
      .set({ ...set, status: move.to, lastTransitionId: transitionId, ...(expiresAt ? { expiresAt } : {}) })
      .where(and(eq(orders.id, order.id), eq(orders.status, move.from), sameVersion))
      .returning(),
    db.insert(orderEvents).select(
      db
        .select({
          id: sql<number>`NULL`.as('id'),
          orderId: orders.id,
          fromStatus: sql`${move.from}`.as('from_status'),
          toStatus: sql`${move.to}`.as('to_status'),
          actor: sql`${actor}`.as('actor'),
          actorUserId: sql`${actorUserId}`.as('actor_user_id'),
          note: sql`${note ?? null}`.as('note'),
          createdAt: sql`${Math.floor(now.getTime() / 1000)}`.as('created_at'),
        })
        .from(orders)
        .where(won),
    ),
    ...(mayEmail ? [queueEmailIfTransition(db, email, order.id, transitionId)] : []),
    ...(move.releasesStock ? shiftStock(db, order.id, won, +1) : []),
    // A late payment takes the units again: a unit gone since breaks the stock checks (>= 0) and
    // the whole batch, the move with it (functions/payments/apply.ts then flags a refund).
    ...(move.takesStock ? shiftStock(db, order.id, won, -1) : []),
    ...(also ? also(exists(db.select({ one: sql`1` }).from(orders).where(won))) : []),
  ]);
  const row = updated[0];
  if (!row) {
    // Someone else moved the order first; judge the request against where it is now. Not an
    // expiry: whether the order is overdue depends on its new hold (a report just made starts
    // one), so expireIfOverdue() reloads it and judges again. Nor a move made on a version the
    // caller named (an admin's): that version is gone.
    const current = expectedTransitionId === undefined ? await reloadOrder(db, order) : undefined;
    if (current && current.status !== order.status && event !== 'expire')
      return changeOrderStatus(db, config, current, event, actor, options);
    throw new ApiError(409, 'order_changed', 'The order changed while this request ran. Please reload it.');
  }
  return row;
}

/**
 * Gives an order's units back (`sign` +1), or takes them again (-1), in the batch of the move
 * that wins (`won`): a variant's to the variant (its trigger keeps the product's total), a
 * product's without variants to it. Units of a variant an admin has since removed, or of a
 * product that has since been given variants, go back to nothing: the product's stock must stay
 * the sum of its variants' (a late payment checks its lines still exist before it moves).
 */
function shiftStock(db: Db, orderId: string, won: SQL | undefined, sign: 1 | -1) {
  const ordered = (where: SQL) =>
    sql`(SELECT SUM(${orderLines.quantity}) FROM ${orderLines} WHERE ${orderLines.orderId} = ${orderId} AND ${where})`;
  const variantLine = sql`${orderLines.productId} = ${productVariants.productId} AND ${orderLines.variantId} = ${productVariants.id}`;
  const productLine = sql`${orderLines.productId} = ${products.id} AND ${orderLines.variantId} = ''`;
  const moveWon = exists(db.select({ one: sql`1` }).from(orders).where(won));
  return [
    db
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${sign} * ${ordered(variantLine)}` })
      .where(
        and(
          sql`(${productVariants.productId}, ${productVariants.id}) IN (SELECT ${orderLines.productId}, ${orderLines.variantId} FROM ${orderLines} WHERE ${orderLines.orderId} = ${orderId})`,
          moveWon,
        ),
      ),
    db
      .update(products)
      .set({ stock: sql`${products.stock} + ${sign} * ${ordered(productLine)}` })
      .where(
        and(
          inArray(
            products.id,
            db
              .select({ id: orderLines.productId })
              .from(orderLines)
              .where(and(eq(orderLines.orderId, orderId), eq(orderLines.variantId, ''))),
          ),
          notExists(db.select({ one: sql`1` }).from(productVariants).where(eq(productVariants.productId, products.id))),
          moveWon,
        ),
      ),
  ];
}
