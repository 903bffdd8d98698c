import type { z } from 'zod';
import type { paymentMethodsSchema } from '../../src/features/account/account-api.ts';
import { bankAccount, type Config } from '../env.ts';
import { hasPaymentProvider } from '../payments/providers.ts';

/**
 * How the store takes payment (the /payment-methods page): the steps of a transfer and the
 * shared bank account. With a payment provider each order gets an account of its own, which
 * confirms the payment by itself, and the shared account is only where an order without one
 * (the provider out of reach when it was placed) is paid, so the page must not send every
 * transfer there.
 */
export function paymentMethods(config: Config): z.input<typeof paymentMethodsSchema> {
  const bank = bankAccount(config);
  const ownAccounts = hasPaymentProvider(config);
  return {
    bankTransfer: {
      ...bank,
      ownAccounts,
      steps: ownAccounts
        ? [
            'Place your order: the payment step shows the amount and an account opened for this order alone.',
            'Transfer the exact amount to that account from your bank app or branch, before the time the order shows.',
            'The order is marked paid by itself once the transfer lands, usually within minutes; we then ship it.',
            `If an order shows ${bank.accountName}, ${bank.bankName}, account ${bank.accountNumber} instead, pay it there with your order number in the narration, and press 'I Have Made Payment'.`,
          ]
        : [
            'Place your order: the payment step shows the amount and your order number.',
            `Transfer the exact amount to ${bank.accountName}, ${bank.bankName}, account ${bank.accountNumber}, from your bank app or branch.`,
            'Put your order number in the transfer narration, so we can match your payment.',
            "Press 'I Have Made Payment'. We confirm the transfer and ship your order.",
          ],
    },
  };
}
