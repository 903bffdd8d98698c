import { useStore } from '@nanostores/react';
import { Minus, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatNaira, type Kobo } from '../../lib/money.ts';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { fetchOwnOrder, orderLinesFromCart, quoteCart, type CartQuote, type QuotedLine } from '../orders/api-client.browser.ts';
import { cartLinesKey, finishCheckoutAttempt, placedOrderForCart } from '../orders/checkout-store.browser.ts';
import type { PlacedOrder } from '../orders/order-view.ts';
import { formatLagosTime } from '../../lib/time.ts';
import type CheckoutDialog from '../orders/CheckoutDialog.tsx';
import { OrderTotals } from '../orders/OrderParts.tsx';
import { blocksCheckout, SHIPPING_FEE, type LineProblemKind } from '../orders/pricing.ts';
import { isOffline, onReconnect } from '../pwa/connection.browser.ts';
import { enableNotifications, notificationsGranted } from '../pwa/notifications.browser.ts';
import { notify } from '../toast/notify.browser.ts';
import { $cartItems, removeFromCart, repriceCartLine, updateCartQuantity } from './cart-store.browser.ts';
import { cartSubtotal, lineKey, lineTitle, MAX_LINE_QUANTITY, type CartItem } from './cart.ts';
import './CartPage.css';
import { LastOrderNotice } from '../orders/LastOrderNotice.tsx';

/** A line's live state from the last check, and the price it had before if that changed. */
interface LineCheck {
  quoted?: QuotedLine;
  priceWas?: Kobo;
}

// The checkout (its steps and the form library) loads when the shopper heads for it, not with the cart.
const loadCheckout = () => import('../orders/CheckoutDialog.tsx');

/**
 * /cart: the lines kept in this browser, checked against D1's live prices and stock
 * whenever they change. A changed price is taken into the cart and shown; a line
 * that cannot be ordered as it stands is marked and holds back checkout.
 */
