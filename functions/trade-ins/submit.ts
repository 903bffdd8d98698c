import type { TradeInRequest, TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import type { Db } from '../platform/db.ts';
import { constraintViolation, isUniqueViolation } from '../platform/constraint-errors.ts';
import { loadPricingProducts } from '../catalogue/products.ts';
import { tradeInEvents, tradeInPhotos, tradeIns, type TradeInRow } from '../platform/schema.ts';
import { queueEmail } from '../platform/outbox.ts';
import { tradeInReceivedEmail } from './messages.ts';
import type { Config } from '../env.ts';
import { newTradeInReference } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { deletePhotos, type Photo, storePhotos } from './photos.ts';
import { toTradeInView } from './view.ts';

/**
 * Stores a trade-in request: its photos in R2 first, then one D1 batch with the request, its
 * photos' rows, the first history row and the confirmation e-mail. If the batch fails the
 * photos are deleted (and the cron sweeps any a crash left), so a request is never half-stored.
 * The e-mail goes to whatever address was typed, so it is left out past the per-recipient limit
 * (RATE_LIMIT_EMAIL_RECIPIENT): the request is still taken, and the answer is the same.
 */
export async function submitTradeIn(
  db: Db,
  bucket: R2Bucket,
  config: Config,
  request: TradeInRequest,
  photos: readonly Photo[],
  userId: string | null,
  now = new Date(),
  // Decided once: a retry after a reference collision must not count the address twice.
  confirmByEmail?: boolean,
): Promise<TradeInView> {
  // D1 keeps whole seconds: the answer must equal the request read back later.
  now = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const swap = await swapChoice(db, request.want);

  const id = crypto.randomUUID();
  const row: TradeInRow = {
    id,
    reference: newTradeInReference(),
    status: 'new',
    userId,
    name: request.contact.name,
    email: request.contact.email,
    phone: request.contact.phone,
    state: request.contact.state,
    category: request.device.category,
    brand: request.device.brand,
    model: request.device.model,
    storage: request.device.storage,
    ...request.condition,
    wantKind: request.want.kind,
    swapProductId: swap?.productId ?? null,
    swapVariantId: swap?.variantId ?? '',
    swapName: swap?.name ?? null,
    swapVariantLabel: swap?.variantLabel ?? '',
    offer: null,
    offerNote: null,
    offeredAt: null,
    orderId: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const emailAllowed = confirmByEmail ?? (await allowEmailTo(db, config, request.contact.email, 'trade_in'));
  const stored = await storePhotos(bucket, id, photos);
  const view = toTradeInView(row, {
    photos: stored.length,
    events: [{ toStatus: 'new', createdAt: now, note: null }],
    order: null,
    price: swap?.price ?? null,
  });
  try {
    await db.batch([
      db.insert(tradeIns).values(row),
      ...stored.map((p) => db.insert(tradeInPhotos).values({ tradeInId: id, ...p })),
      db.insert(tradeInEvents).values({
        tradeInId: id,
        fromStatus: null,
        toStatus: 'new',
        actor: 'customer',
        actorUserId: userId,
        createdAt: now,
      }),
      ...(emailAllowed ? [queueEmail(db, tradeInReceivedEmail(view, config.SITE_URL))] : []),
    ]);
  } catch (err) {
    await deletePhotos(
      bucket,
      stored.map((p) => p.key),
    );
    // 50 random bits collided: try once more with a new reference.
    if (isUniqueViolation(constraintViolation(err), tradeIns.reference)) {
      return submitTradeIn(db, bucket, config, request, photos, userId, now, emailAllowed);
    }
    throw err;
  }
  return view;
}

/** A swap's product and variant as D1 has them now: on sale, and the variant one of its own. */
async function swapChoice(db: Db, want: TradeInRequest['want']) {
  if (want.kind !== 'swap') return undefined;
  const product = (await loadPricingProducts(db, [want.productId])).get(want.productId);
  if (!product) {
    throw new ApiError(400, 'invalid_request', 'The product to swap for is not on sale.', [
      { field: 'want.productId', message: 'This product is not on sale any more: choose another' },
    ]);
  }
  if (!product.variants.length) {
    if (want.variant !== '') {
      throw new ApiError(400, 'invalid_request', 'That product has no options to choose from.', [
        { field: 'want.variant', message: 'This product has no options' },
      ]);
    }
    return { productId: product.id, variantId: '', name: product.name, variantLabel: '', price: product.price };
  }
  const variant = product.variants.find((v) => v.id === want.variant);
  if (!variant) {
    throw new ApiError(400, 'invalid_request', `Choose one of the options of ${product.name}.`, [
      { field: 'want.variant', message: `Choose one of: ${product.variants.map((v) => v.label).join(', ')}` },
    ]);
  }
  return { productId: product.id, variantId: variant.id, name: product.name, variantLabel: variant.label, price: variant.price };
}
