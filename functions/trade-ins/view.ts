import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { isClosedWithoutSale, type OrderStatus } from '../../src/features/orders/order-status.ts';
import type { TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import type { Db } from '../platform/db.ts';
import {
  orders,
  productVariants,
  products,
  tradeInEvents,
  tradeInPhotos,
  type TradeInRow,
  type UserRow,
} from '../platform/schema.ts';
import { requestsOf } from './find.ts';

export interface TradeInParts {
  photos: number;
  events: { toStatus: TradeInRow['status']; createdAt: Date; note: string | null }[];
  order: { number: string; status: OrderStatus } | null;
  /** The swap product's price now (kobo), null when it is not on sale or it is a cash request. */
  price: number | null;
}

/** A request as the API shows it to its shopper (src/features/trade-ins/trade-in.ts). */
export function toTradeInView(row: TradeInRow, parts: TradeInParts): TradeInView {
  const swap = row.wantKind === 'swap' && row.swapProductId !== null;
  const orderLive = parts.order !== null && !isClosedWithoutSale(parts.order.status);
  return {
    reference: row.reference,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    device: { category: row.category, brand: row.brand, model: row.model, storage: row.storage },
    condition: {
      turnsOn: row.turnsOn,
      screenCracked: row.screenCracked,
      bodyDents: row.bodyDents,
      batteryHealth: row.batteryHealth,
      accountRemoved: row.accountRemoved,
      originalBox: row.originalBox,
      notes: row.notes,
    },
    want: swap
      ? {
          kind: 'swap',
          productId: row.swapProductId!,
          variant: row.swapVariantId,
          name: row.swapName ?? row.swapProductId!,
          variantLabel: row.swapVariantLabel,
          price: parts.price,
        }
      : { kind: 'cash' },
    photos: parts.photos,
    contact: { name: row.name, email: row.email, phone: row.phone, state: row.state },
    offer:
      row.offer !== null && row.offeredAt !== null
        ? { amount: row.offer, note: row.offerNote ?? '', at: row.offeredAt.toISOString() }
        : null,
    difference: swap && row.offer !== null && parts.price !== null ? parts.price - row.offer : null,
    history: parts.events.map((e) => ({ status: e.toStatus, at: e.createdAt.toISOString(), note: e.note })),
    order: parts.order,
    canRespond: row.status === 'offer_made',
    canOrder: row.status === 'accepted' && swap && parts.price !== null && !orderLive,
  };
}

/** What the views of these requests need besides their rows, in one round trip. */
export async function loadTradeInParts(db: Db, rows: readonly TradeInRow[]): Promise<Map<string, TradeInParts>> {
  const parts = new Map<string, TradeInParts>(
    rows.map((r) => [r.id, { photos: 0, events: [], order: null, price: null } satisfies TradeInParts]),
  );
  if (!rows.length) return parts;
  const ids = rows.map((r) => r.id);
  const orderIds = rows.flatMap((r) => (r.orderId ? [r.orderId] : []));
  const swaps = rows.filter((r) => r.wantKind === 'swap' && r.swapProductId);
  const [photos, events, orderRows, prices] = await db.batch([
    db
      .select({ tradeInId: tradeInPhotos.tradeInId, n: count() })
      .from(tradeInPhotos)
      .where(inArray(tradeInPhotos.tradeInId, ids))
      .groupBy(tradeInPhotos.tradeInId),
    db
      .select({
        tradeInId: tradeInEvents.tradeInId,
        toStatus: tradeInEvents.toStatus,
        createdAt: tradeInEvents.createdAt,
        note: tradeInEvents.note,
      })
      .from(tradeInEvents)
      .where(inArray(tradeInEvents.tradeInId, ids))
      .orderBy(asc(tradeInEvents.id)),
    db
      .select({ id: orders.id, number: orders.number, status: orders.status })
      .from(orders)
      .where(inArray(orders.id, orderIds.length ? orderIds : [''])),
    // The swap's price now: the variant's, or the product's for one without variants; on sale only.
    db
      .select({
        productId: products.id,
        variantId: sql<string>`coalesce(${productVariants.id}, '')`,
        variantLabel: sql<string>`coalesce(${productVariants.label}, '')`,
        price: sql<number>`coalesce(${productVariants.price}, ${products.price})`,
      })
      .from(products)
      .leftJoin(productVariants, eq(productVariants.productId, products.id))
      .where(
        and(
          inArray(products.id, swaps.length ? [...new Set(swaps.map((s) => s.swapProductId!))] : ['']),
          eq(products.active, true),
        ),
      ),
  ]);
  for (const p of photos) parts.get(p.tradeInId)!.photos = p.n;
  for (const e of events) parts.get(e.tradeInId)!.events.push(e);
  for (const row of rows) {
    const part = parts.get(row.id)!;
    const order = orderRows.find((o) => o.id === row.orderId);
    if (order) part.order = { number: order.number, status: order.status };
    if (row.wantKind === 'swap') {
      // The variant the offer was made for: the same id and still the same label (an admin may
      // remove a variant and add another under its id); else it is no longer on sale as offered.
      part.price =
        prices.find(
          (p) =>
            p.productId === row.swapProductId &&
            p.variantId === row.swapVariantId &&
            sameLabel(p.variantLabel, row.swapVariantLabel),
        )?.price ?? null;
    }
  }
  return parts;
}

/** Labels alike but for case and spaces ("128GB", "128 GB"). */
const sameLabel = (a: string, b: string) => a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();

export async function loadTradeInView(db: Db, row: TradeInRow): Promise<TradeInView> {
  const parts = await loadTradeInParts(db, [row]);
  return toTradeInView(row, parts.get(row.id)!);
}

/** A signed-in shopper's requests as they see them, newest first (the account's Trade-ins page, GET /api/account/trade-ins). */
export async function userTradeInViews(db: Db, user: Pick<UserRow, 'id' | 'email' | 'emailVerified'>): Promise<TradeInView[]> {
  const rows = await requestsOf(db, user);
  const parts = await loadTradeInParts(db, rows);
  return rows.map((row) => toTradeInView(row, parts.get(row.id)!));
}
