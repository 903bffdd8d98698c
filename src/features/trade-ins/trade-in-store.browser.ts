import { persistentAtom } from '@nanostores/persistent';
// zod/mini: this store loads with the status page; it needs no more.
import { z } from 'zod/mini';

/**
 * What this browser remembers about trade-ins: the requests sent from it (the status page
 * offers them, as /track offers orders), and the idempotency key of the current attempt to
 * place a swap's order, so a double click or a retry after a dropped connection returns the
 * same order instead of a second one (as checkout-store.browser.ts does for the checkout).
 */

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

const recentSchema = z.catch(z.array(z.object({ reference: z.string(), email: z.string(), sentAt: z.string() })), []);
export type RecentTradeIn = z.infer<typeof recentSchema>[number];

export const $recentTradeIns = persistentAtom<RecentTradeIn[]>('recentTradeIns', [], {
  encode: JSON.stringify,
  decode: (raw) => recentSchema.parse(safeJson(raw)),
});

export function rememberTradeIn(reference: string, email: string) {
  const others = $recentTradeIns.get().filter((t) => t.reference !== reference);
  $recentTradeIns.set([{ reference, email, sentAt: new Date().toISOString() }, ...others].slice(0, 5));
}

const attemptSchema = z.catch(z.nullable(z.object({ reference: z.string(), fingerprint: z.string(), key: z.string() })), null);
type Attempt = z.infer<typeof attemptSchema>;

const $swapOrderAttempt = persistentAtom<Attempt>('tradeInOrderAttempt', null, {
  encode: JSON.stringify,
  decode: (raw) => attemptSchema.parse(safeJson(raw)),
});

/** The key for this request's order with these details: the same until the details change or the order is placed. */
export function swapOrderKey(reference: string, fingerprint: string): string {
  const current = $swapOrderAttempt.get();
  if (current?.reference === reference && current.fingerprint === fingerprint) return current.key;
  const key = crypto.randomUUID();
  $swapOrderAttempt.set({ reference, fingerprint, key });
  return key;
}

/** The order is placed (or the key can no longer be used): the next attempt is a new one. */
export function finishSwapOrderAttempt() {
  $swapOrderAttempt.set(null);
}
