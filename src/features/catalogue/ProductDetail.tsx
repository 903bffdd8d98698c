import { Minus, Plus, ShoppingCart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatNaira } from '../../lib/money.ts';
import { addProductToCart } from '../cart/add-to-cart.browser.ts';
import { MAX_LINE_QUANTITY } from '../cart/cart.ts';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { onReconnect } from '../pwa/connection.browser.ts';
import { fetchProduct } from './api-client.browser.ts';
import { categoryLabel } from './categories.ts';
import type { Product } from './product.ts';
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
 */
export default function ProductDetail({ product: built }: Props) {
  const [product, setProduct] = useState<Product | null>(built);
  const [status, setStatus] = useState<Status>(built ? 'ready' : 'loading');
  const [variant, setVariant] = useState(built?.variants[0] ?? '');
  const [quantity, setQuantity] = useState(1);
  // Fetched again when the connection comes back (prices may have changed while offline).
  const [freshness, setFreshness] = useState(0);
  useEffect(() => onReconnect(() => setFreshness((n) => n + 1)), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `freshness` only asks for a new fetch
  useEffect(() => {
    const id = built?.id ?? decodeURIComponent(window.location.pathname.split('/').filter(Boolean)[1] ?? '');
    const controller = new AbortController();
    fetchProduct(id, controller.signal)
      .then((fresh) => {
        setProduct(fresh);
        setVariant((v) => (fresh.variants.includes(v) ? v : (fresh.variants[0] ?? '')));
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

  const maxQuantity = Math.max(1, Math.min(product.stock, MAX_LINE_QUANTITY));
  const setClamped = (n: number) => setQuantity(Math.min(maxQuantity, Math.max(1, Math.floor(n) || 1)));

  return (
    <div className="detail">
      <div className="detail__image card">
        <img src={product.image} alt={product.name} width={400} height={400} fetchPriority="high" />
      </div>
      <div className="detail__info">
        <p className="muted">
          <a href={`/products?brand=${encodeURIComponent(product.brand)}`}>{product.brand}</a> ·{' '}
          <a href={`/products?category=${product.category}`}>{categoryLabel(product.category)}</a>
        </p>
        <h1>{product.name}</h1>
        <Rating rating={product.rating} reviews={product.reviews} />
        <p className="detail__price price" data-testid="product-price">
          {formatNaira(product.price)}
        </p>
        <p aria-live="polite">
          {!product.inStock ? (
            <span className="stock-out">Out of stock</span>
          ) : product.stock <= 5 ? (
            <span className="stock-low">Only {product.stock} left in stock</span>
          ) : (
            <span className="muted">In stock</span>
          )}
        </p>
        <p>{product.description}</p>
        <form
          className="detail__buy"
          onSubmit={(e) => {
            e.preventDefault();
            addProductToCart(product, variant, quantity);
          }}
        >
          {product.variants.length > 0 && (
            <div className="field">
              <label htmlFor="variant">Option</label>
              <select id="variant" className="input" value={variant} onChange={(e) => setVariant(e.target.value)}>
                {product.variants.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor="quantity">Quantity</label>
            <div className="qty">
              <button
                type="button"
                className="icon-btn"
                aria-label="Decrease quantity"
                onClick={() => setClamped(quantity - 1)}
                disabled={quantity <= 1}
              >
                <Minus size={18} aria-hidden="true" />
              </button>
              <input
                id="quantity"
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                max={maxQuantity}
                value={quantity}
                onChange={(e) => setClamped(Number(e.target.value))}
              />
              <button
                type="button"
                className="icon-btn"
                aria-label="Increase quantity"
                onClick={() => setClamped(quantity + 1)}
                disabled={quantity >= maxQuantity}
              >
                <Plus size={18} aria-hidden="true" />
              </button>
            </div>
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={!product.inStock}>
            <ShoppingCart size={18} aria-hidden="true" /> {product.inStock ? 'Add to Cart' : 'Out of stock'}
          </button>
        </form>
      </div>
    </div>
  );
}
