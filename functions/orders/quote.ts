import type { PlaceOrder } from '../../src/features/orders/checkout.ts';
import type { DeliveryMethod } from '../../src/features/orders/delivery.ts';
import { priceOrder, type Quote } from '../../src/features/orders/pricing.ts';
import type { Db } from '../platform/db.ts';
import { loadPricingProducts } from '../catalogue/products.ts';
import { ApiError, type FieldIssue } from '../platform/errors.ts';
import type { Config } from '../env.ts';
import { enforceOrderLimits, holdLimitMessage, holdRooms } from './limits.ts';

/**
 * An order's lines priced from D1 with the pure priceOrder(): the cart's live check
 * (POST /api/orders/quote) and the price placeOrder() charges.
 */
export async function quoteLines(db: Db, lines: PlaceOrder['lines'], delivery: DeliveryMethod = 'delivery'): Promise<Quote> {
  return priceOrder(
    lines,
    await loadPricingProducts(
      db,
      lines.map((l) => l.productId),
    ),
    delivery,
  );
}

/**
 * The cart's live check (POST /api/orders/quote): within the order limits, then each line priced
 * from D1 with what (if anything) stops it, the hoarding limit included: a line in stock asking
 * for more than unpaid orders may hold now (2 of a product's last 2, say) is told so here, on the
 * cart, rather than at Place Order (which the batch's guard refuses the same way).
 */
export async function quoteCart(db: Db, config: Config, lines: PlaceOrder['lines'], now = new Date()): Promise<Quote> {
  enforceOrderLimits(config, lines);
  const quote = await quoteLines(db, lines);
  // The lines a hold could stop (the rest already have their reason), their rooms read at once.
  const holdable = quote.lines.filter((line) => !line.problem || line.problem.kind === 'price_changed');
  const rooms = await holdRooms(db, config, holdable, now);
  const asked = new Map<string, number>();
  const checked = quote.lines.map((line) => {
    const at = holdable.indexOf(line);
    if (at < 0) return line;
    const key = `${line.productId}\u0000${line.variant}`;
    const before = asked.get(key) ?? 0;
    asked.set(key, before + line.quantity);
    const { held, most, free } = rooms[at]!;
    // Earlier lines of the same product and variant take their share of the room first.
    const room = Math.max(0, free - before);
    // Within the room: `available` says how far the cart's '+' may go (what the product page's
    // "Up to N per order" says), so the shopper is not let past it only to be told so.
    if (line.quantity <= room) return { ...line, available: Math.min(line.available, room) };
    const message = holdLimitMessage(line, { held, most, free: room });
    return {
      ...line,
      available: Math.min(line.available, room),
      problem: { kind: 'hold_limit' as const, message, available: room },
    };
  });
  return { ...quote, lines: checked, ok: checked.every((l) => !l.problem) };
}

/** Turns a quote's problems into the API's answer: the shopper's mistake (400) or the shop's state (409). */
export function rejectQuote(quote: Quote): never {
  const issues = (kinds: string[], field: string): FieldIssue[] =>
    quote.lines.flatMap((line, i) =>
      line.problem && kinds.includes(line.problem.kind) ? [{ field: `lines.${i}.${field}`, message: line.problem.message }] : [],
    );
  const unknownProducts = issues(['unavailable'], 'productId');
  const unknownVariants = issues(['unknown_variant'], 'variant');
  if (unknownProducts.length || unknownVariants.length) {
    const all = [...unknownProducts, ...unknownVariants];
    throw new ApiError(400, 'invalid_request', `The request is not valid: check ${all.map((i) => i.field).join(', ')}.`, all);
  }
  const stock = issues(['insufficient_stock'], 'quantity');
  if (stock.length) {
    throw new ApiError(409, 'out_of_stock', `Not enough stock: ${stock.map((i) => i.message).join('; ')}.`, stock);
  }
  const prices = issues(['price_changed'], 'price');
  throw new ApiError(
    409,
    'price_changed',
    `Prices changed since you filled your cart: ${prices.map((i) => i.message).join('; ')}. Please check your cart.`,
    prices,
  );
}
