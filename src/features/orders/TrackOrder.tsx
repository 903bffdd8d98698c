import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { ApiRequestError } from '../../lib/api-client.ts';
import { lookupOrder } from './api-client.ts';
import { $recentOrders } from './checkout-store.ts';
import { orderLookupSchema } from './checkout.ts';
import { formatNigerianPhone } from './nigeria.ts';
import { statusText } from './order-status.ts';
import type { OrderView } from './order-view.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { BankTransferDetails, OrderLines, OrderStatusBadge, OrderTotals } from './OrderParts.tsx';
import './TrackOrder.css';

type Field = 'number' | 'email';

/**
 * /track: a guest finds an order by its number and the checkout e-mail. The form
 * is plain HTML first (it works before hydration as far as typing goes); orders
 * placed in this browser are offered as shortcuts.
 */
export default function TrackOrder() {
  const recent = useStore($recentOrders, { ssr: () => [] });
  const [number, setNumber] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [order, setOrder] = useState<OrderView | null>(null);
  const resultRef = useRef<HTMLElement>(null);

  useEffect(() => {
    // Pick up anything typed before hydration, and ?order= from e-mail links.
    const form = document.getElementById('track-form');
    const typedNumber = form?.querySelector<HTMLInputElement>('#track-number')?.value;
    const typedEmail = form?.querySelector<HTMLInputElement>('#track-email')?.value;
    setNumber(typedNumber || new URLSearchParams(window.location.search).get('order') || '');
    if (typedEmail) setEmail(typedEmail);
  }, []);

  useEffect(() => {
    if (order) resultRef.current?.focus();
  }, [order]);

  const find = async (lookup: { number: string; email: string }) => {
    setMessage('');
    const parsed = orderLookupSchema.safeParse(lookup);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      setOrder(null);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      setOrder(await lookupOrder(parsed.data.number, parsed.data.email));
    } catch (error) {
      setOrder(null);
      setMessage(error instanceof ApiRequestError && error.code !== 'network' && error.status < 500 ? error.message : 'We could not look up your order just now. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void find({ number, email });
  };

  return (
    <div className="track">
      <form id="track-form" className="track__form card" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="track-number">Order number</label>
          <input
            id="track-number" className="input" name="number" placeholder="GTS-7K3M9Q2XWD" autoComplete="off"
            value={number} onChange={(e) => setNumber(e.target.value)} required
            aria-invalid={errors.number ? true : undefined} aria-describedby={errors.number ? 'track-number-error' : undefined}
          />
          {errors.number && <p id="track-number-error" className="field-error">{errors.number}</p>}
        </div>
        <div className="field">
          <label htmlFor="track-email">Email used at checkout</label>
          <input
            id="track-email" className="input" name="email" type="email" autoComplete="email" inputMode="email"
            value={email} onChange={(e) => setEmail(e.target.value)} required
            aria-invalid={errors.email ? true : undefined} aria-describedby={errors.email ? 'track-email-error' : undefined}
          />
          {errors.email && <p id="track-email-error" className="field-error">{errors.email}</p>}
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Finding your order…' : 'Track Order'}</button>
        <p className="form-message" data-kind="error" role="alert">{message}</p>
        {recent.length > 0 && (
          <div className="track__recent">
            <p className="muted">Orders placed in this browser:</p>
            <ul>
              {recent.map((r) => (
                <li key={r.number}>
                  <button type="button" className="btn btn-outline" onClick={() => { setNumber(r.number); setEmail(r.email); void find(r); }}>
                    {r.number}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </form>

      {order && (
        <section className="track__order card" aria-labelledby="track-order-title" tabIndex={-1} ref={resultRef}>
          <header className="track__order-head">
            <h2 id="track-order-title">Order {order.number}</h2>
            <OrderStatusBadge status={order.status} />
          </header>
          <p className="muted">
            Placed {formatLagosTime(order.createdAt)} · {statusText(order.status, { capital: true })}
          </p>
          {order.payment && (
            <div className="track__payment">
              <h3>Payment due</h3>
              <p>
                Transfer the amount below by {formatLagosTime(order.expiresAt)}, with your order number as the
                reference, or the order expires.
              </p>
              <BankTransferDetails payment={order.payment} />
            </div>
          )}
          <h3>Items</h3>
          <OrderLines lines={order.lines} />
          <OrderTotals subtotal={order.subtotal} shipping={order.shipping} total={order.total} />
          <h3>Delivery</h3>
          <p>
            {order.customer.name} · {formatNigerianPhone(order.customer.phone)}<br />
            {order.customer.address}, {order.customer.city}, {order.customer.state}
          </p>
          <h3>History</h3>
          <ol className="track__history">
            {order.history.map((h) => (
              <li key={`${h.status}-${h.at}`}>
                <span>{statusText(h.status, { capital: true })}</span> <span className="muted">{formatLagosTime(h.at)}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
