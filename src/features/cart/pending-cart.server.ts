import { env } from 'cloudflare:workers';
import { isCrossSite, readSmallForm } from '../../lib/form-post.server.ts';
import { openDb } from '../../../functions/platform/db.ts';
import { findActiveProduct } from '../../../functions/catalogue/products.ts';
import { findVariant, isProductId, PRODUCT_ID_PATTERN, type Product, sellingUnit } from '../catalogue/product.ts';
import { lineTitle, MAX_LINE_QUANTITY } from './cart.ts';
import {
  decodePendingCart,
  encodePendingCart,
  PENDING_CART_COOKIE,
  PENDING_CART_MAX_BYTES,
  PENDING_CART_MAX_LINES,
  type PendingLine,
  pendingCartSetCookie,
  readCookie,
} from './pending-cart.ts';

/**
 * POST /cart/add (src/pages/cart/add.astro) and the lines /cart shows without JavaScript:
 * a product card's or product page's Add to Cart form, checked against D1 and kept in the
 * `gts_cart_add` cookie (pending-cart.ts) until the cart store takes the lines in.
 */

export type CartAddOutcome =
  | { ok: true; location: string; setCookie: string; line: PendingLine }
  | {
      ok: false;
      /** 403 cross-site, 400 a form we cannot read, 404 no such product or option, 409 cannot be added as asked. */
      status: 400 | 403 | 404 | 409;
      title: string;
      message: string;
      /** The product's page, when the shopper can do something there (choose an option, fewer units). */
      productHref?: string;
    };

/** The largest form the endpoint reads (its fields are a few dozen bytes). */
const MAX_FORM_BYTES = 4_096;

/** Where to go after adding: a path on this site, or /cart. */
export function returnPath(value: unknown): string {
  if (typeof value !== 'string') return '/cart';
  // A path of this site only: printable ASCII without spaces or backslashes (browsers read /\host as //host), not //host.
  const path = /^\/[!-[\]-~]*$/.test(value) && !value.startsWith('//') && value.length <= 500;
  return path ? value : '/cart';
}

const refuse = (status: 400 | 403 | 404 | 409, title: string, message: string, productHref?: string): CartAddOutcome => ({
  ok: false,
  status,
  title,
  message,
  productHref,
});

