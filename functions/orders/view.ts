import { asc, inArray } from 'drizzle-orm';
import { awaitsPayment, showsPaymentDetails } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import type { Db } from '../platform/db.ts';
import { orderEvents, orderLines, type OrderLineRow, type OrderRow } from '../platform/schema.ts';
import { bankAccount, type Config } from '../env.ts';

/** An order as the API answers with it (src/features/orders/order-view.ts): its row, lines and history. */
export async function loadOrderView(db: Db, config: Config, order: OrderRow): Promise<OrderView> {
  const [lines, events] = await loadOrderLinesAndHistory(db, order.id);
  return toOrderView(order, lines, events, config);
}

/** Orders as the API answers with them (a signed-in shopper's list), their lines and histories in one round trip. */
export async function loadOrderViews(db: Db, config: Config, rows: readonly OrderRow[]): Promise<OrderView[]> {
  if (!rows.length) return [];
  const [lines, events] = await loadOrderLinesAndHistory(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toOrderView(
      row,
      lines.filter((l) => l.orderId === row.id),
      events.filter((e) => e.orderId === row.id),
      config,
    ),
  );
}

/** Orders' lines and status histories, each oldest first, in one round trip: the one history query. */
export function loadOrderLinesAndHistory(db: Db, orderIds: string | readonly string[]) {
  const ids = typeof orderIds === 'string' ? [orderIds] : [...orderIds];
  return db.batch([
    db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.id)),
    db
      .select({ orderId: orderEvents.orderId, toStatus: orderEvents.toStatus, createdAt: orderEvents.createdAt })
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, ids))
      .orderBy(asc(orderEvents.id)),
  ]);
}

export function toOrderView(
  order: OrderRow,
  lines: readonly OrderLineRow[],
  events: readonly { toStatus: OrderRow['status']; createdAt: Date }[],
  config: Config,
): OrderView {
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
      ? { ...bankAccount(config), amount: order.total, reference: order.number, due: awaitsPayment(order.status) }
      : null,
    history: events.map((e) => ({ status: e.toStatus, at: e.createdAt.toISOString() })),
    shipment: shipmentOf(order),
  };
}

/** The shipment as the admin recorded it when marking the order shipped (null before, or with nothing recorded). */
export function shipmentOf(order: Pick<OrderRow, 'carrier' | 'trackingNote'>): OrderView['shipment'] {
  return order.carrier || order.trackingNote
    ? { carrier: order.carrier || null, trackingNote: order.trackingNote || null }
    : null;
}
