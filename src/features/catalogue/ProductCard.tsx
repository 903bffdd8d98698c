import { ShoppingCart } from 'lucide-react';
import { formatNaira } from '../../lib/money.ts';
import { addProductToCart } from '../cart/add-to-cart.browser.ts';
import type { Product } from './product.ts';
import { Rating } from './Rating.tsx';

interface Props {
  product: Product;
  /** The first cards on a page load eagerly: they are the largest paint. */
  eager?: boolean;
}

export function ProductCard({ product, eager = false }: Props) {
  const href = `/product/${product.id}`;
  return (
    <article className="card product-card" data-product-id={product.id}>
      {/* biome-ignore lint/a11y/useAnchorContent: a second, pointer-only link to the same page (the name is the accessible one) */}
      <a href={href} className="product-card__image" tabIndex={-1} aria-hidden="true">
        <img src={product.image} alt="" width={400} height={400} loading={eager ? 'eager' : 'lazy'} decoding="async" />
      </a>
      <div className="product-card__body">
        <small className="muted">{product.brand}</small>
        <h3 className="product-card__name">
          <a href={href}>{product.name}</a>
        </h3>
        <p className="product-card__desc">{product.description}</p>
        <Rating rating={product.rating} reviews={product.reviews} />
        <div className="product-card__foot">
          <span className="price">{formatNaira(product.price)}</span>
          <button type="button" className="btn btn-primary" onClick={() => addProductToCart(product)} disabled={!product.inStock}>
            <ShoppingCart size={18} aria-hidden="true" />
            {product.inStock ? 'Add to Cart' : 'Sold out'}
            <span className="visually-hidden">: {product.name}</span>
          </button>
        </div>
      </div>
    </article>
  );
}
