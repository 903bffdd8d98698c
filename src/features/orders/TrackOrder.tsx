import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { LookupForm } from '../forms/LookupForm.tsx';
import { lazyZodResolver } from '../forms/lazy-resolver.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { $recentOrders } from './checkout-store.browser.ts';
import type { OrderView } from './order-view.ts';
import type TrackedOrder from './TrackedOrder.tsx';
import { useOrderWatch } from './use-order-watch.browser.ts';
import './TrackOrder.css';

interface Lookup {
  number: string;
  email: string;
}

interface Found {
  order: OrderView;
  View: typeof TrackedOrder;
  /** The e-mail it was found with: the watch asks again with it. */
  email: string;
}

/** How often /track asks again about an order paying into its own account (lookups are limited per client: 20 per 10 minutes). */
const TRACK_WATCH_MS = 45_000;

// The API client, the order's view and the form's schema (with full zod) load when the
// shopper starts on the form, not with the page.
const loadLookup = () => Promise.all([import('./api-client.browser.ts'), import('./TrackedOrder.tsx')]);
const { resolver: lookupResolver, load: loadResolver } = lazyZodResolver<Lookup>(() =>
  import('./checkout.ts').then((m) => m.orderLookupSchema),
);
const prefetchLookup = () => void Promise.all([loadLookup(), loadResolver()]).catch(() => undefined);

/**
 * What the shopper typed into the pre-rendered form before the island hydrated
 * (client:idle), and ?order= from e-mail links: read during the first client render,
 * before react-hook-form sets the fields to its default values.
 */
function lookupBeforeHydration(): Lookup {
  if (typeof document === 'undefined') return { number: '', email: '' };
  const typed = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '';
  return {
    number: typed('track-number') || new URLSearchParams(window.location.search).get('order') || '',
    email: typed('track-email'),
  };
}

/**
 * /track: a guest finds an order by its number and the checkout e-mail. The form
 * is plain HTML first (it works before hydration as far as typing goes); orders
 * placed in this browser are offered as shortcuts.
 */
export default function TrackOrder() {
  const recent = useStore($recentOrders, { ssr: () => [] });
  const [typedEarly] = useState(lookupBeforeHydration);
  const form = useForm({ resolver: lookupResolver, defaultValues: typedEarly, shouldFocusError: true });
  const [message, setMessage] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const resultRef = useRef<HTMLElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves to a newly found order, not to one the watch refreshed
  useEffect(() => {
    if (found) resultRef.current?.focus();
  }, [found?.order.number]);

  // An order paying into its own account turns paid here by itself when the money lands.
  useOrderWatch(
    found?.order,
    async () => {
      if (!found) throw new Error('no order');
      const [{ lookupOrder }] = await loadLookup();
      return lookupOrder(found.order.number, found.email);
    },
    (order) => setFound((current) => (current && current.order.number === order.number ? { ...current, order } : current)),
    TRACK_WATCH_MS,
  );

  const find = form.handleSubmit(
    async ({ number, email }) => {
      setMessage('');
      try {
        const [{ lookupOrder }, { default: View }] = await loadLookup();
        setFound({ order: await lookupOrder(number, email), View, email });
      } catch (error) {
        setFound(null);
        if (!(error instanceof ApiRequestError) || error.code === 'network' || error.status >= 500) {
          setMessage('We could not look up your order just now. Please try again.');
        } else {
          // Issues about the form's own fields show at those fields; anything else gets the API's message.
          const elsewhere = showServerIssues(form, error.issues);
          if (error.issues.length === 0 || elsewhere.length > 0) setMessage(error.message);
        }
      }
    },
    () => {
      setMessage('');
      setFound(null);
    },
  );

  return (
    <div className="track">
      <LookupForm
        form={form}
        reference={{ name: 'number', id: 'track-number', label: 'Order number', placeholder: 'GTS-7K3M9Q2XWD' }}
        email={{ id: 'track-email', label: 'Email used at checkout' }}
        block="track"
        button={{ idle: 'Track Order', busy: 'Finding your order…' }}
        message={message}
        recent={recent.map((r) => ({ reference: r.number, email: r.email }))}
        recentLabel="Orders placed in this browser:"
        onSubmit={find}
        onFocus={prefetchLookup}
      />

      {found && <found.View order={found.order} ref={resultRef} />}
    </div>
  );
}
