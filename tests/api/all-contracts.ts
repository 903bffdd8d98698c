import { accountApi } from '../../src/features/account/account-api.ts';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { productApi } from '../../src/features/catalogue/product-api.ts';
import { newsletterApi } from '../../src/features/newsletter/subscribe.ts';
import { orderApi } from '../../src/features/orders/order-api.ts';
import { installApi } from '../../src/features/pwa/install-api.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { paymentApi } from '../../src/features/payments/payment-api.ts';
import type { Endpoint } from '../../src/lib/api-contract.ts';

/**
 * Every endpoint the contracts declare: tests/api/contracts.test.ts checks the router serves
 * exactly these, and the property tests (tests/api/property-*.test.ts) attack every one that writes.
 */
export const CONTRACTS: readonly Endpoint[] = [
  ...Object.values(productApi),
  ...Object.values(orderApi),
  ...Object.values(newsletterApi),
  ...Object.values(accountApi),
  ...Object.values(installApi),
  ...Object.values(adminApi),
  ...Object.values(tradeInApi),
  // The provider's webhook; the stand-in's "pay" route is under /api/test/*, not a contract of the store's.
  paymentApi.webhook,
];
