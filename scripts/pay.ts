/**
 * "Pays" an order locally, the way a shopper's bank transfer would reach the store: the offline
 * stand-in of Paystack (functions/payments/paystack-standin.ts, on with PAYMENTS_STANDIN=true,
 * which `npm start` sets) records the transfer into the order's own account and sends the store
 * the signed `charge.success` webhook Paystack would send.
 *
 *   npm run pay -- GTS-7K3M9Q2XWD            (what the order still owes)
 *   npm run pay -- GTS-7K3M9Q2XWD 5000       (₦5,000: a part payment, or more than the total)
 *   npm run pay -- GTS-7K3M9Q2XWD 5000 --lost   (the provider has it, the webhook never arrives:
 *                                               the cron's reconciliation finds it)
 *   STORE_URL=http://127.0.0.1:8788 npm run pay -- …   (another server; by default localhost at $PORT,
 *                                                      as `npm start` serves, else 8787)
 */
const USAGE = `Usage: npm run pay -- <order number> [amount in naira] [--lost]
  Pays an order through the local Paystack stand-in (npm start turns it on).
  Without an amount it pays what the order still owes; --lost keeps the webhook back,
  so the cron's reconciliation has to find the payment. STORE_URL picks another server.`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const [orderNumber, naira, ...flags] = args;
if (!orderNumber || orderNumber.startsWith('-') || (naira !== undefined && !/^\d+(\.\d{1,2})?$/.test(naira))) {
  console.error(USAGE);
  process.exit(2);
}
const store = process.env.STORE_URL ?? `http://localhost:${process.env.PORT ?? '8787'}`;
const response = await fetch(new URL('/api/test/paystack/pay', store), {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    orderNumber,
    ...(naira === undefined ? {} : { amountKobo: Math.round(Number(naira) * 100) }),
    deliver: !flags.includes('--lost'),
  }),
}).catch((err: unknown) => {
  console.error(
    `Could not reach the store at ${store}: ${err instanceof Error ? err.message : String(err)}. Is \`npm start\` running?`,
  );
  process.exit(1);
});
const answer = (await response.json()) as Record<string, unknown>;
if (!response.ok) {
  console.error(`The stand-in refused (${response.status}): ${JSON.stringify(answer)}`);
  process.exit(1);
}
console.log(JSON.stringify(answer, null, 2));

export {};
