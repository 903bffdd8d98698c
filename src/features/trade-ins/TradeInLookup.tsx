import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { LookupForm } from '../forms/LookupForm.tsx';
import { lazyZodResolver } from '../forms/lazy-resolver.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import type { TradeInView } from './trade-in.ts';
import type TradeInCard from './TradeInCard.tsx';
import { $recentTradeIns } from './trade-in-store.browser.ts';
import './trade-ins.css';

interface Lookup {
  reference: string;
  email: string;
}

interface Found {
  tradeIn: TradeInView;
  /** The e-mail it was found with: the proof for answering the offer and ordering. */
  email: string;
  Card: typeof TradeInCard;
}

// The API client, the card (with the order form) and the schema (full zod) load when the
// shopper starts on the form, not with the page (as /track does).
const loadLookup = () => Promise.all([import('./api-client.browser.ts'), import('./TradeInCard.tsx')]);
const { resolver: lookupResolver, load: loadResolver } = lazyZodResolver<Lookup>(() =>
  import('./trade-in.ts').then((m) => m.tradeInLookupSchema),
);
const prefetchLookup = () => void Promise.all([loadLookup(), loadResolver()]).catch(() => undefined);

/**
 * What was typed before the island hydrated (client:idle), else ?ref= from the confirmation
 * and the e-mails, and the e-mail this browser sent that request with.
 */
function lookupBeforeHydration(): Lookup {
  if (typeof document === 'undefined') return { reference: '', email: '' };
  const typed = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '';
  const reference = typed('trade-in-reference') || new URLSearchParams(window.location.search).get('ref') || '';
  const remembered = $recentTradeIns.get().find((t) => t.reference === reference.trim().toUpperCase());
  return { reference, email: typed('trade-in-lookup-email') || remembered?.email || '' };
}

/** /sell-or-swap/status: a guest finds a trade-in request by its reference and e-mail, and answers it. */
export default function TradeInLookup() {
  const recent = useStore($recentTradeIns, { ssr: () => [] });
  const [typedEarly] = useState(lookupBeforeHydration);
  const form = useForm({ resolver: lookupResolver, defaultValues: typedEarly, shouldFocusError: true });
  const [message, setMessage] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const resultRef = useRef<HTMLElement>(null);
  const shownRef = useRef<string | null>(null);

  // Focus the request when a lookup shows one (not when it only changes after an answer).
  useEffect(() => {
    const reference = found?.tradeIn.reference ?? null;
    if (reference && shownRef.current !== reference) resultRef.current?.focus();
    shownRef.current = reference;
  }, [found]);

  const find = form.handleSubmit(
    async ({ reference, email }) => {
      setMessage('');
      try {
        const [{ lookupTradeIn }, { default: Card }] = await loadLookup();
        setFound({ tradeIn: await lookupTradeIn(reference, email), email, Card });
      } catch (error) {
        setFound(null);
        shownRef.current = null;
        if (!(error instanceof ApiRequestError) || error.code === 'network' || error.status >= 500) {
          setMessage('We could not look up your request just now. Please try again.');
        } else if (error.status === 404) {
          setMessage('We found no trade-in request with this reference and e-mail. Check both and try again.');
        } else {
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

  const reload = async () => {
    if (!found) throw new Error('nothing to reload');
    const { lookupTradeIn } = await import('./api-client.browser.ts');
    return lookupTradeIn(found.tradeIn.reference, found.email);
  };

  return (
    <div className="trade-in-lookup">
      <LookupForm
        form={form}
        reference={{ name: 'reference', id: 'trade-in-reference', label: 'Trade-in reference', placeholder: 'TRD-7K3M9Q2XWD' }}
        email={{ id: 'trade-in-lookup-email', label: 'Email used on the request' }}
        block="trade-in-lookup"
        button={{ idle: 'Find my request', busy: 'Finding your request…' }}
        message={message}
        recent={recent}
        recentLabel="Requests sent from this browser:"
        onSubmit={find}
        onFocus={prefetchLookup}
      />

      {found && (
        <found.Card
          tradeIn={found.tradeIn}
          proof={{ email: found.email }}
          onChange={(tradeIn) => setFound((current) => (current ? { ...current, tradeIn } : current))}
          reload={reload}
          ref={resultRef}
        />
      )}
    </div>
  );
}
