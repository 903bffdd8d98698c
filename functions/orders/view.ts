import { asc, inArray } from 'drizzle-orm';
import { awaitsPayment, type OrderActor, showsPaymentDetails } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import type { Db } from '../platform/db.ts';
import { oneLine } from '../platform/text.ts';
import {
  orderEvents,
  orderLines,
  paymentAccounts,
  type OrderLineRow,
  type OrderRow,
  type PaymentAccountRow,
} from '../platform/schema.ts';
import { bankAccount, type Config } from '../env.ts';

/** An order as the API answers with it (src/features/orders/order-view.ts): its row, lines and history. */
export async function loadOrderView(db: Db, config: Config, order: OrderRow): Promise<OrderView> {
  const [lines, events, accounts] = await loadOrderLinesAndHistory(db, order.id);
  return toOrderView(order, lines, events, config, accounts[0]);
}

/** Orders as the API answers with them (a signed-in shopper's list), their lines and histories in one round trip. */
export async function loadOrderViews(db: Db, config: Config, rows: readonly OrderRow[]): Promise<OrderView[]> {
  if (!rows.length) return [];
  const [lines, events, accounts] = await loadOrderLinesAndHistory(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toOrderView(
      row,
      lines.filter((l) => l.orderId === row.id),
      events.filter((e) => e.orderId === row.id),
      config,
      accounts.find((a) => a.orderId === row.id),
    ),
  );
}

/**
 * Orders' lines and status histories, each oldest first, and the accounts a payment provider
 * opened for them (functions/payments/), in one round trip: the one history query.
 */
export function loadOrderLinesAndHistory(db: Db, orderIds: string | readonly string[]) {
  const ids = typeof orderIds === 'string' ? [orderIds] : [...orderIds];
  return db.batch([
    db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.id)),
    db
      .select({
        orderId: orderEvents.orderId,
        toStatus: orderEvents.toStatus,
        createdAt: orderEvents.createdAt,
        actor: orderEvents.actor,
        note: orderEvents.note,
      })
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, ids))
      .orderBy(asc(orderEvents.id)),
    db.select().from(paymentAccounts).where(inArray(paymentAccounts.orderId, ids)),
  ]);
}

/** A row of an order's history as the view reads it. */
export interface OrderHistoryEvent {
  toStatus: OrderRow['status'];
  createdAt: Date;
  actor?: OrderActor;
  note?: string | null;
}

/** Why the store cancelled the order: the admin's note on the cancel, on one line (null for the shopper's own cancel). */
function cancelReasonOf(status: OrderRow['status'], events: readonly OrderHistoryEvent[]): string | null {
  if (status !== 'cancelled') return null;
  const cancel = events.filter((e) => e.toStatus === 'cancelled').at(-1);
  if (cancel?.actor !== 'admin') return null;
  return oneLine(cancel.note) ?? null;
}

export function toOrderView(
  order: OrderRow,
  lines: readonly OrderLineRow[],
  /** Its history, oldest first; a move's actor and note where known (an admin's cancel gives its reason). */
  events: readonly OrderHistoryEvent[],
  config: Config,
  /** The account a payment provider opened for this order, if it has one (else the store's shared account). */
  account?: PaymentAccountRow,
): OrderView {
  const payTo = account
    ? { bankName: account.bankName, accountName: account.accountName, accountNumber: account.accountNumber }
    : bankAccount(config);
  return {
    number: order.number,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    expiresAt: order.expiresAt.toISOString(),
    // The hold expiresAt ends: from the report once the shopper reported the transfer.
    holdHours: order.status === 'payment_reported' ? config.PAYMENT_REPORT_HOLD_HOURS : config.ORDER_HOLD_HOURS,
    customer: {
      name: order.customerName,
      email: order.email,
      phone: order.phone,
      address: order.address,
      city: order.city,
      state: order.state as OrderView['customer']['state'],
    },
    deliveryMethod: order.deliveryMethod,
    lines: lines.map(({ id: _id, orderId: _order, ...line }) => line),
    subtotal: order.subtotal,
    shipping: order.shipping,
    credit: order.credit > 0 ? { tradeIn: order.tradeInReference ?? '', amount: order.credit } : null,
    total: order.total,
    // Also after a report: the shopper may need to check where they sent the money.
    payment: showsPaymentDetails(order.status)
      ? {
          ...payTo,
          // What is left to transfer: the total, less what the provider says arrived (a part payment).
          amount: Math.max(0, order.total - order.amountPaid),
          reference: order.number,
          due: awaitsPayment(order.status),
          ownAccount: Boolean(account),
          received: order.amountPaid,
          takesPaymentUntil: account?.expiresAt?.toISOString() ?? null,
        }
      : null,
    paidIntoOwnAccount: Boolean(account),
    history: events.map((e) => ({ status: e.toStatus, at: e.createdAt.toISOString() })),
    shipment: shipmentOf(order),
    cancelReason: cancelReasonOf(order.status, events),
  };
}

/** The shipment as the admin recorded it when marking the order shipped (null before, or with nothing recorded). */
export function shipmentOf(order: Pick<OrderRow, 'carrier' | 'trackingNote'>): OrderView['shipment'] {
  return order.carrier || order.trackingNote
    ? { carrier: order.carrier || null, trackingNote: order.trackingNote || null }
    : null;
}
