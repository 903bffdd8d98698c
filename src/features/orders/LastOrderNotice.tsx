import { useStore } from '@nanostores/react';
import { CheckCircle2 } from 'lucide-react';
import { formatNaira } from '../../lib/money.ts';
import { $lastOrder, forgetLastOrder, lastOrderToShow } from './checkout-store.browser.ts';
import { PICKUP_POINT } from './delivery.ts';
import { CopyButton } from './OrderParts.tsx';

/**
 * The order just finished, on the emptied /cart: after 'I Have Made Payment' the dialog
 * closes itself and the cart clears (spec), and this keeps the number, the amount and how
 * to pay on screen.
 */
export function LastOrderNotice() {
  const order = lastOrderToShow(useStore($lastOrder));
  if (!order) return null;
  return (
    <section className="card last-order" aria-labelledby="last-order-title" data-testid="last-order">
      <h2 id="last-order-title">
        <CheckCircle2 size={22} aria-hidden="true" className="last-order__icon" /> Order {order.number} placed
      </h2>
      <p>
        Amount: <strong>{formatNaira(order.total)}</strong>. We have noted your transfer and will confirm it with our bank. If you
        have not sent it yet, transfer the amount to {order.bankName}, {order.accountName}, account number{' '}
        <strong>{order.accountNumber}</strong>, with <strong>{order.number}</strong> as the reference.{' '}
        <CopyButton value={order.number} label="order number" />
      </p>
      {order.deliveryMethod === 'pickup' && (
        <p>
          Collect it at {PICKUP_POINT.name}, {PICKUP_POINT.address}, once we tell you it is ready.
        </p>
      )}
      <p className="last-order__actions">
        <a className="btn btn-primary" href={`/track?order=${encodeURIComponent(order.number)}`}>
          Track order {order.number}
        </a>
        <button type="button" className="btn btn-outline" onClick={forgetLastOrder}>
          Dismiss
        </button>
      </p>
    </section>
  );
}
