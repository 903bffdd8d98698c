import { PICKUP_POINT } from '../../src/features/orders/delivery.ts';
import { formatNaira } from '../../src/lib/money.ts';
import { formatLagosTime } from '../../src/lib/time.ts';
import { STORE } from '../../src/lib/site.ts';
import { statusBadge, type OrderStatus } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import { compose, greeting, type EmailMessage } from '../platform/email.ts';
import { oneLine } from '../platform/text.ts';

/** The order e-mails (functions/platform/email.ts makes them): the confirmation, then one per status change. */
export type OrderEmailKind = 'order_confirmation' | 'order_refund_sent' | 'order_part_paid' | `order_status_${OrderStatus}`;

function trackUrl(siteUrl: string, order: Pick<OrderView, 'number'>): string {
  return new URL(`/track?order=${encodeURIComponent(order.number)}`, siteUrl).href;
}

function orderSummary(order: OrderView): string {
  const lines = order.lines.map(
    (l) => `${l.quantity} × ${l.name}${l.variant ? ` (${l.variant})` : ''}: ${formatNaira(l.lineTotal)}`,
  );
  return [
    ...lines,
    `Subtotal: ${formatNaira(order.subtotal)}`,
    order.deliveryMethod === 'pickup'
      ? `Pick-up at ${PICKUP_POINT.name}, ${PICKUP_POINT.address}: free`
      : `Shipping: ${formatNaira(order.shipping)}`,
    ...(order.credit ? [`Trade-in credit (${order.credit.tradeIn}): −${formatNaira(order.credit.amount)}`] : []),
    `Total: ${formatNaira(order.total)}`,
  ].join('\n');
}

export function orderConfirmationEmail(order: OrderView, siteUrl: string): EmailMessage<OrderEmailKind> {
  const pay = order.payment;
  return compose('order_confirmation', order.customer.email, `Your GTS order ${order.number}: transfer details`, [
    greeting(order.customer.name),
    `Thank you for your order ${order.number}. We are holding your items until ${formatLagosTime(order.expiresAt)} (Lagos time).`,
    orderSummary(order),
    ...(pay
      ? [
          [
            `Please transfer ${formatNaira(pay.amount)} to:`,
            `Bank: ${pay.bankName}`,
            `Account name: ${pay.accountName}`,
            `Account number: ${pay.accountNumber}`,
            `Reference: ${order.number}`,
          ].join('\n'),
          ...(pay.ownAccount
            ? [
                `This account is for this order only: we see your transfer the moment it lands and confirm it ourselves${
                  pay.takesPaymentUntil ? `. It takes payment until ${formatLagosTime(pay.takesPaymentUntil)} (Lagos time)` : ''
                }.`,
              ]
            : []),
        ]
      : []),
    `Follow your order at ${trackUrl(siteUrl, order)} with this e-mail address.`,
    'GTS Electronics',
  ]);
}

const STATUS_NEWS: Partial<Record<OrderStatus, string>> = {
  payment_reported: 'Thank you for telling us you have paid. We will confirm the transfer with our bank and let you know.',
  paid: 'We have received your payment. Your order is being packed.',
  shipped: 'Your order is on its way.',
  delivered: 'Your order has been delivered. Enjoy it!',
  cancelled: 'Your order has been cancelled. If you paid for it, we will refund the transfer to the account it came from.',
  expired:
    'We did not receive a transfer in time, so your order has expired and its items are back on sale. You are welcome to order again.',
};

/** An order that expired after its shopper reported paying needs other words than one nobody paid for. */
const EXPIRED_AFTER_REPORT =
  'We could not confirm your transfer within the time we hold a reported payment, so your order has expired and its items are back on sale. If you did send the money, reply to this e-mail with your transfer receipt and we will refund it or restore your order.';

/** An order with its own account (a payment provider): nobody at the store has to confirm the transfer. */
const REPORTED_OWN_ACCOUNT =
  "Thank you for telling us you have paid. Your order is marked paid by itself as soon as the transfer reaches this order's account, and we will let you know.";