/** Checks an Add to Cart form against D1 and, when it can be added, the cookie with the line merged in. */
export async function addToPendingCart(request: Request, d1: D1Database = env.DB): Promise<CartAddOutcome> {
  if (isCrossSite(request)) {
    return refuse(403, 'Not added', 'This form was sent from another site, so nothing was added to your cart.');
  }
  const form = await readSmallForm(request, MAX_FORM_BYTES);
  if (!form) return refuse(400, 'Not added', 'We could not read what to add. Please go back and try again.');
  const id = form.get('product');
  const variantId = form.get('variant') ?? '';
  const quantityText = form.get('quantity') ?? '1';
  if (typeof id !== 'string' || !isProductId(id) || typeof variantId !== 'string' || typeof quantityText !== 'string') {
    return refuse(400, 'Not added', 'This form did not say which product to add. Please go back and try again.');
  }
  const productHref = `/product/${id}`;
  const quantity = /^\d{1,2}$/.test(quantityText.trim()) ? Number(quantityText.trim()) : Number.NaN;
  if (!(quantity >= 1 && quantity <= MAX_LINE_QUANTITY)) {
    return refuse(400, 'Not added', `You can add 1 to ${MAX_LINE_QUANTITY} of a product at a time.`, productHref);
  }

  const product = await findActiveProduct(openDb(d1), id);
  if (!product) {
    return refuse(404, 'Product not found', 'We could not find this product: it may no longer be on sale.');
  }
  const unit = variantId === '' || PRODUCT_ID_PATTERN.test(variantId) ? sellingUnit(product, variantId) : undefined;
  if (!unit) {
    return variantId === '' && product.variants.length > 0
      ? refuse(400, 'Choose an option', `${product.name} comes in several options: choose one on its page first.`, productHref)
      : refuse(404, 'Option not found', `${product.name} does not come in that option (any more).`, productHref);
  }
  const variantLabel = findVariant(product, variantId)?.label ?? '';
  const name = lineTitle({ name: product.name, variant: variantId, variantLabel });
  if (unit.stock <= 0) {
    return refuse(409, 'Sold out', `${name} is sold out, so it was not added to your cart.`, productHref);
  }

  const waiting = decodePendingCart(readCookie(request.headers.get('cookie'), PENDING_CART_COOKIE));
  const existing = waiting.find((l) => l.id === id && l.variant === variantId);
  const total = (existing?.quantity ?? 0) + quantity;
  const already = existing ? ` (${existing.quantity} already in your cart)` : '';
  if (total > MAX_LINE_QUANTITY) {
    return refuse(409, 'Too many', `One order can hold at most ${MAX_LINE_QUANTITY} of ${name}${already}.`, productHref);
  }
  if (total > unit.stock) {
    return refuse(
      409,
      'Not enough in stock',
      `Only ${unit.stock} of ${name} ${unit.stock === 1 ? 'is' : 'are'} left${already}.`,
      productHref,
    );
  }
  if (!existing && waiting.length >= PENDING_CART_MAX_LINES) {
    return refuse(409, 'Cart full', `Your cart already holds ${PENDING_CART_MAX_LINES} different items, the most one order can.`);
  }

  const line: PendingLine = {
    id,
    variant: variantId,
    variantLabel,
    quantity: total,
    name: product.name,
    price: unit.price,
    image: unit.image,
  };
  const lines = existing ? waiting.map((l) => (l === existing ? line : l)) : [...waiting, line];
  if (encodePendingCart(lines).length > PENDING_CART_MAX_BYTES) {
    return refuse(
      409,
      'Cart full',
      'Your cart cannot hold more items in this browser without JavaScript. Please turn it on to continue.',
    );
  }
  const secure = new URL(request.url).protocol === 'https:';
  return { ok: true, location: returnPath(form.get('return')), setCookie: pendingCartSetCookie(lines, { secure }), line };
}

/** A line of the cart as /cart shows it without JavaScript: live from D1. */
export interface PendingCartRow {
  id: string;
  variant: string;
  name: string;
  /** The option's label, '' without one. */
  option: string;
  image: string;
  quantity: number;
  /** Today's price in kobo; null when the product or option is gone. */
  unitPrice: number | null;
  /** Why it cannot be ordered as it stands. */
  problem?: string;
}

/** The waiting lines of a Cookie header, priced and checked against D1. */
export async function readPendingCart(cookieHeader: string | null, d1: D1Database = env.DB): Promise<PendingCartRow[]> {
  const lines = decodePendingCart(readCookie(cookieHeader, PENDING_CART_COOKIE));
  if (lines.length === 0) return [];
  const db = openDb(d1);
  const products = new Map<string, Product | undefined>();
  await Promise.all([...new Set(lines.map((l) => l.id))].map(async (id) => products.set(id, await findActiveProduct(db, id))));
  return lines.map((line) => {
    const product = products.get(line.id);
    const unit = product && sellingUnit(product, line.variant);
    const option = (product && findVariant(product, line.variant)?.label) ?? '';
    const row = {
      id: line.id,
      variant: line.variant,
      name: product?.name ?? line.name,
      option,
      image: unit?.image ?? line.image,
      quantity: line.quantity,
    };
    if (!product || !unit) return { ...row, unitPrice: null, problem: 'No longer on sale' };
    if (unit.stock <= 0) return { ...row, unitPrice: unit.price, problem: 'Sold out' };
    if (unit.stock < line.quantity) return { ...row, unitPrice: unit.price, problem: `Only ${unit.stock} left` };
    return { ...row, unitPrice: unit.price };
  });
}
