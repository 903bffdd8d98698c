import { ShoppingCart } from 'lucide-react';
import { formatNaira } from '../../lib/money.ts';
import { hasPriceRange, priceRange, type Product } from './product.ts';
import { Rating } from './Rating.tsx';
import './ProductCard.css';

interface Props {
  product: Product;
  /** The first cards on a page load eagerly and first: they are the largest paint. */
  eager?: boolean;
  /** An id for the card, so a link can point at it (the listing's "Load More" without JavaScript). */
  anchor?: string;
}

/**
 * A product in a list (the listing, the home page's shelf), rendered to HTML. "Add to Cart" is a
 * form posting to /cart/add, so it works before the page's scripts run and without JavaScript
 * (the Worker keeps the line in a cookie the cart takes in); with them, cart/add-forms.browser.ts
 * adds to the cart kept in this browser instead. A product with variants has "Choose options"
 * instead: the shopper picks one on its page.
 */
export function ProductCard({ product, eager = false, anchor }: Props) {
  const href = `/product/${product.id}`;
  return (
    <article className="card product-card" data-product-id={product.id} id={anchor}>
      {/* biome-ignore lint/a11y/useAnchorContent: a second, pointer-only link to the same page (the name is the accessible one) */}
      <a href={href} className="product-card__image" tabIndex={-1} aria-hidden="true">
        <img
          src={product.image}
          alt=""
          width={400}
          height={400}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : undefined}
          decoding="async"
        />
      </a>
      <div className="product-card__body">
        <small className="muted">{product.brand}</small>
        <h3 className="product-card__name">
          <a href={href}>{product.name}</a>
        </h3>
        <p className="product-card__desc">{product.description}</p>
        <Rating rating={product.rating} reviews={product.reviews} />
        <div className="product-card__foot">
          <span className="price">
            {hasPriceRange(product) ? (
              <>
                <span className="price__from">from </span>
                {formatNaira(priceRange(product).from)}
              </>
            ) : (
              formatNaira(product.price)
            )}
          </span>
          <CartAction product={product} href={href} />
        </div>
      </div>
    </article>
  );
}

function CartAction({ product, href }: { product: Product; href: string }) {
  if (!product.inStock) {
    return (
      <button type="button" className="btn btn-primary" disabled aria-label={`Sold out: ${product.name}`}>
        <ShoppingCart size={18} aria-hidden="true" />
        Sold out
      </button>
    );
  }
  if (product.variants.length > 0) {
    return (
      <a className="btn btn-outline" href={href} aria-label={`Choose options: ${product.name}`}>
        Choose options
      </a>
    );
  }
  return (
    <form
      className="product-card__add"
      method="post"
      action="/cart/add"
      // What the card adds to the cart kept in this browser: cart/add-forms.browser.ts reads it.
      data-cart-add={JSON.stringify({ id: product.id, name: product.name, price: product.price, image: product.image })}
    >
      <input type="hidden" name="product" value={product.id} />
      <input type="hidden" name="variant" value="" />
      <input type="hidden" name="quantity" value="1" />
      <button type="submit" className="btn btn-primary" aria-label={`Add to Cart: ${product.name}`}>
        <ShoppingCart size={18} aria-hidden="true" />
        Add to Cart
      </button>
    </form>
  );
}
