import { z } from 'zod';
import { type OpenedAccount, type OrderToPay, type PaymentProvider, ProviderError, type ReportedPayment } from './provider.ts';

/**
 * Paystack (decision 023), as its API reference documents it:
 * - an order's own account: "Pay with Transfer" through the Charge API, `POST /charge` with
 *   `bank_transfer.account_expires_at`, our order number as the reference; the answer holds the
 *   account number, account name and bank (`status: "pending_bank_transfer"`);
 * - webhooks: `x-paystack-signature` is the HMAC SHA-512 (hex) of the raw body with the secret
 *   key; a transfer that lands is `charge.success` with the transaction (`id`, `reference`,
 *   `amount` in kobo, `paid_at`, and for a dedicated account `authorization.receiver_bank_account_number`);
 * - reconciliation: `GET /transaction?status=success&from=…`, paged.
 * `fetch` is injectable: the stand-in (paystack-standin.ts) answers the same requests offline.
 */
export interface PaystackOptions {
  secretKey: string;
  /** https://api.paystack.co, or the stand-in's base. */
  apiUrl: string;
  fetch?: (request: Request) => Promise<Response>;
}

/** A Paystack transaction as the webhook and the transaction list carry it (what the store reads of it). */
const transactionSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]).transform(String),
  reference: z.string().nullish(),
  amount: z.number().int().positive(),
  status: z.string(),
  paid_at: z.string().nullish(),
  paidAt: z.string().nullish(),
  created_at: z.string().nullish(),
  authorization: z.object({ receiver_bank_account_number: z.string().nullish() }).partial().nullish(),
});

const webhookSchema = z.object({ event: z.string(), data: z.unknown() });

const chargeAnswerSchema = z.object({
  status: z.literal(true),
  data: z.object({
    reference: z.string(),
    account_name: z.string().min(1),
    account_number: z.string().regex(/^\d{10}$/),
    bank: z.object({ name: z.string().min(1) }),
    account_expires_at: z.string().nullish(),
  }),
});

const transactionListSchema = z.object({
  status: z.literal(true),
  data: z.array(z.unknown()),
  meta: z.object({ page: z.coerce.number(), pageCount: z.coerce.number() }).partial().optional(),
});

function toPayment(transaction: z.output<typeof transactionSchema>): ReportedPayment | null {
  if (transaction.status !== 'success') return null;
  const at = transaction.paid_at ?? transaction.paidAt ?? transaction.created_at;
  const paidAt = at ? new Date(at) : new Date();
  return {
    eventId: transaction.id,
    reference: transaction.reference ?? null,
    accountNumber: transaction.authorization?.receiver_bank_account_number ?? null,
    amount: transaction.amount,
    paidAt: Number.isNaN(paidAt.getTime()) ? new Date() : paidAt,
  };
}

/** Hex to bytes; null when it is not an even run of hex digits. */
function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The HMAC SHA-512 key Paystack signs with (the secret key). */
export function paystackSigningKey(secretKey: string, usage: 'sign' | 'verify') {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secretKey), { name: 'HMAC', hash: 'SHA-512' }, false, [usage]);
}

export function paystack({ secretKey, apiUrl, fetch: send = (request) => fetch(request) }: PaystackOptions): PaymentProvider {
  const base = apiUrl.replace(/\/+$/, '');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await send(
        new Request(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${secretKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    } catch (err) {
      throw new ProviderError(`Paystack ${method} ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await response.text();
    if (!response.ok) throw new ProviderError(`Paystack ${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(`Paystack ${method} ${path}: the answer is not JSON`);
    }
  };

  return {
    id: 'paystack',

    async openAccount(order: OrderToPay): Promise<OpenedAccount> {
      const answer = chargeAnswerSchema.safeParse(
        await call('POST', '/charge', {
          email: order.email,
          amount: order.total,
          reference: order.number,
          bank_transfer: { account_expires_at: order.expiresAt.toISOString() },
        }),
      );
      if (!answer.success)
        throw new ProviderError(`Paystack POST /charge: unexpected answer (${answer.error.issues[0]?.message})`);
      const { data } = answer.data;
      const expiresAt = data.account_expires_at ? new Date(data.account_expires_at) : null;
      return {
        bankName: data.bank.name,
        accountName: data.account_name,
        accountNumber: data.account_number,
        reference: data.reference,
        expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : null,
      };
    },

    async verifyWebhook(rawBody: ArrayBuffer, headers: Headers): Promise<boolean> {
      const signature = hexBytes((headers.get('x-paystack-signature') ?? '').trim());
      // SHA-512: 64 bytes. crypto.subtle.verify compares in constant time.
      if (signature?.length !== 64) return false;
      return crypto.subtle.verify('HMAC', await paystackSigningKey(secretKey, 'verify'), signature, rawBody);
    },

    paymentIn(body: unknown): ReportedPayment | null {
      const event = webhookSchema.safeParse(body);
      if (!event.success || event.data.event !== 'charge.success') return null;
      const transaction = transactionSchema.safeParse(event.data.data);
      return transaction.success ? toPayment(transaction.data) : null;
    },

    async paymentsSince(since: Date): Promise<ReportedPayment[]> {
      const payments: ReportedPayment[] = [];
      for (let page = 1; page <= 50; page++) {
        const query = new URLSearchParams({ status: 'success', from: since.toISOString(), perPage: '100', page: String(page) });
        const answer = transactionListSchema.safeParse(await call('GET', `/transaction?${query}`));
        if (!answer.success) throw new ProviderError('Paystack GET /transaction: unexpected answer');
        for (const item of answer.data.data) {
          const transaction = transactionSchema.safeParse(item);
          const payment = transaction.success ? toPayment(transaction.data) : null;
          if (payment) payments.push(payment);
        }
        const pageCount = answer.data.meta?.pageCount ?? page;
        if (page >= pageCount || answer.data.data.length === 0) break;
      }
      return payments.sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
    },
  };
}
