import { z } from 'zod';
import { formatNaira, type Kobo } from '../../lib/money.ts';
import { MAX_UNITS_PER_PRODUCT } from '../cart/cart.ts';
import { findVariant, type Product, sellingUnit } from '../catalogue/product.ts';
import type { OrderLineRequest } from './checkout.ts';
import { DELIVERY_FEE, type DeliveryMethod, deliveryFee } from './delivery.ts';

/** Flat delivery fee per order: ₦1,500 (spec section 9); nothing for pick-up (delivery.ts). */
export const SHIPPING_FEE: Kobo = DELIVERY_FEE;

/**
 * The quote tells the exact number of units left only up to this many (issue 8): one
 * order may take at most MAX_UNITS_PER_PRODUCT of a product, so a larger number is of no
 * use to a shopper and would only tell a script how much there is to put on hold.
 */
export const STOCK_SHOWN_UP_TO = MAX_UNITS_PER_PRODUCT;

export type PricingProduct = Pick<Product, 'id' | 'name' | 'price' | 'image' | 'variants' | 'stock'>;

const kobo = z.number().int();

/** Why a line cannot be ordered as it stands. */
export const lineProblemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('unavailable'), message: z.string() }),
  z.object({ kind: z.literal('unknown_variant'), message: z.string() }),
  z.object({ kind: z.literal('price_changed'), message: z.string(), price: kobo }),
  z.object({ kind: z.literal('insufficient_stock'), message: z.string(), available: z.number().int() }),
  /**
   * In stock, but more than unpaid orders may hold of it now (the hoarding limit,
   * functions/orders/limits.ts): `available` can be ordered until the orders holding it are paid.
   * Only the cart's quote says it; placing the order is refused the same way.
   */
  z.object({ kind: z.literal('hold_limit'), message: z.string(), available: z.number().int() }),
]);
export type LineProblem = z.infer<typeof lineProblemSchema>;
export type LineProblemKind = LineProblem['kind'];

export const pricedLineSchema = z.object({
  productId: z.string(),
  /** The variant's id ('' for a product without variants)… */
  variant: z.string(),
  /** …and its label as the shopper reads it ("512GB"). */
  variantLabel: z.string(),
  name: z.string(),
  image: z.string(),
  quantity: z.number().int(),
  /** The live price from the database, the only one ever charged. */
  unitPrice: kobo,
  lineTotal: kobo,
  /**
   * Units left for this line once earlier lines of the same product and variant are counted, capped
   * at STOCK_SHOWN_UP_TO (5): 5 means "5 or more"; below it, the exact number.
   */
  available: z.number().int(),
  problem: lineProblemSchema.optional(),
});
export type PricedLine = z.infer<typeof pricedLineSchema>;

/** A cart priced from the live catalogue: POST /api/orders/quote's answer, and what placing an order checks. */
export const quoteResultSchema = z.object({
  lines: z.array(pricedLineSchema),
  subtotal: kobo,
  shipping: kobo,
  total: kobo,
  ok: z.boolean(),
});
export type Quote = z.infer<typeof quoteResultSchema>;

/** A line that cannot be priced at all (gone, or not in that variant): nothing charged for it. */
function unpriced(line: OrderLineRequest, product: { name: string; image: string }, problem: LineProblem): PricedLine {
  return {
    productId: line.productId,
    variant: line.variant,
    variantLabel: '',
    name: product.name,
    image: product.image,
    quantity: line.quantity,
    unitPrice: 0,
    lineTotal: 0,
    available: 0,
    problem,
  };
}

/**
 * Prices an order from the catalogue's live rows. Pure: the Worker passes what it
 * read from D1, and the result says, line by line, what (if anything) stops it.
 * The price the shopper saw is only compared, never used.
 */
export function priceOrder(
  lines: readonly OrderLineRequest[],
  catalogue: ReadonlyMap<string, PricingProduct>,
  delivery: DeliveryMethod = 'delivery',
): Quote {
  const claimed = new Map<string, number>();
  const priced = lines.map((line): PricedLine => {
    const product = catalogue.get(line.productId);
    if (!product) {
      return unpriced(
        line,
        { name: line.productId, image: '' },
        { kind: 'unavailable', message: 'This product is no longer sold' },
      );
    }
    const unit = sellingUnit(product, line.variant);
    if (!unit) {
      return unpriced(line, product, {
        kind: 'unknown_variant',
        message: line.variant ? `${product.name} does not come in "${line.variant}"` : `Choose an option of ${product.name}`,
      });
    }
    // Stock is the variant's: two lines of one product in different variants draw on different stock.
    const key = `${product.id}\u0000${line.variant}`;
    const before = claimed.get(key) ?? 0;
    claimed.set(key, before + line.quantity);
    const available = Math.max(0, unit.stock - before);
    // What the answer says: never more than STOCK_SHOWN_UP_TO (a line within the per-product
    // limit that is short of stock is short by an exact number below it).
    const shown = Math.min(available, STOCK_SHOWN_UP_TO);
    const variantLabel = findVariant(product, line.variant)?.label ?? '';
    const name = variantLabel ? `${product.name} (${variantLabel})` : product.name;
    const base = {
      productId: product.id,
      variant: line.variant,
      variantLabel,
      name: product.name,
      image: unit.image,
      quantity: line.quantity,
      unitPrice: unit.price,
      lineTotal: unit.price * line.quantity,
      available: shown,
    };
    if (line.quantity > available) {
      const message = shown === 0 ? `${name} is sold out` : `Only ${shown} of ${name} left`;
      return { ...base, problem: { kind: 'insufficient_stock', message, available: shown } };
    }
    if (line.price !== unit.price) {
      return {
        ...base,
        problem: {
          kind: 'price_changed',
          message: `${name} now costs ${formatNaira(unit.price)} (was ${formatNaira(line.price)})`,
          price: unit.price,
        },
      };
    }
    return base;
  });
  const subtotal = priced.reduce((sum, line) => sum + line.lineTotal, 0);
  const shipping = deliveryFee(delivery);
  return { lines: priced, subtotal, shipping, total: subtotal + shipping, ok: priced.every((l) => !l.problem) };
}
