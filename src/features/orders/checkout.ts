import { z } from 'zod';
import { MAX_LINE_QUANTITY } from '../cart/cart.ts';
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

export const customerSchema = z.object({
  name: required('full name', 100).pipe(z.string().min(2, 'Please enter your full name')),
  email: required('email address', 254)
    .toLowerCase()
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: required('phone number', 30).transform((value, ctx) => {
    const phone = normalizeNigerianPhone(value);
    if (!phone) {
      ctx.issues.push({ code: 'custom', input: value, message: 'Enter a Nigerian phone number, like 0803 123 4567' });
      return z.NEVER;
    }
    return phone;
  }),
  address: required('delivery address', 200).pipe(z.string().min(5, 'Please enter your full delivery address')),
  city: required('city', 80),
  state: z.enum(NIGERIAN_STATES, { error: 'Please choose your state' }),
});

export type CustomerInput = z.input<typeof customerSchema>;
export type Customer = z.output<typeof customerSchema>;
export type CustomerField = keyof CustomerInput;

export const MAX_ORDER_LINES = 50;

export const orderLineSchema = z.object({
  productId: z.string({ error: 'Product id is required' }).regex(/^[a-z0-9-]{1,80}$/, 'Not a product id'),
  variant: z.string().trim().max(80).default(''),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(MAX_LINE_QUANTITY, `Quantity can be at most ${MAX_LINE_QUANTITY}`),
  /** The unit price (kobo) the shopper saw. Never charged: compared with D1 to report a change. */
  price: z.number({ error: 'Price must be a number' }).int('Price must be in kobo').min(0),
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
    .max(MAX_ORDER_LINES, `An order can have at most ${MAX_ORDER_LINES} lines`)
    .superRefine((lines, ctx) => {
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

export type PlaceOrderRequest = z.input<typeof placeOrderSchema>;
export type PlaceOrder = z.output<typeof placeOrderSchema>;

/** POST /api/orders/quote: the cart's lines, checked against live prices and stock. */
export const quoteSchema = placeOrderSchema.pick({ lines: true });

/** POST /api/orders/lookup: a guest finds an order by its number and checkout e-mail. */
export const orderLookupSchema = z.object({
  number: z
    .string({ error: 'Please enter your order number' })
    .trim()
    .toUpperCase()
    .min(1, 'Please enter your order number')
    .regex(/^GTS-[0-9A-Z]{4,20}$/, 'Order numbers look like GTS-7K3M9Q2XWD'),
  email: customerSchema.shape.email,
});
