/** Providers that ignore dots in the part before the @ (and their other domain names). */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * One mailbox however its address was written: case and spaces, a "+tag" before the @ (most
 * providers deliver a+x@ to a@), and Gmail's dots and second domain. For counting only, never
 * for sending: the per-recipient e-mail limits (rate-limit.ts) and the unpaid units an e-mail
 * address may hold (functions/orders/limits.ts, by the `mailbox` each order stores) count by it.
 */
export function mailboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  const domain = address.slice(at + 1);
  let local = address.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${local.replaceAll('.', '')}@${dotless}` : `${local}@${domain}`;
}
