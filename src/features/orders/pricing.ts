import { formatNaira, type Kobo } from '../../lib/money.ts';
import type { Product } from '../catalogue/product.ts';
import type { OrderLineRequest } from './checkout.ts';

/** Flat delivery fee per order: ₦1,500 (spec section 9). */
export const SHIPPING_FEE: Kobo = 150_000;

export type PricingProduct = Pick<Product, 'id' | 'name' | 'price' | 'image' | 'variants' | 'stock'>;

/** Why a line cannot be ordered as it stands. */
export type LineProblem =
  | { kind: 'unavailable'; message: string }
  | { kind: 'unknown_variant'; message: string }
  | { kind: 'price_changed'; message: string; price: Kobo }
  | { kind: 'insufficient_stock'; message: string; available: number };

export interface PricedLine {
  productId: string;
  variant: string;
  name: string;
  image: string;
  quantity: number;
  /** The live price from the database, the only one ever charged. */
  unitPrice: Kobo;
  lineTotal: Kobo;
  /** Units left for this line once earlier lines of the same product are counted. */
  available: number;
  problem?: LineProblem;
}

export interface Quote {
  lines: PricedLine[];
  subtotal: Kobo;
  shipping: Kobo;
  total: Kobo;
  ok: boolean;
}

/**
 * Prices an order from the catalogue's live rows. Pure: the Worker passes what it
 * read from D1, and the result says, line by line, what (if anything) stops it.
 * The price the shopper saw is only compared, never used.
 */
export function priceOrder(lines: readonly OrderLineRequest[], catalogue: ReadonlyMap<string, PricingProduct>): Quote {
  const claimed = new Map<string, number>();
  const priced = lines.map((line): PricedLine => {
    const product = catalogue.get(line.productId);
    if (!product) {
      return {
        productId: line.productId, variant: line.variant, name: line.productId, image: '', quantity: line.quantity,
        unitPrice: 0, lineTotal: 0, available: 0,
        problem: { kind: 'unavailable', message: 'This product is no longer sold' },
      };
    }
    const before = claimed.get(product.id) ?? 0;
    claimed.set(product.id, before + line.quantity);
    const available = Math.max(0, product.stock - before);
    const base = {
      productId: product.id, variant: line.variant, name: product.name, image: product.image,
      quantity: line.quantity, unitPrice: product.price, lineTotal: product.price * line.quantity, available,
    };
    const variantOk = product.variants.length ? product.variants.includes(line.variant) : line.variant === '';
    if (!variantOk) {
      return { ...base, problem: { kind: 'unknown_variant', message: `${product.name} does not come in "${line.variant}"` } };
    }
    if (line.quantity > available) {
      const message = available === 0 ? `${product.name} is sold out` : `Only ${available} of ${product.name} left`;
      return { ...base, problem: { kind: 'insufficient_stock', message, available } };
    }
    if (line.price !== product.price) {
      return { ...base, problem: { kind: 'price_changed', message: `${product.name} now costs ${formatNaira(product.price)} (was ${formatNaira(line.price)})`, price: product.price } };
    }
    return base;
  });
  const subtotal = priced.reduce((sum, line) => sum + line.lineTotal, 0);
  return { lines: priced, subtotal, shipping: SHIPPING_FEE, total: subtotal + SHIPPING_FEE, ok: priced.every((l) => !l.problem) };
}
