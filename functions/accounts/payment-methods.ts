import type { z } from 'zod';
import type { paymentMethodsSchema } from '../../src/features/account/account-api.ts';
import { bankAccount, type Config } from '../env.ts';

/** How the store takes payment (the /payment-methods page): the configured bank account and the steps of a transfer. */
export function paymentMethods(config: Config): z.input<typeof paymentMethodsSchema> {
  const bank = bankAccount(config);
  return {
    bankTransfer: {
      ...bank,
      steps: [
        'Place your order: the payment step shows the amount and your order number.',
        `Transfer the exact amount to ${bank.accountName}, ${bank.bankName}, account ${bank.accountNumber}, from your bank app or branch.`,
        'Put your order number in the transfer narration, so we can match your payment.',
        "Press 'I Have Made Payment'. We confirm the transfer and ship your order.",
      ],
    },
  };
}
