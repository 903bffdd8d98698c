import type { Product } from '../catalogue/product.ts';
import { notify } from '../toast/notify.browser.ts';
import { addToCart } from './cart-store.browser.ts';

/** Puts a product in the cart and says so with the spec's toast: '{name} added to cart'. */
export function addProductToCart(product: Product, variant = product.variants[0] ?? '', quantity = 1) {
  addToCart({ id: product.id, name: product.name, price: product.price, image: product.image, variant }, quantity);
  notify('success', `${product.name} added to cart`);
}
