import { useCallback, useEffect, useMemo, useState } from 'react';
import { ADMIN_TABS, type AdminRoute, adminHref, parseAdminRoute } from './admin-route.ts';
import { AdminLink, type AdminRouter, RouterContext } from './admin-router.tsx';
import { Dashboard } from './Dashboard.tsx';
import { AuditScreen } from './AuditScreen.tsx';
import { OrdersScreen } from '../orders/admin/OrdersScreen.tsx';
import { ProductsScreen } from '../catalogue/admin/ProductsScreen.tsx';
import { SubscribersScreen } from '../newsletter/admin/SubscribersScreen.tsx';
import { TradeInsScreen } from '../trade-ins/admin/TradeInsScreen.tsx';
import { PaymentsScreen } from '../payments/admin/PaymentsScreen.tsx';
import './admin.css';

/**
 * The admin screens (loaded by AdminApp.tsx for admins only): the section links and the
 * screen the address names. Moving pushes a history entry, so Back and reload work.
 */
export default function AdminConsole() {
  const router = useAdminRouter();
  const { route } = router;
  return (
    <RouterContext.Provider value={router}>
      <div className="admin">
        <nav className="admin-nav" aria-label="Admin sections">
          <ul>
            {ADMIN_TABS.map((tab) => (
              <li key={tab.id}>
                <AdminLink to={{ tab: tab.id }} aria-current={route.tab === tab.id ? 'page' : undefined}>
                  {tab.label}
                </AdminLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="admin__body">
          {route.tab === 'dashboard' && <Dashboard />}
          {route.tab === 'orders' && <OrdersScreen route={route} />}
          {route.tab === 'products' && <ProductsScreen route={route} />}
          {route.tab === 'trade-ins' && <TradeInsScreen route={route} />}
          {route.tab === 'subscribers' && <SubscribersScreen route={route} />}
          {route.tab === 'payments' && <PaymentsScreen route={route} />}
          {route.tab === 'audit' && <AuditScreen route={route} />}
        </div>
      </div>
    </RouterContext.Provider>
  );
}

function useAdminRouter(): AdminRouter {
  const [state, setState] = useState(() => ({ route: parseAdminRoute(window.location.search), moves: 0 }));
  useEffect(() => {
    const onPop = () => setState((s) => ({ route: parseAdminRoute(window.location.search), moves: s.moves + 1 }));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const go = useCallback((route: AdminRoute, { replace = false } = {}) => {
    const href = adminHref(route);
    if (replace) window.history.replaceState(null, '', href);
    else if (href !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, '', href);
    setState((s) => ({ route: parseAdminRoute(new URL(href, window.location.origin).search), moves: s.moves + 1 }));
  }, []);
  return useMemo(() => ({ route: state.route, moves: state.moves, go }), [state, go]);
}
