import { endpoint } from '../../lib/api-contract.ts';
import {
  array,
  boolean,
  type Infer,
  int,
  nullable,
  object,
  oneOf,
  optional,
  string,
  withDefault,
} from '../../lib/light-schema.ts';
import { ORDER_STATUSES } from '../orders/order-status.ts';
import type { OrderLineRequest } from '../orders/checkout.ts';
import type { LineProblem } from '../orders/pricing.ts';
import type { CartItem } from './cart.ts';

/**
 * What /cart's plain script reads of the order API, with light checks (docs/decisions/004): the
 * quote (POST /api/orders/quote, `orderApi.quote`) for each line's live price, stock and problem,
 * and this browser's own unpaid order (GET /api/orders/:number, `orderApi.get`) for its number,
 * state and hold, and what the cart keeps of it once it is paid. The paths are the full contracts' (src/features/orders/order-api.ts); the API
 * tests read the Worker's answers with both. The full schemas, and zod, load with the checkout.
 */

const problemKinds = [
  'unavailable',
  'unknown_variant',
  'price_changed',
  'insufficient_stock',
  'hold_limit',
] as const satisfies readonly LineProblem['kind'][];

const checkedLineSchema = object({
  productId: string(),
  variant: string(),
  quantity: int(),
  /** The live price, the only one ever charged. */
  unitPrice: int(),
  /** Units left for this line, up to 5 ("5 or more"). */
  available: int(),
  problem: optional(object({ kind: oneOf(problemKinds), message: string() })),
});
export type CheckedLine = Infer<typeof checkedLineSchema>;
export type LineProblemKind = (typeof problemKinds)[number];

export const cartCheckApi = {
  quote: endpoint({
    method: 'POST',
    path: '/api/orders/quote',
    response: object({ lines: array(checkedLineSchema), ok: boolean() }),
  }),
  ownOrder: endpoint({
    method: 'GET',
    path: '/api/orders/:number',
    response: object({
      order: object({
        number: string(),
        status: oneOf(ORDER_STATUSES),
        expiresAt: string(),
        total: int({ min: 0 }),
        deliveryMethod: oneOf(['delivery', 'pickup']),
        payment: nullable(
          object({
            bankName: string(),
            accountName: string(),
            accountNumber: string(),
            ownAccount: boolean(),
            /** What is still to pay, and what arrived already (a part payment). */
            amount: int({ min: 0 }),
            received: withDefault(int({ min: 0 }), 0),
          }),
        ),
      }),
    }),
  }),
};

/**
 * Whether the shopper has to change the line before checking out. A changed price
 * does not block: the cart takes the new price and shows it.
 */
export function blocksCheckout(problem: { kind: LineProblemKind } | undefined): boolean {
  return problem !== undefined && problem.kind !== 'price_changed';
}

/** The line's product, or the option chosen, is no longer sold: it counts for nothing in the cart's totals. */
export function goneFromSale(problem: { kind: LineProblemKind } | undefined): boolean {
  return problem?.kind === 'unavailable' || problem?.kind === 'unknown_variant';
}

/** What a blocking problem tells the shopper on the line. */
export function lineProblemText(kind: LineProblemKind, available: number): string {
  if (kind === 'insufficient_stock') {
    return available === 0 ? 'Sold out. Remove it to check out.' : `Only ${available} left. Lower the quantity to check out.`;
  }
  if (kind === 'hold_limit') {
    return available === 0
      ? 'Held by other unpaid orders right now. Remove it to check out, or try again in a few hours.'
      : `Up to ${available} per order while so few are left. Lower the quantity to check out.`;
  }
  return 'No longer available. Remove it to check out.';
}

/** The cart's lines as the order API takes them; the price is what the shopper saw, for comparison only. */
export function orderLinesFromCart(items: readonly CartItem[]): OrderLineRequest[] {
  return items.map((i) => ({ productId: i.id, variant: i.variant, quantity: i.quantity, price: i.price }));
}
