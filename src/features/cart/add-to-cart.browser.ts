import { findVariant, type ProductSale, sellingUnit } from '../catalogue/product-choice.ts';
import { notify } from '../toast/notify.browser.ts';
import { lineTitle } from './cart.ts';
import { addToCart } from './cart-store.browser.ts';

/**
 * Puts a product (in the chosen variant, the first when none is named) in the cart at the
 * price the shopper sees, and says so with the spec's toast: '{name} added to cart'.
 * The server prices the order itself; this price is only compared with it.
 */
export function addProductToCart(
  product: Pick<ProductSale, 'id' | 'name' | 'price' | 'stock' | 'image' | 'variants'>,
  variant = product.variants[0]?.id ?? '',
  quantity = 1,
) {
  const unit = sellingUnit(product, variant);
  if (!unit) return;
  const item = {
    id: product.id,
    name: product.name,
    price: unit.price,
    image: unit.image,
    variant,
    variantLabel: findVariant(product, variant)?.label ?? '',
  };
  addToCart(item, quantity);
  notify('success', `${lineTitle(item)} added to cart`);
}
