import type { OrderStatus } from '../order-status.ts';

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
