import { CATEGORY_IDS, type CategoryId } from '../catalogue/categories.ts';
import { AUDIT_ENTITIES, type AuditEntity } from './admin-contract.ts';
import { ORDER_STATUSES, type OrderStatus } from '../orders/order-status.ts';
import { TRADE_IN_STATUSES, type TradeInStatus } from '../trade-ins/trade-in-status.ts';

/**
 * Where the admin is, kept in the address so a reload, a shared link and Back all work:
 * `/admin?tab=orders&status=payment_reported&q=…&order=GTS-…`, `?tab=products&edit=<id>|new`,
 * `?tab=trade-ins&status=new&q=…&tradeIn=TRD-…`, `?tab=subscribers`, `?tab=payments&view=all`, `?tab=audit&kind=image`. Pure: parsed from and written to a query string.
 */
export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'orders', label: 'Orders' },
  { id: 'products', label: 'Products' },
  { id: 'trade-ins', label: 'Trade-ins' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'payments', label: 'Payments' },
  { id: 'audit', label: 'Audit log' },
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number]['id'];

export interface AdminRoute {
  tab: AdminTab;
  /** Orders: the status filter. */
  status?: OrderStatus;
  /** Trade-ins: the status filter (`status` in the address, as for orders). */
  tradeInStatus?: TradeInStatus;
  /** Trade-ins: the request open in detail. */
  tradeIn?: string;
  /** Orders, products, trade-ins, subscribers: the search. */
  q?: string;
  /** A list's page (1 when absent). */
  page?: number;
  /** Orders: the order open in detail. */
  order?: string;
  /** Products: the product open in the form ('new' for a new one). */
  edit?: string;
  /** Products: the category filter. */
  category?: CategoryId;
  /** Products: the archived ones instead of those on sale. */
  archived?: boolean;
  /** Payments: every one instead of those waiting for a person. */
  paymentsView?: 'all';
  /** Audit log: one kind of thing (`kind` in the address). */
  auditEntity?: AuditEntity;
}

export const ADMIN_PATH = '/admin';

const isTab = (value: string | null): value is AdminTab => ADMIN_TABS.some((t) => t.id === value);
const isStatus = (value: string | null): value is OrderStatus => ORDER_STATUSES.some((s) => s === value);
const isTradeInStatus = (value: string | null): value is TradeInStatus => TRADE_IN_STATUSES.some((s) => s === value);
const isCategory = (value: string | null): value is CategoryId => CATEGORY_IDS.some((c) => c === value);
const isAuditEntity = (value: string | null): value is AuditEntity => AUDIT_ENTITIES.some((e) => e === value);

function text(value: string | null, max = 100): string | undefined {
  const trimmed = value?.trim().slice(0, max);
  return trimmed ? trimmed : undefined;
}

function pageNumber(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 && n <= 10_000 ? n : undefined;
}

/** The route a query string names; anything unknown or out of place is left out. */
export function parseAdminRoute(search: string): AdminRoute {
  const params = new URLSearchParams(search);
  const tabParam = params.get('tab');
  const tab: AdminTab = isTab(tabParam) ? tabParam : 'dashboard';
  const q = text(params.get('q'));
  const page = pageNumber(params.get('page'));
  switch (tab) {
    case 'dashboard':
      return { tab };
    case 'orders': {
      const status = params.get('status');
      return { tab, q, page, status: isStatus(status) ? status : undefined, order: text(params.get('order'), 40) };
    }
    case 'products': {
      const category = params.get('category');
      return {
        tab,
        q,
        page,
        category: isCategory(category) ? category : undefined,
        archived: params.get('archived') === 'true' ? true : undefined,
        edit: text(params.get('edit'), 80),
      };
    }
    case 'trade-ins': {
      const status = params.get('status');
      return {
        tab,
        q,
        page,
        tradeInStatus: isTradeInStatus(status) ? status : undefined,
        tradeIn: text(params.get('tradeIn'), 40),
      };
    }
    case 'subscribers':
      return { tab, q, page };
    case 'payments':
      return { tab, page, paymentsView: params.get('view') === 'all' ? 'all' : undefined };
    case 'audit': {
      const kind = params.get('kind');
      return { tab, page, auditEntity: isAuditEntity(kind) ? kind : undefined };
    }
  }
}

/** The address of a route: `/admin` for the dashboard, `/admin?tab=…&…` otherwise. */
export function adminHref(route: AdminRoute): string {
  const params = new URLSearchParams();
  if (route.tab !== 'dashboard') params.set('tab', route.tab);
  if (route.status) params.set('status', route.status);
  if (route.tradeInStatus) params.set('status', route.tradeInStatus);
  if (route.category) params.set('category', route.category);
  if (route.archived) params.set('archived', 'true');
  if (route.q) params.set('q', route.q);
  if (route.page && route.page > 1) params.set('page', String(route.page));
  if (route.order) params.set('order', route.order);
  if (route.tradeIn) params.set('tradeIn', route.tradeIn);
  if (route.edit) params.set('edit', route.edit);
  if (route.paymentsView) params.set('view', route.paymentsView);
  if (route.auditEntity) params.set('kind', route.auditEntity);
  const search = params.toString();
  return search ? `${ADMIN_PATH}?${search}` : ADMIN_PATH;
}

/** The query string an admin list endpoint takes for a route (its filters, search and page). */
export function listQuery(route: AdminRoute): URLSearchParams {
  const query = new URLSearchParams();
  if (route.status) query.set('status', route.status);
  if (route.tradeInStatus) query.set('status', route.tradeInStatus);
  if (route.category) query.set('category', route.category);
  if (route.archived) query.set('archived', 'true');
  if (route.q) query.set('q', route.q);
  if (route.auditEntity) query.set('entity', route.auditEntity);
  if (route.page && route.page > 1) query.set('page', String(route.page));
  return query;
}

/** "5 min ago", "3 h ago", "2 d ago": how long ago `iso` was, as of `now`. */
export function timeAgo(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "in 40 min", "in 5 h", or "now" once it has passed. */
export function timeUntil(iso: string, now: number): string {
  const minutes = Math.floor((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  return `in ${Math.floor(minutes / 60)} h`;
}

/** How many pages a list has. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}