export default function CartPage() {
  const items = useStore($cartItems, { ssr: () => [] });
  const [hydrated, setHydrated] = useState(false);
  const [checks, setChecks] = useState<Map<string, LineCheck>>(new Map());
  const [checkFailed, setCheckFailed] = useState(false);
  const [checkoutOpen, setCheckoutOpen] = useState(false);
  const [Checkout, setCheckout] = useState<typeof CheckoutDialog | null>(null);
  const [recheck, setRecheck] = useState(0);
  /** Why the API refused to check the cart at all (a limit, too many requests), in its own words. */
  const [refusal, setRefusal] = useState<string | null>(null);
  /** This browser's unpaid order for exactly these lines: its items are held for the shopper, not sold out. */
  const [ownOrder, setOwnOrder] = useState<PlacedOrder | null>(null);

  useEffect(() => setHydrated(true), []);
  const offline = useOffline();
  const cartRef = useRef<HTMLDivElement>(null);
  /** Where focus goes once the cart has re-rendered after a removal or an undo. */
  const focusNext = useRef<FocusTarget | null>(null);
  // Runs after every render: a removal or undo asked for focus on what took the line's place.
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    placeFocus(cartRef.current, target);
  });

  /** Remove: the line goes, focus stays in the cart, and the toast offers Undo (the line back in its place). */
  const removeLine = (item: CartItem) => {
    const index = items.findIndex((i) => lineKey(i) === lineKey(item));
    focusNext.current = { removedAt: index };
    removeFromCart(item);
    notify('info', `${lineTitle(item)} removed from cart`, {
      action: {
        label: 'Undo',
        onClick: () => {
          focusNext.current = { line: lineKey(item) };
          restoreLine(item, index);
        },
      },
    });
  };
  // Back online: check prices and stock again (they may have changed meanwhile).
  useEffect(() => onReconnect(() => setRecheck((n) => n + 1)), []);

  const linesSignature = items.map((i) => `${lineKey(i)}×${i.quantity}@${i.price}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for the lines; recheck forces a new check
  useEffect(() => {
    if (!hydrated || items.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      quoteCart(items)
        .then((quote) => {
          if (!controller.signal.aborted) applyQuote(items, quote);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const refused = error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
          setCheckFailed(!refused);
          setRefusal(refused ? refusalText(error) : null);
        });
    }, 250);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [hydrated, linesSignature, recheck]);

  const linesKey = cartLinesKey(orderLinesFromCart(items));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the lines
  useEffect(() => {
    setOwnOrder(null);
    const placed = hydrated ? placedOrderForCart(linesKey) : undefined;
    if (!placed) return;
    let current = true;
    fetchOwnOrder(placed.number, placed.accessToken).then(
      (found) => {
        if (!current) return;
        if (found.order.status === 'awaiting_payment') setOwnOrder(found);
        // Paid for, reported, cancelled or expired: the next checkout is a new order.
        else finishCheckoutAttempt();
      },
      (error: unknown) => {
        if (current && error instanceof ApiRequestError && error.status === 404) finishCheckoutAttempt();
      },
    );
    return () => {
      current = false;
    };
  }, [hydrated, linesKey, recheck]);

  const applyQuote = (checked: readonly CartItem[], quote: CartQuote) => {
    setCheckFailed(false);
    setRefusal(null);
    setChecks((previous) => {
      const next = new Map<string, LineCheck>();
      quote.lines.forEach((quoted, index) => {
        const item = checked[index];
        if (!item) return;
        const key = lineKey(item);
        const before = previous.get(key)?.priceWas;
        const changed = quoted.problem?.kind === 'price_changed';
        next.set(key, { quoted, priceWas: changed ? item.price : before });
      });
      return next;
    });
    // Take live prices into the cart, so the summary is what the order will cost.
    quote.lines.forEach((quoted, index) => {
      const item = checked[index];
      if (item && quoted.problem?.kind === 'price_changed') repriceCartLine(item, quoted.unitPrice);
    });
  };

  const onCartOutdated = useCallback(() => setRecheck((n) => n + 1), []);

  const openCheckout = async () => {
    if (isOffline()) {
      notify('warning', NEEDS_CONNECTION);
      return;
    }
    try {
      const { default: Dialog } = await loadCheckout();
      setCheckout(() => Dialog);
      setCheckoutOpen(true);
    } catch {
      notify('error', 'We could not open the checkout. Check your connection and try again.');
    }
  };
  // Pointing at or tabbing to the button starts the download, so the click usually finds it ready.
  const prefetchCheckout = () => void loadCheckout().catch(() => undefined);

  if (!hydrated) {
    return (
      <div className="cart cart--loading" aria-busy="true">
        <p className="muted">Loading your cart…</p>
      </div>
    );
  }

  if (items.length === 0 && !checkoutOpen) {
    return (
      <>
        {/* The order just finished (the dialog closed itself and cleared the cart): its number and how to pay. */}
        <LastOrderNotice />
        <div className="cart cart--empty card" ref={cartRef}>
          <ShoppingBag size={48} aria-hidden="true" />
          {/* Focusable from script: where focus lands when the last line is removed. */}
          <h2 tabIndex={-1} data-cart-focus>
            Your cart is empty
          </h2>
          <p className="muted">Phones, laptops, TVs and consoles are waiting for you.</p>
          <a className="btn btn-primary" href="/products">
            Continue shopping
          </a>
        </div>
      </>
    );
  }

  // The shopper's own unpaid order holds these very lines: its reservation is theirs, not a shortage.
  const blocked = !ownOrder && (refusal !== null || items.some((i) => blocksCheckout(checks.get(lineKey(i))?.quoted?.problem)));
  const subtotal = cartSubtotal(items);

  return (
    <div className="cart" ref={cartRef}>
      <section className="cart__lines" aria-labelledby="cart-lines-title">
        {/* The lines' names are h3s under it (h1 'Your cart' → h2 → h3), like the summary's h2. */}
        <h2 id="cart-lines-title" className="visually-hidden">
          Items in your cart
        </h2>
        <ul>
          {items.map((item) => (
            <CartLine
              key={lineKey(item)}
              item={item}
              check={ownOrder ? undefined : checks.get(lineKey(item))}
              onRemove={removeLine}
            />
          ))}
        </ul>
      </section>
      <aside className="cart__summary card" aria-labelledby="order-summary-title">
        <h2 id="order-summary-title" tabIndex={-1} data-cart-focus>
          Order summary
        </h2>
        <OrderTotals subtotal={subtotal} shipping={SHIPPING_FEE} total={subtotal + SHIPPING_FEE} />
        {checkFailed && (
          <p className="muted cart__note">
            We could not check prices and stock just now. We will check them again when you place the order.
          </p>
        )}
        {refusal && !ownOrder && (
          <p className="cart__blocked" role="alert">
            {refusal}
          </p>
        )}
        {blocked && (
          <p className="cart__blocked" role="status">
            Some items cannot be ordered as they are. Change or remove them to check out.
          </p>
        )}
        {ownOrder && (
          <p className="cart__own-order" role="status">
            Your order <strong>{ownOrder.order.number}</strong> for these items is waiting for payment. We hold them for you until{' '}
            {formatLagosTime(ownOrder.order.expiresAt)}.
          </p>
        )}
        <button
          type="button"
          className="btn btn-primary btn-block"
          onClick={() => void openCheckout()}
          onPointerEnter={prefetchCheckout}
          onFocus={prefetchCheckout}
          disabled={blocked || offline}
        >
          {ownOrder ? 'Continue to payment' : 'Proceed to Checkout'}
        </button>
        {offline && (
          <p className="cart__note" role="status" data-needs-connection>
            {NEEDS_CONNECTION}
          </p>
        )}
        <p className="muted cart__note">Pay by bank transfer. We hold your items while you pay.</p>
        <CartReminders />
        <a href="/products">Continue shopping</a>
      </aside>
      {Checkout && (
        <Checkout
          open={checkoutOpen}
          items={items}
          resume={ownOrder}
          onClose={() => {
            setCheckoutOpen(false);
            setRecheck((n) => n + 1);
          }}
          onCartOutdated={onCartOutdated}
        />
      )}
    </div>
  );
}

function CartLine({ item, check, onRemove }: { item: CartItem; check?: LineCheck; onRemove: (item: CartItem) => void }) {
  const problem = check?.quoted?.problem;
  const available = check?.quoted?.available;
  const max = Math.min(MAX_LINE_QUANTITY, available ?? MAX_LINE_QUANTITY);
  const name = lineTitle(item);
  // aria-disabled, not disabled: a button that becomes disabled under the keyboard drops focus to the page.
  // '−' stops at 1 (Remove is the one way to delete a line, with Undo); '+' at what may be ordered.
  const atMin = item.quantity <= 1;
  const atMax = item.quantity >= max;
  return (
    <li className="cart-line card" data-line={lineKey(item)}>
      <img className="cart-line__image" src={item.image} alt="" width={96} height={96} />
      <div className="cart-line__info">
        <h3 className="cart-line__name">
          <a href={`/product/${item.id}`}>{item.name}</a>
        </h3>
        {(item.variantLabel || item.variant) && <p className="muted cart-line__variant">{item.variantLabel || item.variant}</p>}
        <p className="cart-line__price">{formatNaira(item.price)} each</p>
        {check?.priceWas !== undefined && check.priceWas !== item.price && (
          <p className="cart-line__notice" role="status">
            Price changed: was {formatNaira(check.priceWas)}, now {formatNaira(item.price)}
          </p>
        )}
        {problem && blocksCheckout(problem) && (
          <p className="cart-line__problem" role="status">
            {lineProblemText(problem.kind, available ?? 0)}
          </p>
        )}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset would need a visible legend; the group is named by aria-label */}
      <div className="cart-line__qty" role="group" aria-label={`Quantity of ${name}`}>
        <button
          type="button"
          className="icon-btn"
          aria-label={`Decrease quantity of ${name}`}
          aria-disabled={atMin}
          onClick={() => {
            if (!atMin) updateCartQuantity(item, item.quantity - 1);
          }}
        >
          <Minus size={16} aria-hidden="true" />
        </button>
        <output aria-live="polite" aria-label={`Quantity of ${name}`}>
          {item.quantity}
        </output>
        <button
          type="button"
          className="icon-btn"
          aria-label={`Increase quantity of ${name}`}
          aria-disabled={atMax}
          onClick={() => {
            if (!atMax) updateCartQuantity(item, item.quantity + 1);
          }}
        >
          <Plus size={16} aria-hidden="true" />
        </button>
      </div>
      {/* An <output>: the result of a calculation, and (unlike a <p>) it may carry a name. */}
      <output className="cart-line__subtotal" aria-label={`Subtotal for ${name}`}>
        {formatNaira(item.price * item.quantity)}
      </output>
      <button
        type="button"
        className="btn btn-outline cart-line__remove"
        data-remove
        onClick={() => onRemove(item)}
        aria-label={`Remove ${name}`}
      >
        <Trash2 size={16} aria-hidden="true" /> Remove
      </button>
    </li>
  );
}

/** After a removal: the line now at its index (or the one before); after an undo: the restored line. */
type FocusTarget = { removedAt: number } | { line: string };

/**
 * Focus stays in the cart: on the Remove button of the line that took the removed one's
 * place, else of the line before it; with no lines left, on the cart's heading. After an
 * undo, on the restored line's Remove.
 */
function placeFocus(cart: HTMLElement | null, target: FocusTarget) {
  if (!cart) return;
  const lines = [...cart.querySelectorAll<HTMLElement>('[data-line]')];
  const line =
    'line' in target
      ? lines.find((l) => l.dataset.line === target.line)
      : (lines[target.removedAt] ?? lines[target.removedAt - 1]);
  const focusable = line?.querySelector<HTMLElement>('[data-remove]') ?? cart.querySelector<HTMLElement>('[data-cart-focus]');
  focusable?.focus();
}

/**
 * Undo of a removal: the line back at its index with its quantity. A line that is back
 * already (added again meanwhile, in this tab or another) is left as it is.
 */
function restoreLine(item: CartItem, index: number) {
  const items = $cartItems.get();
  if (items.some((i) => lineKey(i) === lineKey(item))) return;
  $cartItems.set([...items.slice(0, index), item, ...items.slice(index)]);
}

const NEEDS_CONNECTION =
  'You are offline. Checkout needs a connection: your cart stays on this device until you are back online.';

/** Whether the browser says it is offline, following the online/offline events. */
function useOffline(): boolean {
  const [offline, setOffline] = useState(isOffline);
  useEffect(() => {
    const update = () => setOffline(isOffline());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return offline;
}

/** 'Remind me about my cart': asks for notification permission on this click, never on load. */
function CartReminders() {
  const [state, setState] = useState<NotificationPermission | 'unsupported'>(() =>
    typeof Notification === 'undefined' ? 'unsupported' : notificationsGranted() ? 'granted' : Notification.permission,
  );
  if (state === 'unsupported') return null;
  if (state === 'granted') {
    return <p className="muted cart__note">We will remind you about your cart every 2 hours while it has items.</p>;
  }
  if (state === 'denied') return <p className="muted cart__note">Cart reminders are blocked in this browser's settings.</p>;
  return (
    <button type="button" className="btn btn-outline btn-block" onClick={() => void enableNotifications().then(setState)}>
      Remind me about my cart
    </button>
  );
}

/** The API's reason for refusing the check, field messages first (e.g. 'You can order at most 5 of one product'). */
function refusalText(error: ApiRequestError): string {
  const reasons = [...new Set(error.issues.map((i) => i.message))];
  return reasons.length ? reasons.join(' ') : error.message;
}

function lineProblemText(kind: LineProblemKind, available: number): string {
  if (kind === 'insufficient_stock') {
    return available === 0 ? 'Sold out. Remove it to check out.' : `Only ${available} left. Lower the quantity to check out.`;
  }
  return 'No longer available. Remove it to check out.';
}
