import { describe, expect, it } from 'vitest';
import { ADA } from '../../../tests/fixtures/shopper.ts';
import {
  customerSchema,
  MAX_ORDER_LINES,
  MAX_UNITS_PER_PRODUCT,
  orderLimitIssues,
  ORDER_FAILED,
  ORDER_HELD_BACK,
  orderFailureToast,
  orderLookupSchema,
  placeOrderSchema,
  quoteSchema,
  type CustomerInput,
} from './checkout.ts';

const ada = { ...ADA } satisfies Omit<CustomerInput, 'delivery'>;

/** Each [field, message] the checkout dialog shows for `input`. */
function messages(input: unknown): [string, string][] {
  const result = customerSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

describe('customerSchema', () => {
  it('accepts a full customer, trimming text, lower-casing the e-mail and normalising the phone', () => {
    expect(
      customerSchema.parse({ ...ada, name: '  Ada Obi ', email: ' Ada.Obi@Example.COM ', phone: '+234 (803) 123-4567' }),
    ).toEqual({
      ...ada,
      delivery: 'delivery',
      email: 'ada.obi@example.com',
      phone: '+2348031234567',
    });
  });

  it('needs no address for pick-up at the store, and drops one that is sent', () => {
    const { address: _a, city: _c, state: _s, ...contact } = ada;
    expect(customerSchema.parse({ ...contact, delivery: 'pickup' })).toEqual({
      ...contact,
      delivery: 'pickup',
      phone: '+2348031234567',
    });
    expect(customerSchema.parse({ ...ada, delivery: 'pickup' })).not.toHaveProperty('address');
    const withoutAddress = customerSchema.safeParse({ ...contact, delivery: 'delivery' });
    expect(withoutAddress.success).toBe(false);
    expect(withoutAddress.error?.issues.map((i) => i.path.join('.'))).toEqual(['address', 'city', 'state']);
    const unknown = customerSchema.safeParse({ ...ada, delivery: 'drone' });
    expect(unknown.error?.issues[0]?.message).toBe('Choose delivery to an address or pick-up at our Ikeja store');
  });

  it.each<[string, Partial<Record<keyof CustomerInput, unknown>>, string, string]>([
    ['a missing name', { name: undefined }, 'name', 'Please enter your full name'],
    ['a blank name', { name: '   ' }, 'name', 'Please enter your full name'],
    ['a one-letter name', { name: 'A' }, 'name', 'Please enter your full name: at least 2 letters'],
    ['a name over 100 characters', { name: 'A'.repeat(101) }, 'name', 'Your full name must be at most 100 characters'],
    ['a missing e-mail', { email: '' }, 'email', 'Please enter your email address'],
    ['an invalid e-mail', { email: 'ada@example' }, 'email', 'Please enter a valid email address'],
    ['a missing phone', { phone: '' }, 'phone', 'Please enter your phone number'],
    ['a foreign phone', { phone: '+44 20 7946 0958' }, 'phone', 'Enter a Nigerian phone number, like 0803 123 4567'],
    ['a short phone', { phone: '0803 123' }, 'phone', 'Enter a Nigerian phone number, like 0803 123 4567'],
    ['a missing address', { address: '' }, 'address', 'Please enter your delivery address'],
    ['a short address', { address: 'Ikj' }, 'address', 'Please enter your full delivery address'],
    ['a missing city', { city: ' ' }, 'city', 'Please enter your city'],
    ['a missing state', { state: undefined }, 'state', 'Please choose your state'],
    ['a state not in the list', { state: 'Abuja' }, 'state', 'Please choose your state'],
    ['a state in the wrong case', { state: 'lagos' }, 'state', 'Please choose your state'],
  ])('refuses %s with a message on the field', (_, change, field, message) => {
    expect(messages({ ...ada, ...change })).toEqual([[field, message]]);
  });

  it('names every wrong field at once', () => {
    expect(messages({}).map(([field]) => field)).toEqual(['name', 'email', 'phone', 'address', 'city', 'state']);
  });
});

describe('placeOrderSchema', () => {
  const order = {
    idempotencyKey: 'checkout-2026-abcdef',
    customer: ada,
    lines: [{ productId: 'sony-playstation-5-slim', variant: 'Disc Edition', quantity: 1, price: 84_900_000 }],
  };
  const fields = (input: unknown) => {
    const result = placeOrderSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };
  const withLine = (change: object) => ({ ...order, lines: [{ ...order.lines[0], ...change }] });

  it('accepts an order, defaulting a missing variant to none, and drops fields it does not know', () => {
    const parsed = placeOrderSchema.parse({
      ...order,
      total: 1,
      lines: [{ productId: 'hisense-32-a4-hd', quantity: 2, price: 18_950_000, lineTotal: 1 }],
    });
    expect(parsed.lines).toEqual([{ productId: 'hisense-32-a4-hd', variant: '', quantity: 2, price: 18_950_000 }]);
    expect(parsed).not.toHaveProperty('total');
  });

  it.each([
    [0, 'lines.0.quantity'],
    [-1, 'lines.0.quantity'],
    [2.5, 'lines.0.quantity'],
    [6, 'lines.0.quantity'],
    [100, 'lines.0.quantity'],
    [1e9, 'lines.0.quantity'],
    [Number.NaN, 'lines.0.quantity'],
    ['3', 'lines.0.quantity'],
  ])('refuses quantity %j', (quantity, field) => {
    expect(fields(withLine({ quantity }))).toEqual([field]);
  });

  it('accepts quantities from 1 to 5', () => {
    expect(MAX_UNITS_PER_PRODUCT).toBe(5);
    expect(fields(withLine({ quantity: 1 }))).toEqual([]);
    expect(fields(withLine({ quantity: 5 }))).toEqual([]);
  });

  const issues = (input: unknown) => {
    const result = placeOrderSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
  };

  it('says how many of one product an order may hold, also across its variants', () => {
    expect(issues(withLine({ quantity: 6 }))).toEqual([['lines.0.quantity', 'You can order at most 5 of one product']]);
    const twoVariants = {
      ...order,
      lines: [
        { ...order.lines[0], quantity: 3 },
        { ...order.lines[0], variant: 'Digital Edition', quantity: 3 },
      ],
    };
    expect(issues(twoVariants)).toEqual([['lines.1.quantity', 'You can order at most 5 of one product']]);
  });

  it('says how many different items an order may have', () => {
    expect(MAX_ORDER_LINES).toBe(10);
    const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ productId: `p-${i}`, quantity: 1, price: 1 }));
    expect(issues({ ...order, lines: lines(10) })).toEqual([]);
    expect(issues({ ...order, lines: lines(11) })).toEqual([['lines', 'An order can have at most 10 different items']]);
  });

  it("checks lower limits (the Worker's configured ones) with the same messages", () => {
    const lines = [
      { productId: 'a', variant: '', quantity: 2, price: 1 },
      { productId: 'b', variant: 'x', quantity: 1, price: 1 },
      { productId: 'b', variant: 'y', quantity: 2, price: 1 },
    ];
    expect(orderLimitIssues(lines, { maxUnitsPerProduct: 5, maxLines: 10 })).toEqual([]);
    expect(orderLimitIssues(lines, { maxUnitsPerProduct: 2, maxLines: 2 })).toEqual([
      { path: [], message: 'An order can have at most 2 different items' },
      { path: [2, 'quantity'], message: 'You can order at most 2 of one product' },
    ]);
  });

  it.each([
    [{ price: -1 }, 'lines.0.price'],
    [{ price: 849_000.5 }, 'lines.0.price'],
    [{ productId: 'Sony PS5' }, 'lines.0.productId'],
    [{ productId: undefined }, 'lines.0.productId'],
    [{ variant: 'x'.repeat(81) }, 'lines.0.variant'],
  ])('refuses line %j', (change, field) => {
    expect(fields(withLine(change))).toEqual([field]);
  });

  it('refuses the same product and variant twice, naming the repeated line', () => {
    const twice = { ...order, lines: [order.lines[0], { ...order.lines[0], quantity: 2 }] };
    expect(fields(twice)).toEqual(['lines.1']);
    const otherVariant = { ...order, lines: [order.lines[0], { ...order.lines[0], variant: 'Digital Edition' }] };
    expect(fields(otherVariant)).toEqual([]);
  });

  it.each([
    [{ lines: [] }, 'lines'],
    [{ lines: Array.from({ length: 11 }, (_, i) => ({ productId: `p-${i}`, quantity: 1, price: 1 })) }, 'lines'],
    [{ lines: undefined }, 'lines'],
    [{ idempotencyKey: undefined }, 'idempotencyKey'],
    [{ idempotencyKey: 'short' }, 'idempotencyKey'],
    [{ idempotencyKey: 'k'.repeat(129) }, 'idempotencyKey'],
    [{ idempotencyKey: 'has spaces in the key' }, 'idempotencyKey'],
    [{ customer: { ...ada, phone: '0603 123 4567' } }, 'customer.phone'],
  ])('refuses %j', (change, field) => {
    expect(fields({ ...order, ...change })).toEqual([field]);
  });

  it('lets the quote check lines without a customer or key', () => {
    expect(quoteSchema.safeParse({ lines: order.lines }).success).toBe(true);
  });
});

