import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { subscriberQuerySchema } from '../../src/features/newsletter/admin/admin-subscriber-api.ts';
import type { Db } from '../platform/db.ts';
import { adminAudit, newsletterSubscribers, type UserRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { unsubscribeUrl } from './messages.ts';

/**
 * The newsletter's addresses as the admin sees them: a searchable list (subscribers and those still
 * waiting to confirm), a CSV export of the confirmed ones, removal.
 */

export const SUBSCRIBERS_PAGE_SIZE = 50;

export async function listSubscribers(db: Db, { q, page }: z.output<typeof subscriberQuerySchema>) {
  // Addresses are stored lower-cased; a fragment matches anywhere in one.
  const text = q?.trim().toLowerCase();
  const where = text ? sql`instr(${newsletterSubscribers.email}, ${text}) > 0` : undefined;
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(newsletterSubscribers)
      .where(where)
      // Newest first by id: rows are numbered as they subscribe, and the primary key needs no sort.
      .orderBy(desc(newsletterSubscribers.id))
      .limit(SUBSCRIBERS_PAGE_SIZE)
      .offset((page - 1) * SUBSCRIBERS_PAGE_SIZE),
    db
      .select({ n: count(), confirmed: count(newsletterSubscribers.confirmedAt) })
      .from(newsletterSubscribers)
      .where(where),
  ]);
  return {
    subscribers: rows.map((r) => ({
      id: r.id,
      email: r.email,
      createdAt: r.createdAt.toISOString(),
      confirmedAt: r.confirmedAt?.toISOString() ?? null,
    })),
    page,
    pageSize: SUBSCRIBERS_PAGE_SIZE,
    total: total?.n ?? 0,
    confirmed: total?.confirmed ?? 0,
  };
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF, with its quotes
 * doubled. A field a spreadsheet would run as a formula (starting with = + - @, a tab or CR)
 * is first prefixed with a single quote, so opening the export runs nothing.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Every confirmed subscriber, oldest first (by id), as CSV: `email,subscribed_at,unsubscribe_url`
 * (when they confirmed, ISO 8601 UTC; the link a marketing tool must put in what it sends), lines
 * ending CRLF. Addresses still waiting gave no consent yet, so they are not in it.
 */
export async function subscribersCsv(db: Db, config: Config): Promise<{ csv: string; people: number }> {
  const rows = await db
    .select({ email: newsletterSubscribers.email, confirmedAt: newsletterSubscribers.confirmedAt })
    .from(newsletterSubscribers)
    .where(isNotNull(newsletterSubscribers.confirmedAt))
    .orderBy(asc(newsletterSubscribers.id));
  const lines = [['email', 'subscribed_at', 'unsubscribe_url']];
  for (const { email, confirmedAt } of rows)
    if (confirmedAt) lines.push([email, confirmedAt.toISOString(), await unsubscribeUrl(config, email)]);
  return { csv: lines.map((fields) => `${fields.map(csvField).join(',')}\r\n`).join(''), people: lines.length - 1 };
}

/** The export's file name: subscribers-YYYY-MM-DD.csv, the day in Lagos (UTC+1). */
export function exportFileName(now = new Date()): string {
  return `subscribers-${new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10)}.csv`;
}

/**
 * Removes a subscriber and records who did, in one batch: the audit row is an INSERT … SELECT
 * of the row about to go, so two admins removing the same address at once write one row
 * (the second finds nothing and answers 404).
 */
export async function removeSubscriber(db: Db, admin: Pick<UserRow, 'id' | 'email'>, id: number): Promise<void> {
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).limit(1);
  if (!row) throw notFound(id);
  const changes = { email: { from: row.email, to: null } };
  const [, deleted] = await db.batch([
    db.insert(adminAudit).select(
      db
        .select({
          id: sql<number>`NULL`.as('id'),
          entity: sql`'subscriber'`.as('entity'),
          entityId: sql`${String(id)}`.as('entity_id'),
          action: sql`'remove'`.as('action'),
          actorUserId: sql`${admin.id}`.as('actor_user_id'),
          actorEmail: sql`${admin.email}`.as('actor_email'),
          changes: sql`${JSON.stringify(changes)}`.as('changes'),
          createdAt: sql`(unixepoch())`.as('created_at'),
        })
        .from(newsletterSubscribers)
        .where(and(eq(newsletterSubscribers.id, id), eq(newsletterSubscribers.email, row.email))),
    ),
    db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).returning({ id: newsletterSubscribers.id }),
  ]);
  if (!deleted.length) throw notFound(id);
}

const notFound = (id: number) => new ApiError(404, 'not_found', `There is no subscriber ${id}.`);
