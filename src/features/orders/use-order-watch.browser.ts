import { useEffect, useRef } from 'react';
import { paymentProgress, watchesPayment } from './order-status.ts';
import type { OrderView } from './order-view.ts';

/**
 * While `order` waits for a transfer into its own account (a payment provider confirms it by
 * itself: functions/payments/), asks for the order again every `everyMs`, skipping while the
 * page is hidden, and hands a changed order (its status, or what has arrived) to `onChange`. A
 * failed ask waits for the next one. Orders paying into the shared account are not watched: a
 * person confirms those, in hours, not seconds.
 */
export function useOrderWatch(
  order: OrderView | null | undefined,
  fetchAgain: () => Promise<OrderView>,
  onChange: (order: OrderView) => void,
  everyMs: number,
) {
  const latest = useRef({ fetchAgain, onChange, order });
  latest.current = { fetchAgain, onChange, order };
  const watched = watchesPayment(order);
  const number = order?.number;

  // biome-ignore lint/correctness/useExhaustiveDependencies: another order (its number) starts a new watch; the rest is read through `latest`
  useEffect(() => {
    if (!watched) return;
    let asking = false;
    const timer = setInterval(async () => {
      if (asking || document.visibilityState === 'hidden') return;
      asking = true;
      try {
        const fresh = await latest.current.fetchAgain();
        const seen = latest.current.order;
        if (!seen || paymentProgress(fresh) !== paymentProgress(seen)) latest.current.onChange(fresh);
      } catch {
        // Offline or refused for now: the next tick asks again.
      } finally {
        asking = false;
      }
    }, everyMs);
    return () => clearInterval(timer);
  }, [watched, number, everyMs]);
}
