import { z } from 'zod';
import { MAX_UNITS_PER_PRODUCT } from '../cart/cart.ts';
import { productIdSchema } from '../catalogue/product.ts';
import { ADDRESS_CHARACTERS, addressText, CITY_MESSAGE, emailSchema, singleLineText } from '../../lib/fields.ts';
import type { DeliveryMethod } from './delivery.ts';
import { NIGERIAN_STATES, normalizeNigerianPhone } from './nigeria.ts';

/**
 * What the checkout sends to POST /api/orders, validated by the same schema in
 * the dialog (field messages) and in the Worker (400 naming the field).
 */

const required = (label: string, max: number) =>
  z
    .string({ error: `Please enter your ${label}` })
    .trim()
    .min(1, `Please enter your ${label}`)
    .max(max, `Your ${label} must be at most ${max} characters`);

/** Each detail's rule on its own: the checkout below and the profile (account-api.ts) share them. */
export const customerFields = {
  /** Names, the city and the address are single lines (src/lib/fields.ts): they go into e-mails and must not start paragraphs there. */
  name: singleLineText('full name', 100).pipe(z.string().min(2, 'Please enter your full name: at least 2 letters')),
  email: emailSchema,
  phone: required('phone number', 30).transform((value, ctx) => {
    const phone = normalizeNigerianPhone(value);
    if (!phone) {
      ctx.issues.push({ code: 'custom', input: value, message: 'Enter a Nigerian phone number, like 0803 123 4567' });
      return z.NEVER;
    }
    return phone;
  }),
  address: addressText('delivery address', 200).pipe(z.string().min(5, 'Please enter your full delivery address')),
  // A place name, with the address's characters: no emoji, markup or links on a parcel's label either.
  city: singleLineText('city', 80, { pattern: ADDRESS_CHARACTERS, message: CITY_MESSAGE }),
  state: z.enum(NIGERIAN_STATES, { error: 'Please choose your state' }),
};

const { address, city, state, ...contact } = customerFields;

/**
 * The checkout's details: who orders, and how the order reaches them. Delivery needs the
 * address; pick-up at the Ikeja store does not (an address sent with it is dropped).
 */
export const checkoutDetailsSchema = z.discriminatedUnion(
  'delivery',
  [
    z.object({ delivery: z.literal('delivery'), ...contact, address, city, state }),
    z.object({ delivery: z.literal('pickup'), ...contact }),
  ],
  { error: 'Choose delivery to an address or pick-up at our Ikeja store' },
);

/** The details as the Worker takes them: the same, where details sent without a method (a checkout page cached from before pick-up existed) are for delivery. */
export const customerSchema = z.preprocess(
  (value) => (typeof value === 'object' && value !== null && !('delivery' in value) ? { ...value, delivery: 'delivery' } : value),
  checkoutDetailsSchema,
);

export type Customer = z.output<typeof checkoutDetailsSchema>;
/** What the details form holds: every field, whichever way the order goes (the schema drops the address for pick-up). */
export type CustomerInput = { delivery: DeliveryMethod } & {
  [Field in keyof typeof customerFields]: z.input<(typeof customerFields)[Field]>;
};
export type CustomerField = keyof CustomerInput;

/** Where the order goes: the address for delivery, empty for pick-up (the order row keeps these columns). */
export function deliveryAddress(customer: Customer): { address: string; city: string; state: string } {
  return customer.delivery === 'delivery'
    ? { address: customer.address, city: customer.city, state: customer.state }
    : { address: '', city: '', state: '' };
}

/**
 * Per-order limits that fit a consumer store (issue 8), so one order cannot put much of
 * the catalogue on hold: at most MAX_UNITS_PER_PRODUCT units of one product (summed over
 * its variants; the constant lives with the cart's rules) and MAX_ORDER_LINES different
 * items. These shared defaults are what the browser knows and the schema below checks;
 * the Worker may be configured lower (vars of the same names) and then enforces
 * min(config, default) with orderLimitIssues(): a lower value is refused with the same
 * messages, a higher one cannot raise the limit past this schema.
 */
export { MAX_UNITS_PER_PRODUCT };
export const MAX_ORDER_LINES = 10;

export interface OrderLimits {
  maxUnitsPerProduct: number;
  maxLines: number;
}

const tooManyUnits = (max: number) => `You can order at most ${max} of one product`;
const tooManyLines = (max: number) => `An order can have at most ${max} different items`;

/**
 * What breaks the limits: the list itself (path []) when it has too many lines, and
 * the line at which a product's units (over all its lines) pass the maximum.
 */
export function orderLimitIssues(
  lines: readonly Pick<OrderLineRequest, 'productId' | 'quantity'>[],
  { maxUnitsPerProduct, maxLines }: OrderLimits,
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (lines.length > maxLines) issues.push({ path: [], message: tooManyLines(maxLines) });
  const units = new Map<string, number>();
  lines.forEach((line, index) => {
    const before = units.get(line.productId) ?? 0;
    units.set(line.productId, before + line.quantity);
    if (before <= maxUnitsPerProduct && before + line.quantity > maxUnitsPerProduct) {
      issues.push({ path: [index, 'quantity'], message: tooManyUnits(maxUnitsPerProduct) });
    }
  });
  return issues;
}

