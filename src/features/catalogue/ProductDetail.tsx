import { Minus, Plus, ShoppingCart } from 'lucide-react';
import { formatNaira } from '../../lib/money.ts';
import { categoryLabel } from './categories.ts';
import type { Product } from './product.ts';
import {
  addButtonName,
  findVariant,
  initialVariant,
  productSale,
  sellingUnit,
  stockClass,
  perOrderText,
  stockText,
  variantOptionText,
} from './product-choice.ts';
import { Rating } from './Rating.tsx';
import './ProductDetail.css';

interface Props {
  product: Product;
}

/**
 * The product page's body, rendered to HTML (at build, or by the Worker from D1 when D1 differs
 * from the build: docs/decisions/025-one-catalogue-truth.md). Not an island: the buy form is a real
 * form (POST /cart/add) that works without JavaScript, and product-page.browser.ts, a plain script,
 * makes it answer in place (docs/decisions/004-plain-scripts.md): the variant menu changes price,
 * stock and picture, the quantity box keeps to what can be bought, and Add to Cart adds to the
 * cart kept in this browser. The form carries what the script needs in `data-sale`.
 */
export default function ProductDetail({ product }: Props) {
  const variantId = initialVariant(product, null);
  const variant = findVariant(product, variantId);
  const unit = sellingUnit(product, variantId) ?? { price: product.price, stock: 0, image: product.image };
  const canBuy = unit.stock > 0;
  const sale = productSale(product);

  return (
    <div className="detail">
      <div className="detail__image card">
        <img src={unit.image} alt={product.name} width={400} height={400} fetchPriority="high" data-unit-image />
      </div>
      <div className="detail__info">
        <p className="muted">
          <a href={`/products?brand=${encodeURIComponent(product.brand)}`}>{product.brand}</a> ·{' '}
          <a href={`/products?category=${product.category}`}>{categoryLabel(product.category)}</a>
        </p>
        <h1>{product.name}</h1>
        <Rating rating={product.rating} reviews={product.reviews} fromStore={product.storeReviews ?? 0} />
        <p className="detail__price price" data-testid="product-price" data-unit-price>
          {formatNaira(unit.price)}
        </p>
        <p aria-live="polite" data-stock>
          <span className={stockClass(unit.stock)}>{stockText(unit.stock)}</span>
        </p>
        <p>{product.description}</p>
        <form className="detail__buy" method="post" action="/cart/add" data-product-form data-sale={JSON.stringify(sale)}>
          <input type="hidden" name="product" value={product.id} />
          {product.variants.length > 0 ? (
            <div className="field">
              <label htmlFor="variant">{product.variantLabel || 'Option'}</label>
              <select id="variant" name="variant" className="input" defaultValue={variantId}>
                {sale.variants.map((v) => (
                  <option key={v.id} value={v.id}>
                    {variantOptionText(sale, v)}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <input type="hidden" name="variant" value="" />
          )}
          <div className="field" data-quantity-field hidden={!canBuy}>
            <label htmlFor="quantity">Quantity</label>
            <div className="qty">
              <button type="button" className="icon-btn" aria-label="Decrease quantity" data-step="-1" disabled>
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
                defaultValue="1"
              />
              {/* Both start disabled: they step the box only once the page's script runs (without it, the box is typed in). */}
              <button type="button" className="icon-btn" aria-label="Increase quantity" data-step="1" disabled>
                <Plus size={18} aria-hidden="true" />
              </button>
            </div>
            <small id="quantity-note" className="muted" aria-live="polite">
              {perOrderText(unit.stock)}
            </small>
          </div>
          <div className="detail__cta">
            <span className="detail__cta-price price" aria-hidden="true" data-unit-price>
              {formatNaira(unit.price)}
            </span>
            <button
              type="submit"
              className="btn btn-primary btn-block"
              disabled={!canBuy}
              aria-label={addButtonName(product.name, variant?.label, canBuy)}
            >
              <ShoppingCart size={18} aria-hidden="true" /> <span data-add-label>{canBuy ? 'Add to Cart' : 'Out of stock'}</span>
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
