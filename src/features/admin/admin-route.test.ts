import { describe, expect, it } from 'vitest';
import { ADMIN_TABS, adminHref, listQuery, parseAdminRoute } from './admin-route.ts';

describe('admin route: trade-ins', () => {
  it('has a Trade-ins tab', () => {
    expect(ADMIN_TABS.map((t) => t.id)).toContain('trade-ins');
    expect(ADMIN_TABS.find((t) => t.id === 'trade-ins')?.label).toBe('Trade-ins');
  });

  it('reads the status filter, search, page and open request', () => {
    expect(parseAdminRoute('?tab=trade-ins&status=offer_made&q=%20iphone%20&page=3&tradeIn=TRD-7K3M9Q2XWD')).toEqual({
      tab: 'trade-ins',
      tradeInStatus: 'offer_made',
      q: 'iphone',
      page: 3,
      tradeIn: 'TRD-7K3M9Q2XWD',
    });
  });

  it('leaves out a status that is not a trade-in status (an order status, say)', () => {
    expect(parseAdminRoute('?tab=trade-ins&status=paid').tradeInStatus).toBeUndefined();
    expect(parseAdminRoute('?tab=trade-ins&status=paid').status).toBeUndefined();
    expect(parseAdminRoute('?tab=orders&status=new').status).toBeUndefined();
  });

  it('writes the same address back', () => {
    const search = '?tab=trade-ins&status=new&q=ada&page=2&tradeIn=TRD-ABCD1234';
    const route = parseAdminRoute(search);
    expect(adminHref(route)).toBe(`/admin${search}`);
    expect(parseAdminRoute(new URL(adminHref(route), 'https://gts.test').search)).toEqual(route);
  });

  it('asks the list endpoint for the status, search and page, never the open request', () => {
    const query = listQuery(parseAdminRoute('?tab=trade-ins&status=declined&q=x&page=2&tradeIn=TRD-ABCD1234'));
    expect(query.toString()).toBe('status=declined&q=x&page=2');
  });

  it('keeps order routes as they were', () => {
    const route = parseAdminRoute('?tab=orders&status=paid&order=GTS-1');
    expect(route).toEqual({ tab: 'orders', status: 'paid', order: 'GTS-1', q: undefined, page: undefined });
    expect(adminHref(route)).toBe('/admin?tab=orders&status=paid&order=GTS-1');
  });
});

describe('admin route: payments', () => {
  it('has a Payments tab that shows the waiting ones unless asked for all, and writes the same address back', () => {
    expect(ADMIN_TABS.find((t) => t.id === 'payments')?.label).toBe('Payments');
    expect(parseAdminRoute('?tab=payments')).toEqual({ tab: 'payments', page: undefined, paymentsView: undefined });
    expect(parseAdminRoute('?tab=payments&view=elsewhere').paymentsView).toBeUndefined();
    const search = '?tab=payments&page=2&view=all';
    const route = parseAdminRoute(search);
    expect(route).toEqual({ tab: 'payments', page: 2, paymentsView: 'all' });
    expect(adminHref(route)).toBe(`/admin${search}`);
  });
});

describe('admin route: audit log', () => {
  it('has an Audit log tab filtered by kind, written back the same, asking the endpoint for the kind and page', () => {
    expect(ADMIN_TABS.find((t) => t.id === 'audit')?.label).toBe('Audit log');
    expect(parseAdminRoute('?tab=audit&kind=users').auditEntity).toBeUndefined();
    const search = '?tab=audit&page=3&kind=image';
    const route = parseAdminRoute(search);
    expect(route).toEqual({ tab: 'audit', page: 3, auditEntity: 'image' });
    expect(adminHref(route)).toBe(`/admin${search}`);
    expect(listQuery(route).toString()).toBe('entity=image&page=3');
  });
});