export const orderLineSchema = z.object({
  productId: productIdSchema,
  variant: z.string().trim().max(80).default(''),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(MAX_UNITS_PER_PRODUCT, tooManyUnits(MAX_UNITS_PER_PRODUCT)),
  /** The unit price (kobo) the shopper saw. Never charged: compared with D1 to report a change. */
  price: z.number({ error: 'Price must be a number' }).int('Price must be in kobo').min(0, 'Price cannot be negative'),
});

export type OrderLineRequest = z.output<typeof orderLineSchema>;

export const placeOrderSchema = z.object({
  /** Chosen by the browser once per checkout attempt; a retry with the same key returns the same order. */
  idempotencyKey: z
    .string({ error: 'An idempotency key is required' })
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'The idempotency key must be 16-128 letters, digits, - or _'),
  customer: customerSchema,
  lines: z
    .array(orderLineSchema, { error: 'The order needs a list of lines' })
    .min(1, 'Your cart is empty')
    .max(MAX_ORDER_LINES, tooManyLines(MAX_ORDER_LINES))
    .superRefine((lines, ctx) => {
      // The list's length is checked by max() above, a line's own quantity by orderLineSchema
      // (zod still runs this when a line failed); here, a product's units over several lines.
      for (const issue of orderLimitIssues(lines, { maxUnitsPerProduct: MAX_UNITS_PER_PRODUCT, maxLines: MAX_ORDER_LINES })) {
        const own = lines[issue.path[0] as number]?.quantity;
        const lineAlreadyRefused = !Number.isInteger(own) || own! < 1 || own! > MAX_UNITS_PER_PRODUCT;
        if (issue.path.length && !lineAlreadyRefused) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      }
      const seen = new Set<string>();
      lines.forEach((line, index) => {
        const key = `${line.productId}\u0000${line.variant}`;
        if (seen.has(key)) {
          ctx.addIssue({ code: 'custom', path: [index], message: 'This product and variant is already in the order' });
        }
        seen.add(key);
      });
    }),
});

/**
 * What a client sends. The customer's input type is spelled out: `customerSchema` takes
 * anything first (to default the method), so its inferred input would be `unknown`.
 */
export type PlaceOrderRequest = Omit<z.input<typeof placeOrderSchema>, 'customer'> & {
  customer: Partial<CustomerInput>;
};
export type PlaceOrder = z.output<typeof placeOrderSchema>;

/** POST /api/orders/quote: the cart's lines, checked against live prices and stock. */
export const quoteSchema = placeOrderSchema.pick({ lines: true });

/** POST /api/orders/lookup: a guest finds an order by its number and checkout e-mail. */
/**
 * An order number as a shopper may type or paste it: any case, with spaces, a "#", a dash or
 * a full stop around or inside it, or without its "GTS-" ("9tcy 6j1k 6w" → "GTS-9TCY6J1K6W").
 * Only the 10 characters after GTS are the order's own (functions/platform/crypto.ts).
 */
export function normalizeOrderNumber(typed: string): string {
  const compact = typed.toUpperCase().replace(/[\s#.\-_:–—]+/g, '');
  if (!compact) return '';
  const own = compact.length > 10 && compact.startsWith('GTS') ? compact.slice(3) : compact;
  return `GTS-${own}`;
}

export const orderLookupSchema = z.object({
  number: z
    .string({ error: 'Please enter your order number' })
    .transform(normalizeOrderNumber)
    .pipe(
      z
        .string()
        .min(1, 'Please enter your order number')
        .regex(/^GTS-[0-9A-Z]{10}$/, 'Order numbers look like GTS-7K3M9Q2XWD'),
    ),
  email: customerFields.email,
});

/**
 * The Worker's refusals of an order that would hold too many unpaid items: for this shopper's
 * e-mail, phone or address, or of a product that other unpaid orders already hold half of
 * (functions/orders/limits.ts). Their message says what to do.
 */
export const HOLD_LIMITS: readonly string[] = ['unpaid_limit', 'product_hold_limit'];

/** The spec's toast when Place Order fails. */
export const ORDER_FAILED = 'There was an error processing your order. Please try again.';
/** The toast for a hold limit instead: trying again would not help, and the checkout says what would. */
export const ORDER_HELD_BACK = 'Your order was not placed: the checkout says why and what you can do.';

/** The toast a failed Place Order shows, by the refusal's code (none: the request never got an answer). */
export function orderFailureToast(code: string | undefined): string {
  return code !== undefined && HOLD_LIMITS.includes(code) ? ORDER_HELD_BACK : ORDER_FAILED;
}
