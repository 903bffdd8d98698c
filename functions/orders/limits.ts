import {
  MAX_ORDER_LINES,
  MAX_UNITS_PER_PRODUCT,
  orderLimitIssues,
  type OrderLimits,
} from '../../src/features/orders/checkout.ts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Quote } from '../../src/features/orders/pricing.ts';
import { HOLDING_UNPAID } from '../../src/features/orders/order-status.ts';
import { STORE } from '../../src/lib/site.ts';
import type { Db } from '../platform/db.ts';
import { orders, type OrderRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';

/**
 * The per-order limits the Worker enforces: min(config, shared default). The shared
 * schema (src/features/orders/checkout.ts) has already refused anything above the
 * defaults, which is what the browser knows and says first; the vars
 * MAX_UNITS_PER_PRODUCT and MAX_ORDER_LINES can only tighten them (a higher value
 * would be refused by the schema before it mattered).
 */
export function orderLimits(config: Config): OrderLimits {
  return {
    maxUnitsPerProduct: Math.min(config.MAX_UNITS_PER_PRODUCT, MAX_UNITS_PER_PRODUCT),
    maxLines: Math.min(config.MAX_ORDER_LINES, MAX_ORDER_LINES),
  };
}

/** Refuses lines past the configured limits: 400 naming `lines` or `lines.N.quantity`, as the schema would. */
export function enforceOrderLimits(config: Config, lines: Parameters<typeof orderLimitIssues>[0]): void {
  const issues = orderLimitIssues(lines, orderLimits(config)).map((i) => ({
    field: ['lines', ...i.path].join('.'),
    message: i.message,
  }));
  if (issues.length) {
    throw new ApiError(
      400,
      'invalid_request',
      `The request is not valid: check ${issues.map((i) => i.field).join(', ')}.`,
      issues,
    );
  }
}

/*
 * Hoarding limits (issue 20, finding 4): a few strangers placing unpaid orders must not take a
 * product off sale. An order's batch (functions/orders/place.ts) ends with guardUnpaidHolds():
 * after its lines are written and its stock reserved, two UPDATEs of the new order's own row
 * break a CHECK when the order, counted with every other unpaid order, holds too much. D1 runs
 * the batch as one transaction and serialises them, so the limits hold under parallel orders
 * as the stock does (docs/decisions/006-stock-reserved-in-the-order-batch.md); a read before
 * the write could not, since 20 orders would all read the same allowance.
 */

/** Orders that hold stock without having been paid for: until paid, cancelled or past their hold. */
const UNPAID = sql.raw(`(${HOLDING_UNPAID.map((status) => `'${status}'`).join(', ')})`);

/** Unpaid orders still within their hold at `now` (an overdue one holds nothing, even before the cron expires it). */
const holding = (o: string, now: Date) =>
  sql`${sql.raw(o)}.status IN ${UNPAID} AND ${sql.raw(o)}.expires_at > ${Math.floor(now.getTime() / 1000)}`;

/** What an address keeps when spaces, case and the punctuation ADDRESS_CHARACTERS allows are taken away. */
const squashed = (text: SQL) =>
  [' ', ',', '.', '-', '/', '#', "'", '’', '(', ')', '&'].reduce<SQL>(
    (inner, character) => sql`replace(${inner}, ${character}, '')`,
    sql`lower(${text})`,
  );

/** One delivery address however it was written; '' for a pick-up order, which has none. */
const addressKey = (address: SQL, city: SQL, state: SQL) =>
  sql`CASE WHEN ${address} = '' THEN '' ELSE ${squashed(address)} || '|' || ${squashed(city)} || '|' || lower(${state}) END`;

const column = (o: string, name: string) => sql.raw(`${o}.${name}`);

/**
 * The contacts an order is counted against, each with the field the checkout names when it is
 * refused. An order placed by an account whose e-mail address is confirmed (`account`) is counted
 * against that account's own unpaid orders instead: anyone can type a person's e-mail, phone
 * and address into a guest checkout, and those orders must not lock that person out; the account
 * proved its mailbox, and its orders are its own.
 */
function contactsOf(order: Pick<OrderRow, 'mailbox' | 'phone' | 'address' | 'city' | 'state'>, account: string | null) {
  if (account !== null)
    return [{ field: 'customer.email', what: 'account', theirs: (o: string) => column(o, 'user_id'), mine: sql`${account}` }];
  return [
    {
      field: 'customer.email',
      what: 'e-mail address',
      // The mailbox, not the spelling: a+1@ and a.b@gmail.com count as a@ and ab@gmail.com.
      theirs: (o: string) => column(o, 'mailbox'),
      mine: sql`${order.mailbox}`,
    },
    { field: 'customer.phone', what: 'phone number', theirs: (o: string) => column(o, 'phone'), mine: sql`${order.phone}` },
    ...(order.address
      ? [
          {
            field: 'customer.address',
            what: 'delivery address',
            theirs: (o: string) => addressKey(column(o, 'address'), column(o, 'city'), column(o, 'state')),
            mine: addressKey(sql`${order.address}`, sql`${order.city}`, sql`${order.state}`),
          },
        ]
      : []),
  ];
}

/** Units all unpaid orders of a contact hold. */
const unitsHeldBy = (contact: ReturnType<typeof contactsOf>[number], now: Date) =>
  sql`(SELECT coalesce(sum(hl.quantity), 0) FROM orders ho JOIN order_lines hl ON hl.order_id = ho.id
        WHERE ${holding('ho', now)} AND ${contact.theirs('ho')} = ${contact.mine})`;

/** Units all unpaid orders hold of the product and variant named by `line` (an order_lines alias). */
const unitsHeldOf = (line: string, now: Date) =>
  sql`(SELECT coalesce(sum(hl.quantity), 0) FROM order_lines hl JOIN orders ho ON ho.id = hl.order_id
        WHERE hl.product_id = ${column(line, 'product_id')} AND hl.variant_id = ${column(line, 'variant_id')}
          AND ${holding('ho', now)})`;

/** Units of the product or variant named by `line` on the shelf. */
const unitsOnShelf = (line: string) =>
  sql`CASE WHEN ${column(line, 'variant_id')} = ''
        THEN (SELECT p.stock FROM products p WHERE p.id = ${column(line, 'product_id')})
        ELSE (SELECT v.stock FROM product_variants v WHERE v.product_id = ${column(line, 'product_id')} AND v.id = ${column(line, 'variant_id')}) END`;

/**
 * The most units of one product (or variant) all unpaid orders together may hold: the share
 * MAX_UNPAID_SHARE_PER_PRODUCT of its units (on the shelf and held), rounded down, but at least
 * one, so a product down to its last unit can still be ordered when nobody holds it. With 2 or
 * 3 units, then, one is held at a time. The small epsilon keeps 0.3 × 10 from flooring to 2.
 */
const mostHeld = (held: SQL, shelf: SQL, config: Config) =>
  sql`max(1, CAST(${config.MAX_UNPAID_SHARE_PER_PRODUCT} * (${held} + ${shelf}) + 0.000001 AS INTEGER))`;

/**
 * The batch's last statements: each sets a CHECKed column of the new order to a value its CHECK
 * refuses when a limit is passed, this order's units counted. A contact's limit breaks
 * orders_credit_not_negative; a product's share orders_total_is_sum, so placeOrder() knows which.
 * updated_at is kept, not stamped by $onUpdate: the row is the order as just placed.
 */
export function guardUnpaidHolds(db: Db, config: Config, order: OrderRow, now: Date, account: string | null) {
  const overContact = sql.join(
    contactsOf(order, account).map((contact) => sql`${unitsHeldBy(contact, now)} > ${config.MAX_UNPAID_UNITS_PER_CONTACT}`),
    sql` OR `,
  );
  const overShare = sql`EXISTS (SELECT 1 FROM order_lines ml WHERE ml.order_id = ${order.id}
      AND ${unitsHeldOf('ml', now)} > ${mostHeld(unitsHeldOf('ml', now), unitsOnShelf('ml'), config)})`;
  return [
    db
      .update(orders)
      .set({ credit: sql`CASE WHEN ${overContact} THEN -1 ELSE ${orders.credit} END`, updatedAt: sql`${orders.updatedAt}` })
      .where(eq(orders.id, order.id)),
    db
      .update(orders)
      .set({ total: sql`CASE WHEN ${overShare} THEN -1 ELSE ${orders.total} END`, updatedAt: sql`${orders.updatedAt}` })
      .where(eq(orders.id, order.id)),
  ];
}

const HOLD_MORE = `pay for or cancel your unpaid order first (on its tracking page, or under Orders in your account), or contact us on ${STORE.phone} to order more`;
/** Also told to a guest: signed in with a confirmed address, orders others placed with their details do not count. */
const HOLD_MORE_GUEST = `${HOLD_MORE}. Not yours? Sign in to an account whose e-mail address you have confirmed: orders others placed with your details then do not count against you`;

/**
 * How many more units of each line's product (or variant) one more unpaid order may hold now:
 * `most` all unpaid orders together may hold (mostHeld), `held` what they hold, `free` the
 * difference; in the order of `lines`.
 * The refusal below words it; the cart's quote (quote.ts) says it before checkout.
 */
export async function holdRooms(
  db: Db,
  config: Config,
  lines: readonly { productId: string; variant: string }[],
  now: Date,
): Promise<HoldRoom[]> {
  if (!lines.length) return [];
  // Every line in one query (one round trip to D1, however long the cart): a row per line.
  const rows = sql.join(
    lines.map((line, i) => sql`(${sql.raw(String(i))}, ${line.productId}, ${line.variant})`),
    sql`, `,
  );
  const found = await db.all<{ i: number; held: number; most: number }>(
    sql`WITH ml(i, product_id, variant_id) AS (VALUES ${rows})
        SELECT i, held, ${mostHeld(sql`held`, sql`shelf`, config)} AS most FROM (SELECT ml.i AS i,
          ${unitsHeldOf('ml', now)} AS held, ${unitsOnShelf('ml')} AS shelf FROM ml)`,
  );
  return lines.map((_, i) => {
    const row = found.find((r) => Number(r.i) === i);
    const held = Number(row?.held ?? 0);
    const most = Number(row?.most ?? 0);
    return { held, most, free: Math.max(0, most - held) };
  });
}

export interface HoldRoom {
  held: number;
  most: number;
  free: number;
}

/**
 * Why a line asks for more than unpaid orders may hold of it now, for the refusal below and the
 * cart's quote (quote.ts). Nobody else holds it: the order alone asks for more than the share (2
 * of a product's 2 units), so say so, rather than blame other shoppers who are not there.
 */
export function holdLimitMessage(
  line: Pick<Quote['lines'][number], 'name' | 'variantLabel'>,
  { held, most, free }: HoldRoom,
): string {
  const name = line.variantLabel ? `${line.name} (${line.variantLabel})` : line.name;
  if (held === 0) return `At most ${most} of ${name} can wait in unpaid orders at a time`;
  if (free === 0) return `${name} is held by other unpaid orders right now`;
  return `Only ${free} more of ${name} can be ordered before the orders holding it are paid`;
}

/**
 * Why a batch guardUnpaidHolds() broke was refused, read after D1 rolled it back, as the answer
 * the shopper sees: 409 `unpaid_limit` naming the contact field, or `product_hold_limit` naming
 * each line past its product's share. Undefined when nothing is over any more (an order paid or
 * cancelled meanwhile): the caller tries again.
 */
export async function unpaidHoldRefusal(
  db: Db,
  config: Config,
  order: OrderRow,
  lines: readonly Pick<Quote['lines'][number], 'productId' | 'variant' | 'quantity' | 'name' | 'variantLabel'>[],
  now: Date,
  account: string | null,
): Promise<ApiError | undefined> {
  const units = lines.reduce((sum, l) => sum + l.quantity, 0);
  const limit = config.MAX_UNPAID_UNITS_PER_CONTACT;
  const contacts = contactsOf(order, account);
  const [held] = await db.all<Record<string, number>>(
    sql`SELECT ${sql.join(
      contacts.map((c, i) => sql`${unitsHeldBy(c, now)} AS ${sql.identifier(`c${i}`)}`),
      sql`, `,
    )}`,
  );
  const over = contacts.filter((_, i) => Number(held?.[`c${i}`] ?? 0) + units > limit);
  if (over.length) {
    const first = over[0]!;
    const already = Number(held?.[`c${contacts.indexOf(first)}`] ?? 0);
    return new ApiError(
      409,
      'unpaid_limit',
      `Unpaid orders with this ${first.what} already hold ${already} ${already === 1 ? 'item' : 'items'}, and we keep at most ${limit} for one customer until they are paid for. To order these, ${account === null ? HOLD_MORE_GUEST : HOLD_MORE}.`,
      over.map((c) => ({ field: c.field, message: `Unpaid orders with this ${c.what} hold as many items as we can keep` })),
    );
  }
  const issues = [];
  let othersHold = false;
  const rooms = await holdRooms(db, config, lines, now);
  for (const [i, line] of lines.entries()) {
    const { held, most, free } = rooms[i]!;
    if (line.quantity > free) {
      othersHold ||= held > 0;
      issues.push({ field: `lines.${i}.quantity`, message: holdLimitMessage(line, { held, most, free }) });
    }
  }
  if (!issues.length) return undefined;
  const listed = issues.map((i) => i.message).join('; ');
  return new ApiError(
    409,
    'product_hold_limit',
    othersHold
      ? `Too many of these are waiting in other shoppers' unpaid orders: ${listed}. Order fewer, try again in a few hours, or contact us on ${STORE.phone} and we will sort it out with you.`
      : `We keep only part of a product's stock for orders not yet paid: ${listed}. Order fewer now and the rest once this order is paid, or contact us on ${STORE.phone} and we will sort it out with you.`,
    issues,
  );
}
