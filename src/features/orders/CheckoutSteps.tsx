import { CheckCircle2 } from 'lucide-react';
import type { SubmitEventHandler } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { emailSuggestion } from '../../lib/email-check.ts';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { SelectField, TextField } from '../forms/Field.tsx';
import type { Customer, CustomerInput } from './checkout.ts';
import { NIGERIAN_STATES } from './nigeria.ts';
import { type CartItem, cartSubtotal, lineKey, lineTitle } from '../cart/cart.ts';
import { type DeliveryMethod, deliveryFee, PICKUP_POINT } from './delivery.ts';
import { DeliveryChoice } from './DeliveryChoice.tsx';
import { BankTransferDetails, OrderTotals, PlacedOrderTotals } from './OrderParts.tsx';
import type { OrderView } from './order-view.ts';

/** The checkout dialog's steps; the state between them is `useCheckout`'s. */

/** What is being ordered, beside the details: items, delivery and total (the server prices the order itself). */
function OrderSummary({ items, delivery }: { items: readonly CartItem[]; delivery: DeliveryMethod }) {
  const subtotal = cartSubtotal(items);
  const fee = deliveryFee(delivery);
  return (
    <section className="checkout__summary" aria-label="Order summary">
      <h3>Your order</h3>
      <ul>
        {items.map((item) => (
          <li key={lineKey(item)}>
            <span>
              {lineTitle(item)} <span className="muted">× {item.quantity}</span>
            </span>
            <span>{formatNaira(item.price * item.quantity)}</span>
          </li>
        ))}
      </ul>
      <OrderTotals subtotal={subtotal} shipping={fee} total={subtotal + fee} delivery={delivery} />
    </section>
  );
}

interface DetailsStepProps {
  form: UseFormReturn<CustomerInput, unknown, Customer>;
  onSubmit: SubmitEventHandler<HTMLFormElement>;
  /** Why the server refused the cart as it stands, line by line. */
  problem: readonly string[];
  /** Why the order would hold more unpaid items than the store keeps, and what to do instead. */
  holdLimit: string | null;
  busy: boolean;
  cartEmpty: boolean;
  /** An earlier unpaid order from this browser that the failed order was meant to replace: still open. */
  earlierOrder: string | null;
  /** The cart being ordered, for the summary beside the form. */
  items: readonly CartItem[];
}

/**
 * "Did you mean ngozi@gmail.com?" under the e-mail when its domain is a slip from a common one
 * (emailSuggestion): the order's e-mails and its lookup on /track go to that exact address. One
 * tap puts it in; the address as typed is still accepted.
 */
function EmailSuggestion({ form }: { form: UseFormReturn<CustomerInput, unknown, Customer> }) {
  const suggestion = emailSuggestion(form.watch('email') ?? '');
  return (
    <p className="email-suggestion" role="status">
      {suggestion && (
        <>
          Did you mean{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              form.setValue('email', suggestion, { shouldValidate: true, shouldDirty: true });
              form.setFocus('email');
            }}
          >
            {suggestion}
          </button>
          ?
        </>
      )}
    </p>
  );
}

