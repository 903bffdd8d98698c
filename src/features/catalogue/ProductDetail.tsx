import { Minus, Plus, ShoppingCart } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatNaira } from '../../lib/money.ts';
import { addProductToCart } from '../cart/add-to-cart.browser.ts';
import { MAX_LINE_QUANTITY } from '../cart/cart.ts';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { onReconnect } from '../pwa/connection.browser.ts';
import { fetchProduct } from './api-client.browser.ts';
import { categoryLabel } from './categories.ts';
import { findVariant, type Product, sellingUnit } from './product.ts';
import { initialVariant, parseQuantity, stockText } from './product-choice.ts';
import { Rating } from './Rating.tsx';
import './ProductDetail.css';
import { ProductNotFound } from './ProductNotFound.tsx';

interface Props {
  /** The product as built; null on the page served for products added after the build. */
  product: Product | null;
}

type Status = 'ready' | 'loading' | 'not-found' | 'error';

/**
 * The product page's body. Pre-rendered from the catalogue, then refreshed from the
 * API so price, stock and existence are D1's (an admin's change shows without a rebuild).
 *
 * The buy form is a real form (POST /cart/add): a tap before this island is ready, or
 * without JavaScript, still puts the item in the cart. product-page.browser.ts keeps the
 * price in step with the variant chosen before hydration and records the choice on the
 * form (data-variant, data-quantity), which this island takes over when it mounts.
 */
