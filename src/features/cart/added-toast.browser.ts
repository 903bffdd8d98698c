import { notify } from '../toast/notify.browser.ts';

/**
 * The toast for an Add to Cart: the spec's '{name} added to cart', or, when the line already held
 * (or now holds) the most one order may take, what was added and why no more.
 */
export function notifyAdded(title: string, asked: number, added: number, most: number) {
  const limit = `the most one order can take is ${most}`;
  if (added === asked) notify('success', `${title} added to cart`);
  else if (added > 0) notify('warning', `${added} × ${title} added to cart: ${limit}`);
  else notify('warning', `${title} is already in your cart ${most === 1 ? 'once' : `${most} times`}: ${limit}`);
}
