import { and, desc, eq, sql } from 'drizzle-orm';
import type { Review } from '../../src/features/account/account-api.ts';
import type { Db } from '../platform/db.ts';
import { recomputeShownRating } from '../catalogue/products.ts';
import { orderLines, orders, products, reviews } from '../platform/schema.ts';
import { ApiError } from '../platform/errors.ts';

const reviewColumns = {
  productId: reviews.productId,
  productName: products.name,
  image: products.image,
  rating: reviews.rating,
  comment: reviews.comment,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
};

type ReviewRowView = {
  productId: string;
  productName: string;
  image: string;
  rating: number;
  comment: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const toReview = (r: ReviewRowView): Review => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The user's reviews, newest first. */
export async function userReviews(db: Db, userId: string): Promise<Review[]> {
  const rows = await db
    .select(reviewColumns)
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(eq(reviews.userId, userId))
    .orderBy(desc(reviews.updatedAt), desc(reviews.id));
  return rows.map(toReview);
}

/** Products in the user's delivered orders (what they may rate), each with their review if any. */
export async function reviewableProducts(db: Db, userId: string) {
  const rows = await db
    .selectDistinct({ productId: products.id, productName: products.name, image: products.image })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(eq(orders.userId, userId), eq(orders.status, 'delivered')))
    .orderBy(products.name);
  const own = new Map((await userReviews(db, userId)).map((r) => [r.productId, r]));
  return rows.map((row) => ({ ...row, review: own.get(row.productId) ?? null }));
}

/**
 * Rates a product the user received (in one of their delivered orders), or replaces their
 * earlier rating of it: one review per user and product (UNIQUE(user_id, product_id)). The
 * product's rating and review count are recomputed in the same batch, from its catalogue
 * history and all of its reviews here (SHOWN_RATING_SQL in functions/catalogue/products.ts).
 */
export async function saveReview(db: Db, userId: string, input: { productId: string; rating: number; comment?: string | null }) {
  const [bought, existing] = await db.batch([
    db
      .select({ one: sql<number>`1` })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(orders.userId, userId), eq(orders.status, 'delivered'), eq(orderLines.productId, input.productId)))
      .limit(1),
    db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.userId, userId), eq(reviews.productId, input.productId))),
  ]);
  if (!bought.length) {
    throw new ApiError(403, 'not_purchased', 'You can rate a product once an order of yours with it has been delivered.');
  }
  const comment = input.comment ?? null;
  const [, , saved, product] = await db.batch([
    db
      .insert(reviews)
      .values({ userId, productId: input.productId, rating: input.rating, comment })
      .onConflictDoUpdate({
        target: [reviews.userId, reviews.productId],
        set: { rating: input.rating, comment, updatedAt: sql`(unixepoch())` },
      }),
    recomputeShownRating(db, input.productId),
    db
      .select(reviewColumns)
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(and(eq(reviews.userId, userId), eq(reviews.productId, input.productId))),
    db
      .select({ id: products.id, rating: products.rating, reviews: products.reviews })
      .from(products)
      .where(eq(products.id, input.productId)),
  ]);
  return { created: !existing.length, review: toReview(saved[0]!), product: product[0]! };
}
