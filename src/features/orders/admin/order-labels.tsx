import { formatNaira, type Kobo } from '../../../lib/money.ts';
import { PAID_FOR, type OrderStatus } from '../order-status.ts';

/** How the admin screens name an order's state: the list, its filter, the detail and the dashboard. */

/** Each status in words: the badge says Processing for three of them, the admin needs to know which. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  payment_reported: 'Payment reported',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** A reported transfer nobody confirmed in time: said in words, not only by colour. */
export function OverdueMark() {
  return <span className="admin-overdue">Overdue</span>;
}

/**
 * What has arrived of an order not yet paid in full (a part payment through the provider): the
 * list and the dashboard say so beside the status, so a part-paid order does not read as unpaid.
 */
export function PartPaid({ order }: { order: { status: OrderStatus; received: Kobo; total: Kobo } }) {
  if (order.received <= 0 || PAID_FOR.includes(order.status)) return null;
  return (
    <span className="admin-part-paid">
      {formatNaira(order.received)} of {formatNaira(order.total)} arrived
    </span>
  );
}
