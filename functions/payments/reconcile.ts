import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../env.ts';
import type { Db } from '../platform/db.ts';
import { providerPayments } from '../platform/schema.ts';
import { applyProviderPayment } from './apply.ts';
import { ProviderError } from './provider.ts';
import { paymentProvider } from './providers.ts';

/**
 * Reconciliation (the cron, decision 023): asks the provider for the payments it received in the
 * last RECONCILE_HOURS and applies those the store has not recorded, exactly as a webhook would
 * (functions/payments/apply.ts): a delivery lost on the way (the Worker down, a network fault,
 * more than Paystack's 72 hours of retries) still pays its order. Already-recorded payments are
 * skipped in one read, and applying one twice changes nothing anyway (its event id is unique).
 */
export const RECONCILE_HOURS = 72;

export interface Reconciled {
  /** Payments the provider listed. */
  listed: number;
  /** Of those, the ones the store had not recorded, now applied. */
  applied: number;
  /** The provider could not be asked (the run logs why; the next run tries again). */
  failed: boolean;
}

export async function reconcilePayments(db: Db, config: Config, now = new Date()): Promise<Reconciled> {
  const provider = paymentProvider(config);
  if (!provider) return { listed: 0, applied: 0, failed: false };
  let listed: Awaited<ReturnType<typeof provider.paymentsSince>>;
  try {
    listed = await provider.paymentsSince(new Date(now.getTime() - RECONCILE_HOURS * 3_600_000));
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    console.warn(`payments: reconciliation could not ask ${provider.id}: ${err.message}`);
    return { listed: 0, applied: 0, failed: true };
  }
  const known = new Set<string>();
  for (let i = 0; i < listed.length; i += 90) {
    const ids = listed.slice(i, i + 90).map((p) => p.eventId);
    const rows = await db
      .select({ eventId: providerPayments.eventId })
      .from(providerPayments)
      .where(and(eq(providerPayments.provider, provider.id), inArray(providerPayments.eventId, ids)));
    for (const row of rows) known.add(row.eventId);
  }
  let applied = 0;
  for (const payment of listed) {
    if (known.has(payment.eventId)) continue;
    const result = await applyProviderPayment(db, config, provider.id, payment, 'reconciliation', now);
    if (!result.duplicate) applied++;
  }
  return { listed: listed.length, applied, failed: false };
}
