import { paystackSigningKey } from './paystack.ts';

/**
 * LOCAL RUNS AND TESTS ONLY (PAYMENTS_STANDIN=true): an offline stand-in for the part of
 * Paystack's API the store calls, answered at the HTTP boundary, so the real adapter
 * (paystack.ts) builds and parses real requests: `POST /charge` opens an order's account (its
 * number derived from the reference), `GET /transaction` lists what it "received". `standinPay`
 * is the bank transfer: it records a transaction and returns the `charge.success` delivery
 * Paystack would send, signed with the secret key (the /api/test/paystack/pay route hands it to
 * the webhook). Its memory is the Worker isolate's: a restart forgets accounts and payments.
 */
export const STANDIN_API_URL = 'https://paystack-standin.invalid';
/** The secret the stand-in signs with when PAYSTACK_SECRET_KEY is unset. */
export const STANDIN_SECRET_KEY = 'sk_test_gts_standin_0000000000000000000000';
export const STANDIN_BANK = 'Wema Bank (stand-in)';

interface StandinTransaction {
  id: number;
  reference: string | null;
  amount: number;
  status: 'success';
  paid_at: string;
  channel: 'bank_transfer';
  authorization: { receiver_bank_account_number: string | null };
}

const accounts = new Map<string, { accountNumber: string; reference: string; amount: number }>();
const transactions: StandinTransaction[] = [];
/**
 * Transaction ids go on from the clock, not from a fixed number: the store records each
 * transaction once by its id, and a local server restarted on the same D1 would otherwise hand
 * out ids already recorded, so `npm run pay` would be counted as a duplicate and pay nothing.
 * The clock is read when paying: in workerd it stands at 0 while a module starts.
 */
let lastId = 0;

let pooled = 0;

/**
 * A 10-digit account number derived from the reference (the same reference, the same account);
 * or, with a pool (PAYMENTS_STANDIN_ACCOUNT_POOL), the pool's next number in turn, as Paystack
 * hands a temporary account to a new charge once an older one has closed.
 */
async function accountNumberFor(reference: string, pool?: number): Promise<string> {
  if (pool) return `80000${String(pooled++ % pool).padStart(5, '0')}`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(reference)));
  let digits = '';
  for (const byte of digest) digits += String(byte % 10);
  return `9${digits.slice(0, 9)}`;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The stand-in's answers to the adapter's requests (its `fetch`). */
export function standinPaystackFetch(secretKey: string, accountPool?: number) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.headers.get('authorization') !== `Bearer ${secretKey}`) {
      return json({ status: false, message: 'Invalid key' }, 401);
    }
    if (request.method === 'POST' && url.pathname === '/charge') {
      const body = (await request.json()) as {
        email?: string;
        amount?: number;
        reference?: string;
        bank_transfer?: { account_expires_at?: string };
      };
      if (!body.email || !Number.isInteger(body.amount) || !body.reference) {
        return json({ status: false, message: 'email, amount and reference are required' }, 400);
      }
      const accountNumber = await accountNumberFor(body.reference, accountPool);
      accounts.set(accountNumber, { accountNumber, reference: body.reference, amount: body.amount! });
      return json({
        status: true,
        message: 'Charge attempted',
        data: {
          status: 'pending_bank_transfer',
          display_text: 'Please make a transfer to the account specified',
          reference: body.reference,
          amount: body.amount,
          account_name: 'GTS Electronics Checkout',
          account_number: accountNumber,
          bank: { slug: 'wema-bank', name: STANDIN_BANK, id: 20 },
          account_expires_at: body.bank_transfer?.account_expires_at ?? null,
        },
      });
    }
    if (request.method === 'GET' && url.pathname === '/transaction') {
      const from = new Date(url.searchParams.get('from') ?? 0).getTime();
      const perPage = Number(url.searchParams.get('perPage') ?? 50);
      const page = Number(url.searchParams.get('page') ?? 1);
      const matching = transactions.filter((t) => new Date(t.paid_at).getTime() >= from);
      return json({
        status: true,
        data: matching.slice((page - 1) * perPage, page * perPage),
        meta: { total: matching.length, perPage, page, pageCount: Math.max(1, Math.ceil(matching.length / perPage)) },
      });
    }
    return json({ status: false, message: `No stand-in for ${request.method} ${url.pathname}` }, 404);
  };
}

/**
 * A transfer into an account the stand-in opened (or with a reference, or into an account it
 * never opened: an "unknown account" payment): recorded for GET /transaction, and the signed
 * `charge.success` delivery Paystack would send for it.
 */
export async function standinPay(
  secretKey: string,
  payment: { accountNumber?: string; reference?: string; amount: number; paidAt?: Date },
): Promise<{ transaction: StandinTransaction; body: string; signature: string }> {
  const account = payment.accountNumber ? accounts.get(payment.accountNumber) : undefined;
  lastId = Math.max(lastId + 1, Date.now());
  const transaction: StandinTransaction = {
    id: lastId,
    reference: payment.reference ?? account?.reference ?? null,
    amount: payment.amount,
    status: 'success',
    paid_at: (payment.paidAt ?? new Date()).toISOString(),
    channel: 'bank_transfer',
    authorization: { receiver_bank_account_number: payment.accountNumber ?? null },
  };
  transactions.push(transaction);
  const body = JSON.stringify({ event: 'charge.success', data: transaction });
  const mac = await crypto.subtle.sign('HMAC', await paystackSigningKey(secretKey, 'sign'), new TextEncoder().encode(body));
  const signature = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { transaction, body, signature };
}
