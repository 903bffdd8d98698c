import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { DeliveryMethod } from './delivery.ts';
import { formatNaira, plainNaira, type Kobo } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { COPIED_MS, copyDetail } from './copy-detail.browser.ts';
import { statusBadge, type OrderStatus } from './order-status.ts';
import type { OrderView } from './order-view.ts';
import './orders.css';

/** Pieces shared by the checkout's payment step and the tracking page. */

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const badge = statusBadge(status);
  return (
    <span className={`status-badge status-badge--${badge.tone}`} data-tone={badge.tone}>
      {badge.label}
    </span>
  );
}

/**
 * Copies one bank detail. It carries what it copies (`data-copy`, `data-label`) and both icons
 * (`data-copied` shows which), so the same markup rendered by the Worker works with /track's
 * plain script (track.browser.ts).
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => setCopied(await copyDetail(value, label));
  return (
    <button
      type="button"
      className="btn btn-outline copy-btn"
      onClick={copy}
      aria-label={`Copy ${label.toLowerCase()}`}
      data-copy={value}
      data-label={label}
      data-copied={copied ? '' : undefined}
    >
      <Check size={16} aria-hidden="true" className="copy-btn__done" />
      <Copy size={16} aria-hidden="true" className="copy-btn__ready" />
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  );
}

/** Amount, reference and the account (the store's, or the order's own), each with a copy button. */
export function BankTransferDetails({ payment }: { payment: NonNullable<OrderView['payment']> }) {
  const received = payment.received ?? 0;
  const rows = [
    { label: received > 0 ? 'Still to pay' : 'Amount', shown: formatNaira(payment.amount), copy: plainNaira(payment.amount) },
    { label: 'Reference', shown: payment.reference, copy: payment.reference },
    { label: 'Bank', shown: payment.bankName, copy: payment.bankName },
    { label: 'Account name', shown: payment.accountName, copy: payment.accountName },
    { label: 'Account number', shown: payment.accountNumber, copy: payment.accountNumber },
  ];
  return (
    <dl className="transfer-details">
      {received > 0 && (
        <div className="transfer-details__row">
          <dt>Received so far</dt>
          <dd>
            <span className="transfer-details__value" data-field="Received so far">
              {formatNaira(received)}
            </span>
          </dd>
        </div>
      )}
      {rows.map((row) => (
        <div className="transfer-details__row" key={row.label}>
          <dt>{row.label}</dt>
          <dd>
            <span className="transfer-details__value" data-field={row.label}>
              {row.shown}
            </span>
            <CopyButton value={row.copy} label={row.label} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The totals of a placed order: subtotal, delivery or pick-up, a swap's trade-in credit, total. */
export function PlacedOrderTotals({ order }: { order: OrderView }) {
  return (
    <OrderTotals
      subtotal={order.subtotal}
      shipping={order.shipping}
      total={order.total}
      delivery={order.deliveryMethod}
      credit={order.credit}
    />
  );
}

export function OrderTotals({
  subtotal,
  shipping,
  total,
  delivery = 'delivery',
  credit,
}: {
  subtotal: Kobo;
  shipping: Kobo;
  total: Kobo;
  delivery?: DeliveryMethod;
  /** A swap's trade-in credit, taken off the total (src/features/trade-ins). */
  credit?: OrderView['credit'];
}) {
  return (
    <dl className="order-totals">
      <div>
        <dt>Subtotal</dt>
        <dd>{formatNaira(subtotal)}</dd>
      </div>
      <div>
        <dt>{delivery === 'pickup' ? 'Pick-up in Ikeja' : 'Shipping'}</dt>
        <dd>{shipping === 0 ? 'Free' : formatNaira(shipping)}</dd>
      </div>
      {credit && (
        <div className="order-totals__credit">
          <dt>Trade-in credit ({credit.tradeIn})</dt>
          <dd>−{formatNaira(credit.amount)}</dd>
        </div>
      )}
      <div className="order-totals__total">
        <dt>Total</dt>
        <dd>{formatNaira(total)}</dd>
      </div>
    </dl>
  );
}

export function OrderLines({ lines }: { lines: OrderView['lines'] }) {
  return (
    <ul className="order-lines">
      {lines.map((line) => (
        <li key={`${line.productId}/${line.variant}`} className="order-lines__line">
          <img src={line.image} alt="" width={48} height={48} loading="lazy" />
          <span>
            <a href={`/product/${line.productId}`}>{line.name}</a>
            {line.variant && <span className="muted"> · {line.variant}</span>}
            <span className="muted"> × {line.quantity}</span>
          </span>
          <span className="order-lines__total">{formatNaira(line.lineTotal)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Why the store cancelled the order, in the words its e-mail gave (nothing for the shopper's own cancel or an expiry). */
export function CancelReason({ order, className }: { order: OrderView; className: string }) {
  return order.cancelReason ? <p className={className}>Reason from the store: {order.cancelReason}</p> : null;
}

/**
 * Where the money goes: while payment is due, what to transfer and by when; once the
 * shopper reported paying, the same details (what they should have sent) and until when
 * we look for it.
 */
export function OrderPaymentInfo({ order, className }: { order: OrderView; className: string }) {
  const payment = order.payment;
  if (!payment) return null;
  if (payment.due) {
    return (
      <div className={className}>
        <h3>Payment due</h3>
        {payment.ownAccount ? (
          <p>
            Transfer the amount below to this order's own account by {formatLagosTime(order.expiresAt)}, or the order expires. We
            confirm it by ourselves the moment it lands.
          </p>
        ) : (
          <p>
            Transfer the amount below by {formatLagosTime(order.expiresAt)}, with your order number as the reference, or the order
            expires.
          </p>
        )}
        <BankTransferDetails payment={payment} />
      </div>
    );
  }
  if (order.status !== 'payment_reported') return null;
  const received = payment.received ?? 0;
  return (
    <div className={className}>
      <h3>Your transfer</h3>
      {received > 0 ? (
        // Part of it arrived: what is missing, not "you told us you paid", is the news.
        <p>
          {formatNaira(received)} of it has arrived; {formatNaira(payment.amount)} is still to pay. If the rest has not reached{' '}
          {payment.ownAccount ? "this order's account" : 'our account'} by {formatLagosTime(order.expiresAt)}, the order expires.
          This is where it goes:
        </p>
      ) : payment.ownAccount ? (
        <p>
          You told us you paid. It confirms itself the moment it reaches this order's account; if it has not arrived by{' '}
          {formatLagosTime(order.expiresAt)}, the order expires. This is where it should have gone:
        </p>
      ) : (
        <p>
          You told us you paid. We are checking our account for it; if we cannot find it by {formatLagosTime(order.expiresAt)},
          the order expires. This is where it should have gone:
        </p>
      )}
      <BankTransferDetails payment={payment} />
    </div>
  );
}
