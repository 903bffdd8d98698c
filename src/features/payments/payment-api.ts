import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { PAYMENT_OUTCOMES, PAYMENT_PROVIDERS } from '../orders/payments.ts';

/** What the store answers a provider's webhook delivery (providers read only the status). */
export const webhookAnswerSchema = z.object({
  received: z.literal(true),
  /** Not a payment (another event): acknowledged, nothing done. */
  ignored: z.boolean().optional(),
  /** This payment was recorded before: nothing changed. */
  duplicate: z.boolean().optional(),
  outcome: z.enum(PAYMENT_OUTCOMES).optional(),
});

/** LOCAL RUNS AND TESTS ONLY: a transfer into the stand-in provider (functions/payments/paystack-standin.ts). */
export const standinPaySchema = z
  .object({
    /** The order's own account number (shown at checkout), or… */
    accountNumber: z
      .string()
      .regex(/^\d{10}$/, 'Must be a 10-digit account number')
      .optional(),
    /** …or the order whose own account to pay into (what `npm run pay` sends)… */
    orderNumber: z.string().trim().min(1).max(40).optional(),
    /** …or a reference (the order's number) for a payment into no known account. */
    reference: z.string().trim().min(1).max(40).optional(),
    /** What to transfer, in kobo; by default what the order still owes (with `orderNumber`). */
    amountKobo: z.number().int().positive().max(100_000_000_00).optional(),
    /** false: recorded by the provider, but its webhook never arrives (what the reconciliation job finds). */
    deliver: z.boolean().default(true),
  })
  .refine((b) => b.accountNumber || b.reference || b.orderNumber, {
    path: ['accountNumber'],
    message: 'Name an account number, an order number or a reference',
  })
  .refine((b) => b.amountKobo !== undefined || b.orderNumber, {
    path: ['amountKobo'],
    message: 'Say how much, in kobo (or name the order: then what it still owes)',
  });

export const standinPayAnswerSchema = z.object({
  transactionId: z.string(),
  accountNumber: z.string().nullable(),
  amountKobo: z.number().int(),
  delivered: z.boolean(),
  webhook: webhookAnswerSchema.nullable(),
});

export const paymentApi = {
  /** A provider's signed webhook: `:provider` is one of PAYMENT_PROVIDERS. */
  webhook: endpoint({ method: 'POST', path: '/api/payments/webhook/:provider', response: webhookAnswerSchema }),
  standinPay: endpoint({
    method: 'POST',
    path: '/api/test/paystack/pay',
    body: standinPaySchema,
    response: standinPayAnswerSchema,
  }),
};

export const providerParamSchema = z.object({ provider: z.enum(PAYMENT_PROVIDERS) });
