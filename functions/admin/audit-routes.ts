import { Hono } from 'hono';
import { adminAuditApi, auditQuerySchema } from '../../src/features/admin/admin-api.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { auditLog } from '../platform/audit.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { validate } from '../platform/validate.ts';

/** Where the admin router mounts this one (functions/admin/routes.ts); the route's path is its contract's (src/features/admin/admin-api.ts). */
export const ADMIN_AUDIT_BASE = '/api/admin/audit';

/** GET /api/admin/audit (behind requireAdmin): the store-wide audit log, newest first. */
export const adminAuditRoute = new Hono<SignedInEnv>().get(
  at(ADMIN_AUDIT_BASE, adminAuditApi.audit),
  validate('query', auditQuerySchema),
  async (c) => reply(c, adminAuditApi.audit, await auditLog(c.var.db, c.req.valid('query'))),
);
