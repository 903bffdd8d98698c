import type { CustomerInput } from './checkout.ts';

/**
 * What the shopper has typed into the checkout's details, kept for this tab (sessionStorage):
 * a reload, Back from another page or a closed dialog brings it back, and it goes when the tab
 * does or the order is finished. Not localStorage: a name, phone and address should not outlive
 * the visit on a shared phone. Only the form's own fields, as text, are read back; the schema
 * checks them again on Place Order.
 */
const KEY = 'gtsCheckoutDraft';
const FIELDS = [
  'delivery',
  'name',
  'email',
  'phone',
  'address',
  'city',
  'state',
] as const satisfies readonly (keyof CustomerInput)[];
/** Longer than any field the schema takes: a draft is never the place a page's storage fills up. */
const MAX_FIELD_LENGTH = 500;

export type CheckoutDraft = Partial<Record<(typeof FIELDS)[number], string>>;

export function readCheckoutDraft(): CheckoutDraft {
  let stored: unknown;
  try {
    stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    return {};
  }
  if (typeof stored !== 'object' || stored === null) return {};
  const draft: CheckoutDraft = {};
  for (const field of FIELDS) {
    const value = (stored as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '' && value.length <= MAX_FIELD_LENGTH) draft[field] = value;
  }
  return draft;
}

export function saveCheckoutDraft(values: Partial<CustomerInput>): void {
  const draft: CheckoutDraft = {};
  for (const field of FIELDS) {
    const value = values[field];
    if (typeof value === 'string' && value !== '') draft[field] = value.slice(0, MAX_FIELD_LENGTH);
  }
  try {
    sessionStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // Storage full or refused (a private window): the form still works, it is just not kept.
  }
}

export function forgetCheckoutDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