export default function ProductDetail({ product: built }: Props) {
  const [product, setProduct] = useState<Product | null>(built);
  const [status, setStatus] = useState<Status>(built ? 'ready' : 'loading');
  const [variantId, setVariantId] = useState(built ? initialVariant(built, null) : '');
  const [quantityText, setQuantityText] = useState('1');
  const [quantityNote, setQuantityNote] = useState('');
  const form = useRef<HTMLFormElement>(null);
  // Fetched again when the connection comes back (prices may have changed while offline).
  const [freshness, setFreshness] = useState(0);
  useEffect(() => onReconnect(() => setFreshness((n) => n + 1)), []);

  // What the shopper chose before the island was ready (or the shared link's ?variant=).
  useLayoutEffect(() => {
    const pending = form.current?.dataset;
    const requested = pending?.variant ?? new URLSearchParams(window.location.search).get('variant');
    if (built) setVariantId(initialVariant(built, requested));
    if (pending?.quantity) setQuantityText(pending.quantity);
    form.current?.setAttribute('data-hydrated', '');
  }, [built]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `freshness` only asks for a new fetch
  useEffect(() => {
    const id = built?.id ?? decodeURIComponent(window.location.pathname.split('/').filter(Boolean)[1] ?? '');
    const controller = new AbortController();
    fetchProduct(id, controller.signal)
      .then((fresh) => {
        setProduct(fresh);
        setVariantId((v) => initialVariant(fresh, v || new URLSearchParams(window.location.search).get('variant')));
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiRequestError && error.status === 404) {
          setProduct(null);
          setStatus('not-found');
        } else if (!built) {
          setStatus('error');
        }
      });
    return () => controller.abort();
  }, [built, freshness]);

  if (status === 'not-found') {
    return <ProductNotFound />;
  }
  if (status === 'error') {
    return (
      <p className="field-error" role="alert">
        We could not load this product. Check your connection and reload the page.
      </p>
    );
  }
  if (!product) {
    return (
      <div className="detail detail--loading" aria-busy="true">
        <p className="muted">Loading product…</p>
      </div>
    );
  }

  const variant = findVariant(product, variantId);
  const unit = sellingUnit(product, variantId) ?? { price: product.price, stock: 0, image: product.image };
  const canBuy = unit.stock > 0;
  const maxQuantity = Math.max(1, Math.min(unit.stock, MAX_LINE_QUANTITY));

  const chooseVariant = (id: string) => {
    setVariantId(id);
    const url = new URL(window.location.href);
    url.searchParams.set('variant', id);
    // Shareable: the address names the variant on screen (replaced, not pushed: Back leaves the product).
    window.history.replaceState(window.history.state, '', url);
  };
  /** The typed quantity as a whole number within what can be bought; says so when it had to change it. */
  const settleQuantity = (text = quantityText): number => {
    const { quantity, note } = parseQuantity(text, maxQuantity);
    setQuantityText(String(quantity));
    setQuantityNote(note);
    return quantity;
  };

  return (
    <div className="detail">
      <div className="detail__image card">
        <img src={unit.image} alt={product.name} width={400} height={400} fetchPriority="high" />
      </div>
      <div className="detail__info">
        <p className="muted">
          <a href={`/products?brand=${encodeURIComponent(product.brand)}`}>{product.brand}</a> ·{' '}
          <a href={`/products?category=${product.category}`}>{categoryLabel(product.category)}</a>
        </p>
        <h1>{product.name}</h1>
        <Rating rating={product.rating} reviews={product.reviews} fromStore={product.storeReviews} />
        <p className="detail__price price" data-testid="product-price" data-price suppressHydrationWarning>
          {formatNaira(unit.price)}
        </p>
        <p aria-live="polite" data-stock suppressHydrationWarning>
          <span className={canBuy ? (unit.stock <= 5 ? 'stock-low' : 'muted') : 'stock-out'}>{stockText(unit.stock)}</span>
        </p>
        <p>{product.description}</p>
        <form
          ref={form}
          className="detail__buy"
          method="post"
          action="/cart/add"
          data-product-form
          onSubmit={(e) => {
            e.preventDefault();
            if (!canBuy) return;
            addProductToCart(product, variantId, settleQuantity());
          }}
        >
          <input type="hidden" name="product" value={product.id} />
          {product.variants.length > 0 ? (
            <div className="field">
              <label htmlFor="variant">{product.variantLabel || 'Option'}</label>
              <select
                id="variant"
                name="variant"
                className="input"
                value={variantId}
                onChange={(e) => chooseVariant(e.target.value)}
              >
                {product.variants.map((v) => (
                  <option
                    key={v.id}
                    value={v.id}
                    data-price={formatNaira(v.price)}
                    data-stock={v.stock}
                    data-stock-text={stockText(v.stock)}
                  >
                    {v.inStock ? v.label : `${v.label} (sold out)`}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <input type="hidden" name="variant" value="" />
          )}
          {canBuy ? (
            <div className="field">
              <label htmlFor="quantity">Quantity</label>
              <div className="qty">
                <button
                  type="button"
                  className="icon-btn"
                  aria-label="Decrease quantity"
                  onClick={() => settleQuantity(String(Number.parseInt(quantityText, 10) - 1))}
                  disabled={Number.parseInt(quantityText, 10) <= 1}
                >
                  <Minus size={18} aria-hidden="true" />
                </button>
                <input
                  id="quantity"
                  name="quantity"
                  className="input"
                  type="text"
                  inputMode="numeric"
                  pattern="[0-9]*"
                  autoComplete="off"
                  aria-describedby="quantity-note"
                  value={quantityText}
                  onChange={(e) => {
                    setQuantityText(e.target.value);
                    setQuantityNote('');
                  }}
                  onBlur={() => settleQuantity()}
                />
                <button
                  type="button"
                  className="icon-btn"
                  aria-label="Increase quantity"
                  onClick={() => settleQuantity(String((Number.parseInt(quantityText, 10) || 0) + 1))}
                  disabled={Number.parseInt(quantityText, 10) >= maxQuantity}
                >
                  <Plus size={18} aria-hidden="true" />
                </button>
              </div>
              <small id="quantity-note" className="muted" aria-live="polite">
                {quantityNote || `Up to ${maxQuantity} per order`}
              </small>
            </div>
          ) : (
            <input type="hidden" name="quantity" value="1" />
          )}
          <div className="detail__cta">
            <span className="detail__cta-price price" aria-hidden="true" suppressHydrationWarning>
              {formatNaira(unit.price)}
            </span>
            <button type="submit" className="btn btn-primary btn-block" disabled={!canBuy}>
              <ShoppingCart size={18} aria-hidden="true" /> {canBuy ? 'Add to Cart' : 'Out of stock'}
              {variant && <span className="visually-hidden">: {variant.label}</span>}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
