import { formatNaira } from '../../src/lib/money.ts';
import { formatLagosTime } from '../../src/lib/time.ts';
import { statusBadge, type OrderStatus } from '../../src/features/orders/order-status.ts';
import type { OrderView } from '../../src/features/orders/order-view.ts';
import type { BankAccount } from '../env.ts';

/** An e-mail ready for the outbox: plain text first, with an HTML twin. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}


function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function trackUrl(siteUrl: string, order: Pick<OrderView, 'number'>): string {
  return new URL(`/track?order=${encodeURIComponent(order.number)}`, siteUrl).href;
}

/** Paragraphs of text become the text body and, escaped, the HTML body. */
function compose(to: string, subject: string, paragraphs: string[]): EmailMessage {
  const html = paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`).join('\n');
  return { to, subject, text: paragraphs.join('\n\n'), html: `<!doctype html><html><body>${html}</body></html>` };
}

function orderSummary(order: OrderView): string {
  const lines = order.lines.map(
    (l) => `${l.quantity} × ${l.name}${l.variant ? ` (${l.variant})` : ''}: ${formatNaira(l.lineTotal)}`,
  );
  return [...lines, `Subtotal: ${formatNaira(order.subtotal)}`, `Shipping: ${formatNaira(order.shipping)}`, `Total: ${formatNaira(order.total)}`].join('\n');
}

export function orderConfirmationEmail(order: OrderView, bank: BankAccount, siteUrl: string): EmailMessage {
  return compose(order.customer.email, `Your GTS order ${order.number}: transfer details`, [
    `Hello ${order.customer.name},`,
    `Thank you for your order ${order.number}. We are holding your items until ${formatLagosTime(order.expiresAt)} (Lagos time).`,
    orderSummary(order),
    [
      `Please transfer ${formatNaira(order.total)} to:`,
      `Bank: ${bank.bankName}`,
      `Account name: ${bank.accountName}`,
      `Account number: ${bank.accountNumber}`,
      `Reference: ${order.number}`,
    ].join('\n'),
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
  expired: 'We did not receive a transfer in time, so your order has expired and its items are back on sale. You are welcome to order again.',
};

export function statusChangeEmail(order: OrderView, status: OrderStatus, siteUrl: string): EmailMessage {
  const badge = statusBadge(status);
  return compose(order.customer.email, `Your GTS order ${order.number}: ${badge.detail.toLowerCase()}`, [
    `Hello ${order.customer.name},`,
    STATUS_NEWS[status] ?? `Your order ${order.number} is now ${badge.detail.toLowerCase()}.`,
    orderSummary(order),
    `Follow your order at ${trackUrl(siteUrl, order)}.`,
    'GTS Electronics',
  ]);
}
