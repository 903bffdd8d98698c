import type { BatteryHealth, ConditionQuestion } from './trade-in.ts';

/**
 * What the /sell-or-swap form holds before `tradeInRequestSchema` checks it: every field,
 * including the ones not answered yet (null for a yes/no question, '' for a choice), so
 * the schema's own messages say what is missing.
 */
export interface TradeInFormValues {
  device: { category: string; brand: string; model: string; storage: string };
  condition: Record<ConditionQuestion, boolean | null> & { batteryHealth: BatteryHealth | ''; notes: string };
  want: { kind: 'cash' | 'swap' | ''; productId: string; variant: string };
  contact: { name: string; email: string; phone: string; state: string };
}

export const EMPTY_TRADE_IN_FORM: TradeInFormValues = {
  device: { category: '', brand: '', model: '', storage: '' },
  condition: {
    turnsOn: null,
    screenCracked: null,
    bodyDents: null,
    accountRemoved: null,
    originalBox: null,
    batteryHealth: '',
    notes: '',
  },
  want: { kind: '', productId: '', variant: '' },
  contact: { name: '', email: '', phone: '', state: '' },
};

/**
 * The form's fields in the order they are shown, as the API names them in its issues
 * (`device.model`); `photos` sits where the photo picker is. The first one refused gets
 * the focus.
 */
export const TRADE_IN_FIELD_ORDER = [
  'device.category',
  'device.brand',
  'device.model',
  'device.storage',
  'condition.turnsOn',
  'condition.screenCracked',
  'condition.bodyDents',
  'condition.batteryHealth',
  'condition.accountRemoved',
  'condition.originalBox',
  'condition.notes',
  'photos',
  'want.kind',
  'want.productId',
  'want.variant',
  'contact.name',
  'contact.email',
  'contact.phone',
  'contact.state',
] as const;
export type TradeInField = (typeof TRADE_IN_FIELD_ORDER)[number];

/** Where an API issue belongs: one of the form's fields (`photos.2` is the photos), or null. */
export function tradeInFieldOf(path: string): TradeInField | null {
  if (path === 'photos' || path.startsWith('photos.')) return 'photos';
  if (path === 'want') return 'want.kind';
  return TRADE_IN_FIELD_ORDER.find((field) => field === path) ?? null;
}
