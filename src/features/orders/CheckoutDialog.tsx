import { CheckCircle2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { formatNaira } from '../../lib/money.ts';
import { clearCart } from '../cart/cart-store.ts';
import type { CartItem } from '../cart/cart.ts';
import { notify } from '../toast/notify.ts';
import { ApiRequestError } from '../../lib/api-client.ts';
import { cancelOrder, orderLinesFromCart, placeOrder, reportPayment } from './api-client.ts';
import { customerSchema, type CustomerField, type CustomerInput } from './checkout.ts';
import { checkoutAttempt, finishCheckoutAttempt, recordPlacedOrder, rememberOrder } from './checkout-store.ts';
import { NIGERIAN_STATES } from './nigeria.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { BankTransferDetails, OrderTotals } from './OrderParts.tsx';
import type { PlacedOrder } from './order-view.ts';
import './CheckoutDialog.css';

type Step = 'details' | 'payment' | 'success';

/** The spec: after 'I Have Made Payment' the success step shows for 5 seconds, then all resets. */
export const SUCCESS_CLOSE_MS = 5000;

const ORDER_FAILED = 'There was an error processing your order. Please try again.';

const EMPTY: CustomerInput = { name: '', email: '', phone: '', address: '', city: '', state: '' as CustomerInput['state'] };

const FIELDS: { name: CustomerField; label: string; type?: string; autoComplete: string; inputMode?: 'tel' | 'email' }[] = [
  { name: 'name', label: 'Full name', autoComplete: 'name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', inputMode: 'email' },
  { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  { name: 'address', label: 'Delivery address', autoComplete: 'street-address' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
];

interface Props {
  open: boolean;
  items: readonly CartItem[];
  onClose: () => void;
  /** The server refused the cart as it stands (stock or price moved): the cart re-checks itself. */
  onCartOutdated: () => void;
}

/**
 * Checkout in a native modal <dialog> (focus stays inside, the page behind is inert,
 * Escape closes): details → the order is created on the server → payment (transfer
 * details) → 'I Have Made Payment' is recorded → success, and 5 s later the cart clears.
 */
export default function CheckoutDialog({ open, items, onClose, onCartOutdated }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<Step>('details');
  const [details, setDetails] = useState<CustomerInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<CustomerField, string>>>({});
  const [problem, setProblem] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  /** The number of an earlier unpaid order this one replaced (and cancelled). */
  const [replaced, setReplaced] = useState<string | null>(null);
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped when a submit finds errors: after React renders them, the first invalid field gets focus.
  const [invalidSubmits, setInvalidSubmits] = useState(0);

  useEffect(() => {
    if (invalidSubmits) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [invalidSubmits]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // Answers that arrive after the dialog was closed belong to a checkout that no longer exists.
  const generation = useRef(0);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Each new step is announced by moving focus to its heading (the button that led there is gone).
  useEffect(() => {
    if (open && step !== 'details') headingRef.current?.focus();
  }, [open, step]);

  /** After 'I Have Made Payment' (or finding it already made): the cart and this attempt are done. */
  const finishOrder = () => {
    clearCart();
    finishCheckoutAttempt();
    setDetails(EMPTY);
  };

  // Closing by any means (Close, Escape, the timer) resets the dialog to the details step.
  const close = () => {
    generation.current++;
    if (step === 'success') finishOrder();
    setStep('details');
    setProblem([]);
    setErrors({});
    setBusy(false);
    setPlaced(null);
    setReplaced(null);
    onClose();
  };

  useEffect(() => {
    if (step !== 'success') return;
    const timer = setTimeout(close, SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per success step
  }, [step]);

  const update = (field: CustomerField, value: string) => {
    setDetails((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submitDetails = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem([]);
    const parsed = customerSchema.safeParse(details);
    if (!parsed.success) {
      const found: Partial<Record<CustomerField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as CustomerField;
        found[field] ??= issue.message;
      }
      setErrors(found);
      setInvalidSubmits((n) => n + 1);
      return;
    }
    const lines = orderLinesFromCart(items);
    const fingerprint = JSON.stringify({ lines, customer: details });
    const mine = generation.current;
    setBusy(true);
    try {
      let attempt = checkoutAttempt(fingerprint);
      let result = await placeOrder({ idempotencyKey: attempt.key, customer: details, lines });
      if (result.order.status === 'expired' || result.order.status === 'cancelled') {
        // This cart and these details made an order before that can no longer be paid: start a new one.
        finishCheckoutAttempt();
        attempt = checkoutAttempt(fingerprint);
        result = await placeOrder({ idempotencyKey: attempt.key, customer: details, lines });
      }
      recordPlacedOrder({ number: result.order.number, accessToken: result.accessToken });
      rememberOrder(result.order.number, result.order.customer.email);
      // An earlier order from this browser with another cart or details is superseded: give its stock back.
      const superseded = attempt.replaces;
      if (superseded && superseded.number !== result.order.number) {
        cancelOrder(superseded.number, superseded.accessToken).then(
          () => generation.current === mine && setReplaced(superseded.number),
          () => undefined, // already paid for, reported or gone: nothing to give back
        );
      }
      if (generation.current !== mine) return;
      setPlaced(result);
      // Already reported as paid (the dialog was closed on the success step before the cart cleared).
      setStep(result.order.status === 'awaiting_payment' ? 'payment' : 'success');
    } catch (error) {
      if (generation.current === mine) showOrderError(error);
    } finally {
      if (generation.current === mine) setBusy(false);
    }
  };

  const showOrderError = (error: unknown) => {
    // The spec's toast for every failure; a sold-out or changed item also gets its own message.
    notify('error', ORDER_FAILED);
    if (!(error instanceof ApiRequestError)) return;
    if (error.code === 'out_of_stock' || error.code === 'price_changed') {
      setProblem(error.issues.length ? error.issues.map((i) => i.message) : [error.message]);
      onCartOutdated();
      return;
    }
    if (error.status === 400) {
      const fieldErrors: Partial<Record<CustomerField, string>> = {};
      const other: string[] = [];
      for (const issue of error.issues) {
        const match = /^customer\.(\w+)$/.exec(issue.field);
        if (match) fieldErrors[match[1] as CustomerField] = issue.message;
        else other.push(issue.message);
      }
      setErrors(fieldErrors);
      setInvalidSubmits((n) => n + 1);
      if (other.length) {
        setProblem(other);
        onCartOutdated();
      }
    }
    if (error.code === 'idempotency_key_reused') finishCheckoutAttempt();
  };

  const reportPaid = async () => {
    if (!placed) return;
    const mine = generation.current;
    setBusy(true);
    try {
      await reportPayment(placed.order.number, placed.accessToken);
      if (generation.current === mine) setStep('success');
    } catch (error) {
      if (generation.current !== mine) return;
      notify('error', error instanceof ApiRequestError && error.code !== 'network' ? error.message : 'We could not record your payment. Please try again.');
    } finally {
      if (generation.current === mine) setBusy(false);
    }
  };

  const order = placed?.order;
  return (
    <dialog ref={dialogRef} className="checkout" aria-labelledby={titleId} onClose={() => open && close()}>
      <div className="checkout__head">
        <h2 id={titleId} ref={headingRef} tabIndex={-1}>
          {step === 'details' ? 'Checkout' : step === 'payment' ? 'Pay by bank transfer' : 'Payment noted'}
        </h2>
        <button type="button" className="icon-btn" onClick={close} aria-label="Close checkout">
          <X size={20} aria-hidden="true" />
        </button>
      </div>

      {step === 'details' && (
        <form ref={formRef} className="checkout__form" onSubmit={submitDetails} noValidate>
          <p className="muted">Where should we deliver? All fields are required.</p>
          {FIELDS.map((f) => (
            <div className="field" key={f.name}>
              <label htmlFor={`checkout-${f.name}`}>{f.label}</label>
              <input
                id={`checkout-${f.name}`}
                className="input"
                name={f.name}
                type={f.type ?? 'text'}
                inputMode={f.inputMode}
                autoComplete={f.autoComplete}
                required
                value={details[f.name]}
                onChange={(e) => update(f.name, e.target.value)}
                aria-invalid={errors[f.name] ? true : undefined}
                aria-describedby={errors[f.name] ? `checkout-${f.name}-error` : undefined}
              />
              {errors[f.name] && <p id={`checkout-${f.name}-error`} className="field-error">{errors[f.name]}</p>}
            </div>
          ))}
          <div className="field">
            <label htmlFor="checkout-state">State</label>
            <select
              id="checkout-state"
              className="input"
              name="state"
              autoComplete="address-level1"
              required
              value={details.state}
              onChange={(e) => update('state', e.target.value)}
              aria-invalid={errors.state ? true : undefined}
              aria-describedby={errors.state ? 'checkout-state-error' : undefined}
            >
              <option value="">Choose your state</option>
              {NIGERIAN_STATES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
            {errors.state && <p id="checkout-state-error" className="field-error">{errors.state}</p>}
          </div>
          {problem.length > 0 && (
            <div className="checkout__problem" role="alert">
              <p><strong>Your cart changed before we could place the order:</strong></p>
              <ul>{problem.map((p) => <li key={p}>{p}</li>)}</ul>
              <p>We have updated your cart. Check it, then place the order again.</p>
            </div>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || items.length === 0}>
            {busy ? 'Placing your order…' : 'Place Order'}
          </button>
        </form>
      )}

      {step === 'payment' && order?.payment && (
        <div className="checkout__payment">
          <p>
            Order <strong>{order.number}</strong> is placed. Transfer <strong>{formatNaira(order.total)}</strong> to
            the account below and use your order number as the reference.
          </p>
          {replaced && (
            <p className="checkout__replaced" role="status">
              This order replaces your earlier order {replaced}, which we have cancelled. Pay for this one only.
            </p>
          )}
          <BankTransferDetails payment={order.payment} />
          <OrderTotals subtotal={order.subtotal} shipping={order.shipping} total={order.total} />
          <p className="muted">
            We hold your items for {order.holdHours} hours, until {formatLagosTime(order.expiresAt)}. If we have
            not received your transfer by then, the order expires. We have e-mailed these details to {order.customer.email}.
          </p>
          <button type="button" className="btn btn-primary btn-block" onClick={reportPaid} disabled={busy}>
            {busy ? 'Recording your payment…' : 'I Have Made Payment'}
          </button>
        </div>
      )}

      {step === 'success' && order && (
        <div className="checkout__success" role="status">
          <CheckCircle2 size={48} aria-hidden="true" className="checkout__success-icon" />
          <p><strong>Thank you!</strong> We have noted your payment for order {order.number}.</p>
          <p className="muted">
            We will confirm the transfer with our bank and e-mail {order.customer.email}. Follow the order on
            the <a href={`/track?order=${encodeURIComponent(order.number)}`}>tracking page</a>.
          </p>
        </div>
      )}
    </dialog>
  );
}
