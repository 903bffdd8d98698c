import { notifyAdded } from './added-toast.browser.ts';
import { cartItemSchema, lineTitle, MAX_LINE_QUANTITY } from './cart.ts';
import { addToCart } from './cart-store.browser.ts';

/**
 * Add to Cart on any product card rendered as HTML, on every page (BaseLayout's frame script;
 * today the home page's featured shelf and the listing): each card's form says what it adds
 * (`data-cart-add`, written by ProductCard), and this script adds that to the cart kept in this
 * browser with the same toast as the islands ('{name} added to cart'). Forms inside a React island are the island's. If the form's data
 * cannot be read, the form posts to /cart/add as it does without JavaScript (the server checks
 * and keeps the line in a cookie the cart takes in).
 */
/** Listens for the cards' Add to Cart on the whole page (cards added later included). */
export function startAddForms() {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.cartAdd || form.closest('astro-island')) return;
    let data: unknown;
    try {
      data = JSON.parse(form.dataset.cartAdd);
    } catch {
      return;
    }
    const item = cartItemSchema.safeParse({ ...(data as object), variant: '', variantLabel: '', quantity: 1 });
    if (!item.success) return;
    event.preventDefault();
    const { quantity, ...line } = item.data;
    // A card does not say its stock: the line is held to the most any order may take, and the cart
    // says if fewer are left.
    notifyAdded(lineTitle(line), quantity, addToCart(line, quantity), MAX_LINE_QUANTITY);
  });
}
