import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminTradeInDetail,
  adminTradeInQuerySchema,
  AdminTradeInSummary,
  moveTradeInSchema,
} from '../../src/features/trade-ins/admin/admin-trade-in-api.ts';
import { TRADE_IN_STATUSES, type TradeInStatus } from '../../src/features/trade-ins/trade-in-status.ts';
import { nairaToKobo } from '../../src/lib/money.ts';
import type { Db } from '../platform/db.ts';
import { tradeInEvents, tradeInPhotos, tradeIns, type TradeInRow, type UserRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { findTradeIn } from './find.ts';
import { moveTradeIn, tradeInChanged } from './move.ts';
import { servePhoto } from './photos.ts';
import { loadTradeInParts, toTradeInView } from './view.ts';
import { auditTrail } from '../platform/audit.ts';
import { historyEntries, historyQuery } from '../platform/history.ts';
import { adminSearch } from '../platform/admin-search.ts';

/** The admin's trade-in queue (src/features/trade-ins/admin/admin-trade-in-api.ts). */

export const ADMIN_TRADE_INS_PAGE_SIZE = 20;

const notFound = (reference: string) => new ApiError(404, 'trade_in_not_found', `There is no trade-in request ${reference}.`);

const searchCondition = (q: string) =>
  adminSearch(q, {
    reference: tradeIns.reference,
    prefix: 'TRD',
    email: tradeIns.email,
    phone: tradeIns.phone,
    text: [tradeIns.name, tradeIns.model],
  });

const deviceName = (row: Pick<TradeInRow, 'brand' | 'model' | 'storage'>) =>
  [row.brand === 'Other' ? '' : row.brand, row.model, row.storage].filter(Boolean).join(' ');

export async function listTradeIns(db: Db, query: z.output<typeof adminTradeInQuerySchema>) {
  const where = and(query.status ? eq(tradeIns.status, query.status) : undefined, query.q ? searchCondition(query.q) : undefined);
  const [rows, [total], perStatus] = await db.batch([
    db
      .select()
      .from(tradeIns)
      .where(where)
      .orderBy(desc(tradeIns.createdAt), desc(sql`rowid`))
      .limit(ADMIN_TRADE_INS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_TRADE_INS_PAGE_SIZE),
    db.select({ n: count() }).from(tradeIns).where(where),
    db.select({ status: tradeIns.status, n: count() }).from(tradeIns).groupBy(tradeIns.status),
  ]);
  const photos = rows.length
    ? await db
        .select({ tradeInId: tradeInPhotos.tradeInId, n: count() })
        .from(tradeInPhotos)
        .where(
          inArray(
            tradeInPhotos.tradeInId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(tradeInPhotos.tradeInId)
    : [];
  const counts = Object.fromEntries(TRADE_IN_STATUSES.map((s) => [s, 0])) as Record<TradeInStatus, number>;
  for (const { status, n } of perStatus) counts[status] = n;
  return {
    tradeIns: rows.map(
      (row): AdminTradeInSummary => ({
        reference: row.reference,
        status: row.status,
        createdAt: row.createdAt.toISOString(),
        name: row.name,
        phone: row.phone,
        email: row.email,
        device: deviceName(row),
        want: row.wantKind,
        swapFor:
          row.wantKind === 'swap'
            ? `${row.swapName ?? row.swapProductId}${row.swapVariantLabel ? ` (${row.swapVariantLabel})` : ''}`
            : null,
        photos: photos.find((p) => p.tradeInId === row.id)?.n ?? 0,
        offer: row.offer,
      }),
    ),
    page: query.page,
    pageSize: ADMIN_TRADE_INS_PAGE_SIZE,
    total: total?.n ?? 0,
    counts,
  };
}

export async function tradeInDetail(db: Db, reference: string): Promise<AdminTradeInDetail> {
  const row = await findTradeIn(db, reference);
  if (!row) throw notFound(reference);
  return detailOf(db, row);
}

async function detailOf(db: Db, row: TradeInRow): Promise<AdminTradeInDetail> {
  const [parts, [photos, events], audit] = await Promise.all([
    loadTradeInParts(db, [row]),
    db.batch([
      db.select().from(tradeInPhotos).where(eq(tradeInPhotos.tradeInId, row.id)).orderBy(asc(tradeInPhotos.position)),
      historyQuery(db, tradeInEvents, eq(tradeInEvents.tradeInId, row.id)),
    ]),
    auditTrail(db, 'trade_in', row.reference),
  ]);
  return {
    tradeIn: toTradeInView(row, parts.get(row.id)!),
    version: String(row.version),
    photos: photos.map((p) => ({
      url: `/api/admin/trade-ins/${encodeURIComponent(row.reference)}/photos/${p.position + 1}`,
      contentType: p.contentType,
      bytes: p.bytes,
    })),
    history: historyEntries(events, () => true),
    audit,
  };
}

/** An admin's move, on the version the admin loaded; answers with the request as it now is. */
export async function moveTradeInAsAdmin(
  db: Db,
  config: Config,
  admin: Pick<UserRow, 'id' | 'email'>,
  reference: string,
  body: z.output<typeof moveTradeInSchema>,
): Promise<AdminTradeInDetail> {
  const row = await findTradeIn(db, reference);
  if (!row) throw notFound(reference);
  if (body.version !== String(row.version)) {
    throw tradeInChanged();
  }
  await moveTradeIn(
    db,
    config,
    row,
    body.move,
    { actor: 'admin', admin },
    {
      note: body.note,
      offer: body.move === 'offer' ? nairaToKobo(body.offerNaira) : undefined,
    },
  );
  return detailOf(db, (await findTradeIn(db, reference))!);
}

/** GET …/photos/:index (1-based): the photo's bytes, for admins only. */
export async function tradeInPhoto(db: Db, bucket: R2Bucket, reference: string, index: number): Promise<Response> {
  const [photo] = await db
    .select({ key: tradeInPhotos.key, contentType: tradeInPhotos.contentType })
    .from(tradeInPhotos)
    .innerJoin(tradeIns, eq(tradeIns.id, tradeInPhotos.tradeInId))
    .where(and(eq(tradeIns.reference, reference), eq(tradeInPhotos.position, index - 1)));
  if (!photo) throw new ApiError(404, 'photo_not_found', `Request ${reference} has no photo ${index}.`);
  return servePhoto(bucket, photo.key, photo.contentType);
}
