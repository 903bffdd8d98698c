import { Hono } from 'hono';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { loadDashboard } from './dashboard.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { reply } from '../platform/reply.ts';

/** GET /api/admin/dashboard (behind requireAdmin, functions/admin/routes.ts). */
export const adminDashboardRoute = new Hono<SignedInEnv>().get('/', async (c) =>
  reply(c, adminApi.dashboard, await loadDashboard(c.var.db, c.var.config)),
);
