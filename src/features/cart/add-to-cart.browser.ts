import { findVariant, type ProductSale, sellingUnit } from '../catalogue/product-choice.ts';
import { lineTitle, mostPerOrder } from './cart.ts';
import { notifyAdded } from './added-toast.browser.ts';
import { addToCart } from './cart-store.browser.ts';

/**
 * Puts a product (in the chosen variant, the first when none is named) in the cart at the
 * price the shopper sees, up to what one order may take of it (the page's "Up to N per order"),
 * and says so with the spec's toast: '{name} added to cart', or why fewer were added.
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
  const most = mostPerOrder(unit.stock);
  notifyAdded(lineTitle(item), quantity, addToCart(item, quantity, most), most);
}