describe('orderLookupSchema', () => {
  it('reads the order number in any case and the e-mail lower-cased', () => {
    expect(orderLookupSchema.parse({ number: ' gts-7k3m9q2xwd ', email: 'Ada@Example.com' })).toEqual({
      number: 'GTS-7K3M9Q2XWD',
      email: 'ada@example.com',
    });
  });

  it.each(['9TCY6J1K6W', '9tcy 6j1k 6w', 'GTS 9TCY 6J1K 6W', '#GTS-9TCY6J1K6W.', ' gts9tcy6j1k6w ', 'GTS–9TCY-6J1K-6W'])(
    'reads %j, as a shopper may type or paste it, as GTS-9TCY6J1K6W',
    (typed) => {
      expect(orderLookupSchema.parse({ number: typed, email: 'ada@example.com' }).number).toBe('GTS-9TCY6J1K6W');
    },
  );

  it('keeps the format message for what is not an order number', () => {
    for (const typed of ['order 12', '12345', 'GTS-7K3M9Q2XW', 'TRD-7K3M9Q2XWD'])
      expect(orderLookupSchema.safeParse({ number: typed, email: 'ada@example.com' }).error?.issues[0]?.message).toBe(
        'Order numbers look like GTS-7K3M9Q2XWD',
      );
  });

  it('asks for a missing order number first', () => {
    const result = orderLookupSchema.safeParse({ number: ' ', email: 'ada@example.com' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['number'], message: 'Please enter your order number' });
  });

  it.each([
    [{ number: '12345', email: 'ada@example.com' }, 'number', 'Order numbers look like GTS-7K3M9Q2XWD'],
    [{ number: 'GTS-7K3M9Q2XWD', email: 'ada' }, 'email', 'Please enter a valid email address'],
  ])('refuses %j on %s', (input, field, message) => {
    const result = orderLookupSchema.safeParse(input);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]]);
  });
});

describe('orderFailureToast', () => {
  it("is the spec's toast, but does not say to try again when a hold limit refused the order", () => {
    expect(orderFailureToast('unpaid_limit')).toBe(ORDER_HELD_BACK);
    expect(orderFailureToast('product_hold_limit')).toBe(ORDER_HELD_BACK);
    for (const code of [undefined, 'out_of_stock', 'invalid_request', 'rate_limited'])
      expect(orderFailureToast(code)).toBe(ORDER_FAILED);
    expect(ORDER_FAILED).toBe('There was an error processing your order. Please try again.');
  });
});
