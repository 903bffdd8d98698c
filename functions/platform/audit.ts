import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AuditLog } from '../../src/features/admin/admin-api.ts';
import type { AuditEntry } from '../../src/features/admin/admin-contract.ts';
import type { Db } from './db.ts';
import { adminAudit, type AuditEntity, type UserRow } from './schema.ts';

export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * The audit row for an admin's change, as a statement for the change's own D1 batch, so a
 * change is never stored without its row, nor a row without its change. With `onlyIf`, the
 * row is written only if that holds when the batch runs (an INSERT … SELECT … WHERE): for a
 * change that may lose its race without refusing its batch, an order's move
 * (functions/orders/move.ts hands its moves `won`), so the move that lost records nothing.
 */
export function auditStatement(
  db: Db,
  admin: Pick<UserRow, 'id' | 'email'>,
  entity: AuditEntity,
  entityId: string,
  action: string,
  changes: Changes,
  onlyIf?: SQL,
) {
  if (!onlyIf) {
    return db.insert(adminAudit).values({ entity, entityId, action, actorUserId: admin.id, actorEmail: admin.email, changes });
  }
  return db
    .insert(adminAudit)
    .select(
      sql`SELECT NULL, ${entity}, ${entityId}, ${action}, ${admin.id}, ${admin.email}, ${JSON.stringify(changes)}, unixepoch() WHERE ${onlyIf}`,
    );
}

/**
 * The fields whose values differ between two versions of a record, each with what it was
 * and what it became; values are compared as JSON (so nested lists, like variants, count
 * as one field). A field missing on one side is undefined there.
 */
export function changedFields(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Changes {
  const changes: Changes = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key];
    const to = after[key];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from: from ?? null, to: to ?? null };
  }
  return changes;
}

/** What admins changed on one product, order or subscriber, newest first. */
export async function auditTrail(db: Db, entity: AuditEntity, entityId: string, limit = 100): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(adminAudit)
    .where(and(eq(adminAudit.entity, entity), eq(adminAudit.entityId, entityId)))
    .orderBy(desc(adminAudit.id))
    .limit(limit);
  return rows.map((row) => ({
    at: row.createdAt.toISOString(),
    by: row.actorEmail,
    action: row.action,
    changes: row.changes,
  }));
}

/** The audit log's page size. */
export const AUDIT_LOG_PAGE_SIZE = 50;

/** Every admin's changes to the store (or to one kind of thing), newest first, a page at a time. */
export async function auditLog(db: Db, { entity, page }: { entity?: AuditEntity | undefined; page: number }): Promise<AuditLog> {
  const where = entity ? eq(adminAudit.entity, entity) : undefined;
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(adminAudit)
      .where(where)
      .orderBy(desc(adminAudit.id))
      .limit(AUDIT_LOG_PAGE_SIZE)
      .offset((page - 1) * AUDIT_LOG_PAGE_SIZE),
    db.select({ n: count() }).from(adminAudit).where(where),
  ]);
  return {
    entries: rows.map((row) => ({
      at: row.createdAt.toISOString(),
      by: row.actorEmail,
      action: row.action,
      changes: row.changes,
      entity: row.entity,
      entityId: row.entityId,
    })),
    page,
    pageSize: AUDIT_LOG_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}
