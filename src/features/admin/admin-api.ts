import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { adminProductApi } from '../catalogue/admin/admin-product-api.ts';
import { adminSubscriberApi } from '../newsletter/admin/admin-subscriber-api.ts';
import { adminPaymentApi } from '../payments/admin/admin-payment-api.ts';
import { adminOrderApi, adminOrderSummarySchema } from '../orders/admin/admin-order-api.ts';
import { adminTradeInApi } from '../trade-ins/admin/admin-trade-in-api.ts';
import { AUDIT_ENTITIES, auditEntrySchema, count, instant, kobo, page, paging } from './admin-contract.ts';

/**
 * The admin's own contract (the dashboard), and `adminApi`: every admin endpoint in one object,
 * gathered from the features' admin contracts (src/features/<feature>/admin/admin-*-api.ts) for
 * what looks at all of them (the contract tests). A screen imports its own feature's.
 */

export const dashboardSchema = z.object({
  generatedAt: instant,
  /** Transfers shoppers reported and nobody confirmed yet, oldest first. */
  reportedPayments: z.array(adminOrderSummarySchema),
  /** Recorded payments that wait for a person (unmatched, owed back): /admin's payments list. Absent before payments existed. */
  paymentsWaiting: count.optional(),
  /** Unpaid orders whose hold ends within the next 12 hours, soonest first. */
  expiringSoon: z.array(adminOrderSummarySchema),
  /** Products and variants on sale at or below LOW_STOCK_THRESHOLD units, fewest first. */
  lowStock: z.array(
    z.object({ productId: z.string(), variantId: z.string(), name: z.string(), variant: z.string(), stock: count }),
  ),
  lowStockThreshold: count,
  alertHours: z.number().positive(),
  /** The last 30 days (Lagos time), oldest first: orders placed, and revenue of those paid (paid, shipped or delivered). */
  daily: z.array(z.object({ day: z.iso.date(), orders: count, revenue: kobo })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const adminDashboardApi = {
  dashboard: endpoint({ method: 'GET', path: '/api/admin/dashboard', response: dashboardSchema }),
};

/** The store-wide audit log's query: one kind of thing (all when absent), and the page. */
export const auditQuerySchema = z.object({ entity: z.enum(AUDIT_ENTITIES, { error: 'Unknown kind' }).optional(), page });
export const auditLogSchema = z.object({
  /** Newest first: each change with what it was made to (a product's id, an order's number, an exported file's name…). */
  entries: z.array(auditEntrySchema.extend({ entity: z.enum(AUDIT_ENTITIES), entityId: z.string() })),
  ...paging,
});
export type AuditLog = z.infer<typeof auditLogSchema>;

export const adminAuditApi = {
  /** Every admin's every change, the whole store's: what no one screen shows (exports, uploads) too. */
  audit: endpoint({ method: 'GET', path: '/api/admin/audit', response: auditLogSchema }),
};

/** Every admin endpoint (src/lib/api-contract.ts). */
export const adminApi = {
  ...adminDashboardApi,
  ...adminAuditApi,
  ...adminOrderApi,
  ...adminProductApi,
  ...adminTradeInApi,
  ...adminSubscriberApi,
  ...adminPaymentApi,
};
