import { HOLD_LIMITS, orderFailureToast } from './checkout.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { accountApi } from '../account/account-api.ts';
import { loadSession } from '../account/session.browser.ts';
import { clearCart } from '../cart/cart-store.browser.ts';
import type { CartItem } from '../cart/cart.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { isOffline } from '../pwa/connection.browser.ts';
import { notify } from '../toast/notify.browser.ts';
import { orderLinesFromCart } from '../cart/cart-check.ts';
import { cancelOrder, fetchOwnOrder, placeOrder, reportPayment } from './api-client.browser.ts';
import { checkoutDetailsSchema, type Customer, type CustomerInput } from './checkout.ts';
import {
  cartLinesKey,
  checkoutAttempt,
  finishCheckoutAttempt,
  forgetReplacedOrder,
  type PlacedRef,
  recordPlacedOrder,
  rememberFinishedOrder,
  forgetLastOrder,
  forgetRecentOrder,
  rememberOrder,
} from './checkout-store.browser.ts';
import { forgetCheckoutDraft, readCheckoutDraft, saveCheckoutDraft } from './checkout-draft.browser.ts';
import { formatNigerianPhone } from './nigeria.ts';
import type { PlacedOrder } from './order-view.ts';
import { ORDER_WATCH_MS } from './order-status.ts';
import { useOrderWatch } from './use-order-watch.browser.ts';

export type CheckoutStep = 'details' | 'payment' | 'success' | 'paid';

/** The spec: after 'I Have Made Payment' the success step shows for 5 seconds, then all resets. */
export const SUCCESS_CLOSE_MS = 5000;

const isHoldLimit = (error: unknown) => error instanceof ApiRequestError && HOLD_LIMITS.includes(error.code);
/** Offline (the installable app still opens): say what is needed instead of failing. */
export const NEEDS_CONNECTION =
  'You are offline. Placing an order needs a connection: your cart and details stay here until you are back online.';

const NO_DETAILS: CustomerInput = {
  delivery: 'delivery',
  name: '',
  email: '',
  phone: '',
  address: '',
  city: '',
  state: '' as CustomerInput['state'],
};

/**
 * A signed-in shopper's saved details (profile: name, e-mail, phone, default delivery
 * address), for the details form; null for a guest. Asks for the profile only when the
 * page's session check says someone is signed in.
 */
async function savedDetails(): Promise<CustomerInput | null> {
  const { user } = await loadSession();
  if (!user) return null;
  const { profile } = await callApi(accountApi.profile);
  return {
    delivery: 'delivery',
    name: profile.name ?? '',
    email: profile.email,
    phone: profile.phone ? formatNigerianPhone(profile.phone) : '',
    address: profile.address ?? '',
    city: profile.city ?? '',
    state: profile.state ?? NO_DETAILS.state,
  };
}

interface Options {
  items: readonly CartItem[];
  onClose: () => void;
  /** The server refused the cart as it stands (stock or price moved): the cart re-checks itself. */
  onCartOutdated: () => void;
}

/**
 * The checkout's steps: details (checked by `checkoutDetailsSchema`, the schema the Worker
 * validates with) → the order is placed on the server → payment (transfer details) →
 * 'I Have Made Payment' is recorded → success, and 5 s later all resets and the cart clears.
 */