export function DetailsStep({ form, onSubmit, problem, holdLimit, busy, cartEmpty, earlierOrder, items }: DetailsStepProps) {
  const delivery = form.watch('delivery');
  return (
    <form className="checkout__form checkout__details" onSubmit={onSubmit} noValidate>
      <OrderSummary items={items} delivery={delivery} />
      <DeliveryChoice field={form.register('delivery')} block="checkout" />
      {delivery === 'pickup' && (
        <div className="checkout__pickup" data-testid="pickup-point">
          <p>
            <strong>{PICKUP_POINT.name}</strong>, {PICKUP_POINT.address}
          </p>
          <ul className="muted">
            {PICKUP_POINT.hours.map((h) => (
              <li key={h.days}>
                {h.days}: {h.time}
              </li>
            ))}
          </ul>
          <p className="muted">We e-mail you when your order is ready. Bring your order number.</p>
        </div>
      )}
      <p className="muted">All fields are required.</p>
      <TextField form={form} name="name" id="checkout-name" label="Full name" autoComplete="name" required />
      <TextField
        form={form}
        name="email"
        id="checkout-email"
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
      />
      <EmailSuggestion form={form} />
      <TextField
        form={form}
        name="phone"
        id="checkout-phone"
        label="Phone number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        required
      />
      {delivery !== 'pickup' && (
        <>
          <TextField
            form={form}
            name="address"
            id="checkout-address"
            label="Delivery address"
            autoComplete="street-address"
            required
          />
          <TextField form={form} name="city" id="checkout-city" label="City" autoComplete="address-level2" required />
          <SelectField
            form={form}
            name="state"
            id="checkout-state"
            label="State"
            autoComplete="address-level1"
            required
            placeholder="Choose your state"
            choices={NIGERIAN_STATES}
          />
        </>
      )}
      {problem.length > 0 && (
        <div className="checkout__problem" role="alert">
          <p>
            <strong>Your cart changed before we could place the order:</strong>
          </p>
          <ul>
            {problem.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          <p>We have updated your cart. Check it, then place the order again.</p>
        </div>
      )}
      {holdLimit && (
        <div className="checkout__problem" role="alert">
          <p>
            <strong>We could not hold these items for you yet.</strong>
          </p>
          <p>{holdLimit}</p>
          <p>
            <a href="/track">Find your unpaid order</a> · <a href="/contact">Contact us</a>
          </p>
        </div>
      )}
      {earlierOrder && (
        <p className="checkout__replaced" role="status">
          Your earlier order {earlierOrder} is still open and holds its items. You can{' '}
          <a href={`/track?order=${encodeURIComponent(earlierOrder)}`}>pay for it from the tracking page</a>, or place this order
          again: it will replace the earlier one.
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy || cartEmpty}>
        {busy ? 'Placing your order…' : 'Place Order'}
      </button>
    </form>
  );
}

interface PaymentStepProps {
  order: OrderView;
  /** The transfer details (an order awaiting payment has them). */
  payment: NonNullable<OrderView['payment']>;
  /** The number of the earlier unpaid order this one replaced. */
  replaced: string | null;
  busy: boolean;
  onReportPaid: () => void;
}

export function PaymentStep({ order, payment, replaced, busy, onReportPaid }: PaymentStepProps) {
  return (
    <div className="checkout__payment">
      {payment.ownAccount ? (
        <p>
          Order <strong>{order.number}</strong> is placed. Transfer <strong>{formatNaira(payment.amount)}</strong> to this order's
          own account below
          {payment.takesPaymentUntil ? `, which takes it until ${formatLagosTime(payment.takesPaymentUntil)}` : ''}. We see the
          money the moment it lands and confirm it by ourselves: this page turns to paid.
        </p>
      ) : (
        <p>
          Order <strong>{order.number}</strong> is placed. Transfer <strong>{formatNaira(payment.amount)}</strong> to the account
          below and use your order number as the reference.
        </p>
      )}
      {replaced && (
        <p className="checkout__replaced" role="status">
          This order replaces your earlier order {replaced}, which we have cancelled. Pay for this one only.
        </p>
      )}
      <BankTransferDetails payment={payment} />
      <PlacedOrderTotals order={order} />
      <p className="muted">
        We hold your items for {order.holdHours} hours, until {formatLagosTime(order.expiresAt)}. If we have not received your
        transfer by then, the order expires. We have e-mailed these details to {order.customer.email}.
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={onReportPaid} disabled={busy}>
        {busy ? 'Recording your payment…' : 'I Have Made Payment'}
      </button>
    </div>
  );
}

/** The transfer into the order's own account landed and the provider confirmed it (use-order-watch.browser.ts). */
export function PaidStep({ order, onClose }: { order: OrderView; onClose: () => void }) {
  return (
    <div className="checkout__success" role="status">
      <CheckCircle2 size={48} aria-hidden="true" className="checkout__success-icon" />
      <p>
        <strong>Payment received.</strong> Order {order.number} is paid ({formatNaira(order.total)}) and we are packing it.
      </p>
      <p className="muted">
        We have e-mailed {order.customer.email} and will write again when it ships. Follow it on the{' '}
        <a href={`/track?order=${encodeURIComponent(order.number)}`}>tracking page</a>.
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

export function SuccessStep({ order }: { order: OrderView }) {
  return (
    <div className="checkout__success" role="status">
      <CheckCircle2 size={48} aria-hidden="true" className="checkout__success-icon" />
      <p>
        <strong>Thank you!</strong> We have noted your payment for order {order.number}.
      </p>
      <p className="muted">
        {order.payment?.ownAccount
          ? `Your transfer confirms itself when it reaches this order's account, usually within minutes, and we e-mail ${order.customer.email}.`
          : `We will confirm the transfer with our bank and e-mail ${order.customer.email}.`}{' '}
        Follow the order on the <a href={`/track?order=${encodeURIComponent(order.number)}`}>tracking page</a>.
      </p>
    </div>
  );
}
