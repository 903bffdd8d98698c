import { env } from 'cloudflare:workers';
import { paystackSigningKey } from '../../functions/payments/paystack.ts';
import { STANDIN_SECRET_KEY } from '../../functions/payments/paystack-standin.ts';

/** The hex HMAC SHA-512 of `body` with `key`, as Paystack signs a webhook delivery. */
export async function sign(body: string, key = STANDIN_SECRET_KEY) {
  const mac = await crypto.subtle.sign('HMAC', await paystackSigningKey(key, 'sign'), new TextEncoder().encode(body));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

let nextEvent = 7_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

/** A `charge.success` delivery as Paystack sends it: a transfer of `amount` kobo into `accountNumber`. */
export function chargeSuccess(accountNumber: string | null, amount: number, overrides: Record<string, unknown> = {}) {
  return {
    event: 'charge.success',
    data: {
      id: nextEvent++,
      reference: null,
      amount,
      status: 'success',
      paid_at: new Date().toISOString(),
      channel: 'bank_transfer',
      authorization: { receiver_bank_account_number: accountNumber },
      ...overrides,
    },
  };
}

/** A payment the provider reported that no order claims, as D1 keeps it (an admin's to attach or resolve). */
export async function unmatchedPayment(amount = 1_500_000): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `insert into provider_payments (id, provider, event_id, order_id, account_number, reference, amount_kobo, paid_at, via, outcome)
     values (?, 'paystack', ?, null, '9000000009', null, ?, unixepoch(), 'webhook', 'unmatched')`,
  )
    .bind(id, `evt-${id}`, amount)
    .run();
  return id;
}
