import { Hono } from 'hono';
import { adminDashboardApi } from '../../src/features/admin/admin-api.ts';
import { loadDashboard } from './dashboard.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';

/** Where the admin router mounts this one (functions/admin/routes.ts); the route's path is its contract's (src/features/admin/admin-api.ts). */
export const ADMIN_DASHBOARD_BASE = '/api/admin/dashboard';

/** GET /api/admin/dashboard (behind requireAdmin, functions/admin/routes.ts). */
export const adminDashboardRoute = new Hono<SignedInEnv>().get(at(ADMIN_DASHBOARD_BASE, adminDashboardApi.dashboard), async (c) =>
  reply(c, adminDashboardApi.dashboard, await loadDashboard(c.var.db, c.var.config)),
);
