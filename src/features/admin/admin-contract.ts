import { z } from 'zod';

/**
 * What every part of the admin API's contract shares (src/lib/api-contract.ts): money in kobo,
 * counts, instants, a list's paging and search, the version a change names, and the audit
 * trail. Each feature's admin contract lives with the feature (src/features/<feature>/admin/);
 * src/features/admin/admin-api.ts gathers them. Everything under /api/admin/* sits behind one
 * middleware that answers 401 to guests and 403 to signed-in users who are not admins
 * (functions/admin/routes.ts).
 */
export const kobo = z.number().int().nonnegative();
export const count = z.number().int().nonnegative();
export const instant = z.iso.datetime();
export const page = z.coerce.number().int().min(1, 'Pages start at 1').max(10_000).default(1);
export const search = z.string().trim().max(100, 'Search for at most 100 characters').optional();

/** A list's page: which one, how many per page, and how many there are in all. */
export const paging = { page: z.number().int().positive(), pageSize: z.number().int().positive(), total: count };

/** What the audit trail records admins' changes to (admin_audit.entity). */
export const AUDIT_ENTITIES = ['product', 'order', 'subscriber', 'trade_in', 'payment', 'image'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/**
 * One entry of the audit trail: an admin's change to a product, an order or a subscriber.
 * `changes` maps each changed field to what it was and what it became.
 */
export const auditEntrySchema = z.object({
  at: instant,
  by: z.string(),
  action: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The version a change names: the Worker refuses it with 409 when someone changed the thing meanwhile. */
export const version = z.string({ error: 'Reload the order and try again' }).min(1).max(100);
