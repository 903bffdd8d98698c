import { categoryLabel } from '../catalogue/categories.ts';
import { BATTERY_HEALTH_LABELS, type ConditionQuestion, type TradeInView } from './trade-in.ts';
import type { TradeInStatus } from './trade-in-status.ts';

/**
 * How a trade-in request reads on the shopper's pages (/sell-or-swap/status, /trade-ins):
 * pure wording, shared by the card and its tests.
 */

/** The badge colours of src/features/orders/orders.css (4.5:1 in both themes). */
export type TradeInTone = 'green' | 'blue' | 'yellow' | 'red' | 'grey';

export const TRADE_IN_TONES: Record<TradeInStatus, TradeInTone> = {
  new: 'blue',
  contacted: 'blue',
  offer_made: 'yellow',
  accepted: 'green',
  declined: 'red',
  completed: 'green',
  closed: 'grey',
};

/** The checklist's answers as short statements ("Screen cracked: No"), in the form's order. */
const SHORT_QUESTIONS: Record<ConditionQuestion, string> = {
  turnsOn: 'Turns on and works',
  screenCracked: 'Screen cracked',
  bodyDents: 'Dents or deep scratches',
  accountRemoved: 'Signed out of its accounts',
  originalBox: 'Original box',
};

export function conditionSummary(condition: TradeInView['condition']): { label: string; value: string }[] {
  const answers = (Object.keys(SHORT_QUESTIONS) as ConditionQuestion[]).map((question) => ({
    label: SHORT_QUESTIONS[question],
    value: condition[question] ? 'Yes' : 'No',
  }));
  return [...answers, { label: 'Battery health', value: BATTERY_HEALTH_LABELS[condition.batteryHealth] }];
}

/** "Apple iPhone 13 128GB (Phones)". */
export function deviceTitle(device: TradeInView['device']): string {
  return [device.brand === 'Other' ? '' : device.brand, device.model, device.storage].filter(Boolean).join(' ');
}

export function deviceCategory(device: TradeInView['device']): string {
  return categoryLabel(device.category);
}

/** "Cash", or "A swap for Samsung Galaxy S24 (256GB)". */
export function wantText(want: TradeInView['want']): string {
  if (want.kind === 'cash') return 'Cash';
  return `A swap for ${want.name}${want.variantLabel ? ` (${want.variantLabel})` : ''}`;
}
