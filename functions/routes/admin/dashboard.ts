import { Hono } from 'hono';
import { adminApi } from '../../../src/features/admin/admin-api.ts';
import { loadDashboard } from '../../admin/dashboard.ts';
import type { SignedInEnv } from '../../auth/session.ts';
import { reply } from '../../lib/reply.ts';

/** GET /api/admin/dashboard (behind requireAdmin, functions/routes/admin/index.ts). */
export const adminDashboardRoute = new Hono<SignedInEnv>().get('/', async (c) =>
  reply(c, adminApi.dashboard, await loadDashboard(c.var.db, c.var.config)),
);
