import { useStore } from '@nanostores/react';
import { Minus, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { formatNaira, type Kobo } from '../../lib/money.ts';
import { ApiRequestError } from '../../lib/api-client.ts';
import { quoteCart, type CartQuote, type QuotedLine } from '../orders/api-client.ts';
import CheckoutDialog from '../orders/CheckoutDialog.tsx';
import { OrderTotals } from '../orders/OrderParts.tsx';
import { SHIPPING_FEE } from '../orders/pricing.ts';
import { $cartItems, removeFromCart, repriceCartLine, updateCartQuantity } from './cart-store.ts';
import { cartSubtotal, lineKey, MAX_LINE_QUANTITY, type CartItem } from './cart.ts';
import './CartPage.css';

/** A line's live state from the last check, and the price it had before if that changed. */
interface LineCheck {
  quoted?: QuotedLine;
  priceWas?: Kobo;
}

const BLOCKING = new Set(['unavailable', 'unknown_variant', 'insufficient_stock']);

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
  const [recheck, setRecheck] = useState(0);

  useEffect(() => setHydrated(true), []);

  const linesSignature = items.map((i) => `${lineKey(i)}×${i.quantity}@${i.price}`).join('|');
  useEffect(() => {
    if (!hydrated || items.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      quoteCart(items)
        .then((quote) => {
          if (!controller.signal.aborted) applyQuote(items, quote);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setCheckFailed(!(error instanceof ApiRequestError && error.status === 400));
        });
    }, 250);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the signature stands for the lines
  }, [hydrated, linesSignature, recheck]);

  const applyQuote = (checked: readonly CartItem[], quote: CartQuote) => {
    setCheckFailed(false);
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

  if (!hydrated) {
    return <div className="cart cart--loading" aria-busy="true"><p className="muted">Loading your cart…</p></div>;
  }

  if (items.length === 0 && !checkoutOpen) {
    return (
      <div className="cart cart--empty card">
        <ShoppingBag size={48} aria-hidden="true" />
        <h2>Your cart is empty</h2>
        <p className="muted">Phones, laptops, TVs and consoles are waiting for you.</p>
        <a className="btn btn-primary" href="/products">Continue shopping</a>
      </div>
    );
  }

  const blocked = items.some((i) => {
    const kind = checks.get(lineKey(i))?.quoted?.problem?.kind;
    return kind !== undefined && BLOCKING.has(kind);
  });
  const subtotal = cartSubtotal(items);

  return (
    <div className="cart">
      <section className="cart__lines" aria-label="Items in your cart">
        <ul>
          {items.map((item) => (
            <CartLine key={lineKey(item)} item={item} check={checks.get(lineKey(item))} />
          ))}
        </ul>
      </section>
      <aside className="cart__summary card" aria-labelledby="order-summary-title">
        <h2 id="order-summary-title">Order summary</h2>
        <OrderTotals subtotal={subtotal} shipping={SHIPPING_FEE} total={subtotal + SHIPPING_FEE} />
        {checkFailed && (
          <p className="muted cart__note">We could not check prices and stock just now. We will check them again when you place the order.</p>
        )}
        {blocked && (
          <p className="cart__blocked" role="status">Some items cannot be ordered as they are. Change or remove them to check out.</p>
        )}
        <button type="button" className="btn btn-primary btn-block" onClick={() => setCheckoutOpen(true)} disabled={blocked}>
          Proceed to Checkout
        </button>
        <p className="muted cart__note">Pay by bank transfer. We hold your items while you pay.</p>
        <a href="/products">Continue shopping</a>
      </aside>
      <CheckoutDialog open={checkoutOpen} items={items} onClose={() => setCheckoutOpen(false)} onCartOutdated={onCartOutdated} />
    </div>
  );
}

function CartLine({ item, check }: { item: CartItem; check?: LineCheck }) {
  const problem = check?.quoted?.problem;
  const available = check?.quoted?.available;
  const max = Math.min(MAX_LINE_QUANTITY, available ?? MAX_LINE_QUANTITY);
  const name = item.variant ? `${item.name} (${item.variant})` : item.name;
  return (
    <li className="cart-line card" data-line={lineKey(item)}>
      <img className="cart-line__image" src={item.image} alt="" width={96} height={96} />
      <div className="cart-line__info">
        <h3 className="cart-line__name"><a href={`/product/${item.id}`}>{item.name}</a></h3>
        {item.variant && <p className="muted cart-line__variant">{item.variant}</p>}
        <p className="cart-line__price">{formatNaira(item.price)} each</p>
        {check?.priceWas !== undefined && check.priceWas !== item.price && (
          <p className="cart-line__notice" role="status">
            Price changed: was {formatNaira(check.priceWas)}, now {formatNaira(item.price)}
          </p>
        )}
        {problem && problem.kind !== 'price_changed' && (
          <p className="cart-line__problem" role="status">{lineProblemText(problem.kind, available ?? 0)}</p>
        )}
      </div>
      <div className="cart-line__qty" role="group" aria-label={`Quantity of ${name}`}>
        <button type="button" className="icon-btn" aria-label={`Decrease quantity of ${name}`} onClick={() => updateCartQuantity(item, item.quantity - 1)}>
          <Minus size={16} aria-hidden="true" />
        </button>
        <output aria-live="polite" aria-label={`Quantity of ${name}`}>{item.quantity}</output>
        <button
          type="button"
          className="icon-btn"
          aria-label={`Increase quantity of ${name}`}
          onClick={() => updateCartQuantity(item, item.quantity + 1)}
          disabled={item.quantity >= max}
        >
          <Plus size={16} aria-hidden="true" />
        </button>
      </div>
      <p className="cart-line__subtotal" aria-label={`Subtotal for ${name}`}>{formatNaira(item.price * item.quantity)}</p>
      <button type="button" className="btn btn-outline cart-line__remove" onClick={() => removeFromCart(item)} aria-label={`Remove ${name}`}>
        <Trash2 size={16} aria-hidden="true" /> Remove
      </button>
    </li>
  );
}

function lineProblemText(kind: string, available: number): string {
  if (kind === 'insufficient_stock') {
    return available === 0 ? 'Sold out. Remove it to check out.' : `Only ${available} left. Lower the quantity to check out.`;
  }
  return 'No longer available. Remove it to check out.';
}
