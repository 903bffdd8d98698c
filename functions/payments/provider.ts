import type { PaymentProviderId } from '../../src/features/orders/payments.ts';

/**
 * A payment provider as the store uses it (decision 023): open a bank account for one order,
 * tell its webhook deliveries from forgeries, read the payment a delivery reports, and list the
 * payments it received (for the reconciliation job). One real implementation, Paystack
 * (paystack.ts); `npm start` and the tests run the same code against an offline stand-in of
 * Paystack's API (paystack-standin.ts), answered at the HTTP boundary.
 */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** A bank account that takes this order's transfer until `order.expiresAt`. */
  openAccount(order: OrderToPay): Promise<OpenedAccount>;
  /** Whether a webhook delivery comes from the provider: its signature over the raw bytes, compared in constant time. */
  verifyWebhook(rawBody: ArrayBuffer, headers: Headers): Promise<boolean>;
  /** The successful payment a verified delivery reports; null for any other event (acknowledged, ignored). */
  paymentIn(body: unknown): ReportedPayment | null;
  /** The successful payments received since `since`, oldest first (the reconciliation job). */
  paymentsSince(since: Date): Promise<ReportedPayment[]>;
}

export interface OrderToPay {
  /** GTS-…: the reference the provider keeps for the charge. */
  number: string;
  /** In kobo. */
  total: number;
  email: string;
  expiresAt: Date;
}

export interface OpenedAccount {
  bankName: string;
  accountName: string;
  accountNumber: string;
  /** The provider's reference for the charge (the order's number). */
  reference: string;
  /** Until when the account takes payment; null: as long as the provider keeps it. */
  expiresAt: Date | null;
}

/** A payment as the provider reports it, in kobo, before the store matches it to an order. */
export interface ReportedPayment {
  /** The provider's own id for it: a redelivery carries the same. */
  eventId: string;
  reference: string | null;
  /** The account it was paid into, when the provider says. */
  accountNumber: string | null;
  amount: number;
  paidAt: Date;
}

/** The provider did not answer as documented (down, a changed API, a refused key): the caller falls back. */
export class ProviderError extends Error {}
