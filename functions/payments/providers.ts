import type { Config } from '../env.ts';
import { paystack } from './paystack.ts';
import { STANDIN_API_URL, STANDIN_SECRET_KEY, standinPaystackFetch } from './paystack-standin.ts';
import type { PaymentProvider } from './provider.ts';

/**
 * The payment provider this Worker is configured with, if any: Paystack with its secret key, or
 * the same adapter against the offline stand-in (PAYMENTS_STANDIN). None: the shared account and
 * an admin's confirmation, as before (decision 023).
 */
/** Whether orders get their own account from a provider (the real one or the stand-in). */
export const hasPaymentProvider = (config: Config) => config.PAYMENTS_STANDIN || Boolean(config.PAYSTACK_SECRET_KEY);

export function paymentProvider(config: Config): PaymentProvider | undefined {
  if (config.PAYMENTS_STANDIN) {
    const secretKey = standinSecretKey(config);
    return paystack({
      secretKey,
      apiUrl: STANDIN_API_URL,
      fetch: standinPaystackFetch(secretKey, config.PAYMENTS_STANDIN_ACCOUNT_POOL),
    });
  }
  if (config.PAYSTACK_SECRET_KEY) return paystack({ secretKey: config.PAYSTACK_SECRET_KEY, apiUrl: config.PAYSTACK_API_URL });
  return undefined;
}

/** The key the stand-in signs its webhooks with. */
export const standinSecretKey = (config: Config) => config.PAYSTACK_SECRET_KEY ?? STANDIN_SECRET_KEY;