export function useCheckout({ items, onClose, onCartOutdated }: Options) {
  const form = useForm<CustomerInput, unknown, Customer>({
    // The form holds every field whichever way the order goes; the schema (a union on
    // `delivery`) checks the address only for delivery. zodResolver types the form as the
    // union's input, which no single form object is, hence the widening.
    resolver: zodResolver(checkoutDetailsSchema) as unknown as Resolver<CustomerInput, unknown, Customer>,
    defaultValues: NO_DETAILS,
    shouldFocusError: true,
  });
  const [step, setStep] = useState<CheckoutStep>('details');
  /** Why the server refused the cart (sold out, price changed), line by line. */
  const [problem, setProblem] = useState<string[]>([]);
  /** Why the order would hold more unpaid items than the store keeps, and what to do (the Worker's message). */
  const [holdLimit, setHoldLimit] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  /** The number of an earlier unpaid order this one replaced (and cancelled). */
  const [replaced, setReplaced] = useState<string | null>(null);
  /** An earlier unpaid order the failed attempt was meant to replace: still open, so the shopper is told. */
  const [earlierOrder, setEarlierOrder] = useState<string | null>(null);
  // Answers that arrive after the dialog was closed belong to a checkout that no longer exists.
  const generation = useRef(0);

  /**
   * Signed in: the form starts from the profile's details. The form is never held back for
   * them, and what the shopper already typed stays (keepDirtyValues); a failure leaves it empty.
   */
  const prefill = () => {
    savedDetails().then(
      (details) => {
        if (details) form.reset(details, { keepDirtyValues: true });
      },
      () => undefined,
    );
  };
  // What this tab typed before (a reload, Back), kept as typed: marked dirty, so the profile's
  // details (prefill, next) fill only the fields it left empty. Every change is kept again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the dialog first opens
  useEffect(() => {
    for (const [field, value] of Object.entries(readCheckoutDraft())) {
      form.setValue(field as keyof CustomerInput, value as CustomerInput[keyof CustomerInput], { shouldDirty: true });
    }
    const kept = form.watch((values) => saveCheckoutDraft(values));
    return () => kept.unsubscribe();
  }, []);
  // The dialog mounts when the shopper first opens it, and stays mounted (with what was typed) after.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the dialog first opens
  useEffect(prefill, []);

  /** The order is paid, or the shopper says so: the cart and this attempt are done; /cart shows the order. */
  const settleCart = (order = placed?.order) => {
    if (placed && order) rememberFinishedOrder(order, placed.accessToken);
    clearCart();
    finishCheckoutAttempt();
  };

  /** After 'I Have Made Payment' (or finding it already made), as the dialog closes: settled, and the form emptied. */
  const finishOrder = () => {
    settleCart();
    form.reset(NO_DETAILS);
    forgetCheckoutDraft();
    prefill();
  };

  // Closing by any means (Close, Escape, the timer) resets the checkout to the details step.
  const close = () => {
    generation.current++;
    if (step === 'success' || step === 'paid') finishOrder();
    setStep('details');
    setProblem([]);
    setHoldLimit(null);
    form.clearErrors();
    setBusy(false);
    setPlaced(null);
    setReplaced(null);
    setEarlierOrder(null);
    onClose();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one timer per success step (close is new every render)
  useEffect(() => {
    if (step !== 'success') return;
    const timer = setTimeout(close, SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [step]);

  // An order paying into its own account turns paid by itself when the money lands: watch it
  // while the payment step (or the reported step) is open.
  useOrderWatch(
    step === 'payment' || step === 'success' ? placed?.order : null,
    async () => {
      if (!placed) throw new Error('no order');
      return (await fetchOwnOrder(placed.order.number, placed.accessToken)).order;
    },
    (order) => {
      setPlaced((current) => (current && current.order.number === order.number ? { ...current, order } : current));
      if (order.status === 'paid') {
        setStep('paid');
        // At once, not when the dialog closes: a shopper may leave from the paid step for another page.
        settleCart(order);
      }
    },
    ORDER_WATCH_MS,
  );

  const showOrderError = (error: unknown) => {
    // The spec's toast for every failure; a sold-out or changed item also gets its own message.
    // A hold limit's toast does not say to try again: the checkout's message says what helps.
    notify('error', orderFailureToast(error instanceof ApiRequestError ? error.code : undefined));
    if (!(error instanceof ApiRequestError)) return;
    if (HOLD_LIMITS.includes(error.code)) {
      setHoldLimit(error.message);
      // The contact that is over its limit is marked on the form; a product's line is in the message.
      showServerIssues(form, error.issues, { prefix: 'customer.' });
      return;
    }
    if (error.code === 'out_of_stock' || error.code === 'price_changed') {
      setProblem(error.issues.length ? error.issues.map((i) => i.message) : [error.message]);
      onCartOutdated();
      return;
    }
    if (error.status === 400) {
      const other = showServerIssues(form, error.issues, { prefix: 'customer.' });
      if (other.length) {
        setProblem(other.map((i) => i.message));
        onCartOutdated();
      }
    }
    if (error.code === 'idempotency_key_reused') finishCheckoutAttempt();
  };

  /** Cancels the order a new one supersedes, so its stock is back on sale at once. */
  const cancelSuperseded = (superseded: PlacedRef, mine: number) => {
    cancelOrder(superseded.number, superseded.accessToken).then(
      () => {
        forgetReplacedOrder(superseded.number);
        forgetRecentOrder(superseded.number);
        if (generation.current === mine) setReplaced(superseded.number);
      },
      (error: unknown) => {
        // Already paid for, reported or gone: nothing to give back. A dropped connection: the next checkout tries again.
        if (error instanceof ApiRequestError && error.code !== 'network' && error.status < 500)
          forgetReplacedOrder(superseded.number);
      },
    );
  };

  const placeTheOrder = async (customer: Customer) => {
    setEarlierOrder(null);
    if (isOffline()) {
      setProblem([NEEDS_CONNECTION]);
      return;
    }
    setProblem([]);
    setHoldLimit(null);
    forgetLastOrder();
    const lines = orderLinesFromCart(items);
    const linesKey = cartLinesKey(lines);
    const fingerprint = JSON.stringify({ lines, customer });
    const mine = generation.current;
    setBusy(true);
    let attempt = checkoutAttempt(fingerprint, linesKey);
    try {
      let result: PlacedOrder;
      try {
        result = await placeOrder({ idempotencyKey: attempt.key, customer, lines });
      } catch (error) {
        // The earlier order this one replaces counts against the shopper's unpaid allowance
        // too: give its items back first, then try again (a refused order wrote nothing, so
        // the same key places it).
        const earlier = attempt.replaces;
        if (!earlier || !isHoldLimit(error)) throw error;
        await cancelOrder(earlier.number, earlier.accessToken);
        forgetReplacedOrder(earlier.number);
        forgetRecentOrder(earlier.number);
        attempt = { key: attempt.key };
        if (generation.current === mine) setReplaced(earlier.number);
        result = await placeOrder({ idempotencyKey: attempt.key, customer, lines });
      }
      if (result.order.status === 'expired' || result.order.status === 'cancelled') {
        // This cart and these details made an order before that can no longer be paid: start a new one.
        finishCheckoutAttempt();
        attempt = checkoutAttempt(fingerprint, linesKey);
        result = await placeOrder({ idempotencyKey: attempt.key, customer, lines });
      }
      recordPlacedOrder({ number: result.order.number, accessToken: result.accessToken });
      rememberOrder(result.order.number, result.order.customer.email);
      // The earlier order from this browser with another cart or details is superseded only now
      // that its replacement exists: give its stock back.
      const superseded = attempt.replaces;
      if (superseded && superseded.number !== result.order.number) cancelSuperseded(superseded, mine);
      if (generation.current !== mine) return;
      setPlaced(result);
      // Already reported as paid (the dialog was closed on the success step before the cart cleared).
      setStep(result.order.status === 'awaiting_payment' ? 'payment' : 'success');
    } catch (error) {
      if (generation.current !== mine) return;
      showOrderError(error);
      // The order this one was to replace still holds its items: say so, and how to pay for it.
      if (attempt.replaces) setEarlierOrder(attempt.replaces.number);
    } finally {
      if (generation.current === mine) setBusy(false);
    }
  };

  /** Opens on the payment step of an order this browser placed before (the cart's "Continue to payment"). */
  const resume = (order: PlacedOrder) => {
    generation.current++;
    setPlaced(order);
    setStep(order.order.status === 'awaiting_payment' ? 'payment' : 'success');
  };

  const reportPaid = async () => {
    if (!placed) return;
    if (isOffline()) {
      notify('warning', 'You are offline. Recording your payment needs a connection: try again when you are back online.');
      return;
    }
    const mine = generation.current;
    setBusy(true);
    try {
      await reportPayment(placed.order.number, placed.accessToken);
      if (generation.current === mine) setStep('success');
    } catch (error) {
      if (generation.current !== mine) return;
      notify(
        'error',
        error instanceof ApiRequestError && error.code !== 'network'
          ? error.message
          : 'We could not record your payment. Please try again.',
      );
    } finally {
      if (generation.current === mine) setBusy(false);
    }
  };

  return {
    step,
    /** The details form (react-hook-form, validated with `checkoutDetailsSchema`). */
    form,
    /** Submits the details: checks them, then places the order. */
    submitDetails: form.handleSubmit(placeTheOrder, () => setProblem([])),
    problem,
    holdLimit,
    busy,
    placed,
    replaced,
    earlierOrder,
    resume,
    reportPaid,
    close,
  };
}
