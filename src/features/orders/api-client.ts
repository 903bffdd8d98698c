import { z } from 'zod';
import { postJson } from '../../lib/api-client.ts';
import type { CartItem } from '../cart/cart.ts';
import type { OrderLineRequest, PlaceOrderRequest } from './checkout.ts';
import { orderViewSchema, placedOrderSchema, type OrderView, type PlacedOrder } from './order-view.ts';

/** Browser-side calls to the order API (errors: ApiRequestError from src/lib/api-client.ts). */

/** POSTs to /api/orders{path}; an error answer throws ApiRequestError. */
function post<T>(path: string, body: unknown, schema: z.ZodType<T>, headers: Record<string, string> = {}): Promise<T> {
  return postJson(`/api/orders${path}`, body, schema, headers);
}

const quotedLineSchema = z.object({
  productId: z.string(),
  variant: z.string(),
  name: z.string(),
  image: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number().int(),
  lineTotal: z.number().int(),
  available: z.number().int(),
  problem: z
    .object({ kind: z.enum(['unavailable', 'unknown_variant', 'price_changed', 'insufficient_stock']), message: z.string() })
    .optional(),
});

/** The answer of POST /api/orders/quote (the Worker's `Quote`, see pricing.ts). */
const cartQuoteSchema = z.object({
  lines: z.array(quotedLineSchema),
  subtotal: z.number().int(),
  shipping: z.number().int(),
  total: z.number().int(),
  ok: z.boolean(),
});

export type CartQuote = z.infer<typeof cartQuoteSchema>;
export type QuotedLine = z.infer<typeof quotedLineSchema>;

/** The cart's lines as the order API takes them; the price is what the shopper saw, for comparison only. */
export function orderLinesFromCart(items: readonly CartItem[]): OrderLineRequest[] {
  return items.map((i) => ({ productId: i.id, variant: i.variant, quantity: i.quantity, price: i.price }));
}

export function quoteCart(items: readonly CartItem[]): Promise<CartQuote> {
  return post('/quote', { lines: orderLinesFromCart(items) }, cartQuoteSchema);
}

export function placeOrder(request: PlaceOrderRequest): Promise<PlacedOrder> {
  return post('', request, placedOrderSchema);
}

const orderAnswer = z.object({ order: orderViewSchema });

export async function reportPayment(number: string, accessToken: string): Promise<OrderView> {
  const { order } = await post(`/${encodeURIComponent(number)}/payment-report`, {}, orderAnswer, {
    authorization: `Bearer ${accessToken}`,
  });
  return order;
}

export async function cancelOrder(number: string, accessToken: string): Promise<OrderView> {
  const { order } = await post(`/${encodeURIComponent(number)}/cancel`, {}, orderAnswer, {
    authorization: `Bearer ${accessToken}`,
  });
  return order;
}

export async function lookupOrder(number: string, email: string): Promise<OrderView> {
  const { order } = await post('/lookup', { number, email }, orderAnswer);
  return order;
}