function statusNews(order: OrderView, status: OrderStatus): string | undefined {
  if (status === 'expired' && order.history.some((h) => h.status === 'payment_reported')) return EXPIRED_AFTER_REPORT;
  if (status === 'payment_reported' && order.payment?.ownAccount) return REPORTED_OWN_ACCOUNT;
  return STATUS_NEWS[status];
}

/**
 * The shipment as the shopper's e-mail repeats it: what the admin typed when marking the order
 * shipped (the store's words, not the shopper's), one line each.
 */
function shipmentNews(order: OrderView): string | undefined {
  const carrier = oneLine(order.shipment?.carrier);
  const note = oneLine(order.shipment?.trackingNote);
  if (!carrier && !note) return undefined;
  return [carrier && `Carrier: ${carrier}`, note && `Tracking: ${note}`].filter(Boolean).join('\n');
}

export function statusChangeEmail(
  order: OrderView,
  status: OrderStatus,
  siteUrl: string,
  /** What arrived past the total, to refund. (An admin's cancel tells its reason: the view's `cancelReason`.) */
  { over = 0 }: { over?: number } = {},
): EmailMessage<OrderEmailKind> {
  const badge = statusBadge(status, { ownAccount: order.payment?.ownAccount });
  const why = status === 'cancelled' ? order.cancelReason : null;
  const extra =
    status === 'shipped'
      ? shipmentNews(order)
      : why
        ? `Reason: ${why}`
        : over > 0
          ? `${formatNaira(over)} more than the total arrived: we will send it back to the account it came from.`
          : undefined;
  return compose(
    `order_status_${status}`,
    order.customer.email,
    `Your GTS order ${order.number}: ${badge.detail.toLowerCase()}`,
    [
      greeting(order.customer.name),
      statusNews(order, status) ?? `Your order ${order.number} is now ${badge.detail.toLowerCase()}.`,
      ...(extra ? [extra] : []),
      orderSummary(order),
      `Follow your order at ${trackUrl(siteUrl, order)}.`,
      'GTS Electronics',
    ],
  );
}

/**
 * An admin sent back what was owed on a payment for this order (an over-payment, a payment for an
 * order that had ended): the shopper is told the amount and where it went. The admin's own note
 * stays in the store.
 */
/**
 * Part of the transfer arrived (the provider's payment, short of the total): what came, what is
 * still to pay and by when, so the shopper does not wait for an order that is not paid yet.
 */
export function partPaidEmail(
  order: { number: string; customer: Pick<OrderView['customer'], 'name' | 'email'>; expiresAt: Date },
  received: number,
  stillToPay: number,
  siteUrl: string,
): EmailMessage<OrderEmailKind> {
  return compose(
    'order_part_paid',
    order.customer.email,
    `Your GTS order ${order.number}: ${formatNaira(received)} arrived, ${formatNaira(stillToPay)} still to pay`,
    [
      greeting(order.customer.name),
      `${formatNaira(received)} has arrived for order ${order.number}. ${formatNaira(stillToPay)} is still to pay, into the same account, by ${formatLagosTime(order.expiresAt.toISOString())}; if the rest has not arrived by then, the order expires and what you sent is refunded.`,
      `Your order and where to pay: ${trackUrl(siteUrl, order)}.`,
      'GTS Electronics',
    ],
  );
}

export function refundSentEmail(
  order: { number: string; customer: Pick<OrderView['customer'], 'name' | 'email'> },
  amount: number,
  siteUrl: string,
): EmailMessage<OrderEmailKind> {
  return compose('order_refund_sent', order.customer.email, `Your GTS order ${order.number}: ${formatNaira(amount)} sent back`, [
    greeting(order.customer.name),
    `We have sent ${formatNaira(amount)} back to the account your transfer for order ${order.number} came from. Banks can take up to a working day to show it.`,
    `If it has not arrived by then, call us on ${STORE.phone} with this e-mail.`,
    `Your order: ${trackUrl(siteUrl, order)}.`,
    'GTS Electronics',
  ]);
}
