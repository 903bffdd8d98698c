import { BRANDS } from '../catalogue/brands.ts';

/**
 * The trade-in request's fixed parts, without zod: the questions, choices and photo limits the
 * form shows (TradeInForm.astro, trade-in-form.browser.ts) and trade-in.ts's schemas check.
 */

/**
 * What a shopper can answer about the battery (Settings › Battery on most phones shows it); a
 * console, a TV or a game has none (a shopper's walk found them asked for one).
 */
export const BATTERY_HEALTH = ['good', 'fair', 'poor', 'unknown', 'none'] as const;
export type BatteryHealth = (typeof BATTERY_HEALTH)[number];
export const BATTERY_HEALTH_LABELS: Record<BatteryHealth, string> = {
  good: '80% or more',
  fair: '60–79%',
  poor: 'Below 60%',
  unknown: 'I don’t know',
  none: 'It has no battery',
};

/** A brand outside the catalogue's list (an older or rarer make). */
export const OTHER_BRAND = 'Other';
export const TRADE_IN_BRANDS = [...BRANDS, OTHER_BRAND] as const;

/** The yes/no questions of the condition checklist, in the form's order, with their wording. */
export const CONDITION_QUESTIONS = {
  turnsOn: 'Does it turn on and work?',
  screenCracked: 'Is the screen cracked?',
  bodyDents: 'Does the body have dents or deep scratches?',
  accountRemoved: 'Have you signed out of every account on it (iCloud, Google, PlayStation, Xbox)?',
  originalBox: 'Do you have the original box?',
} as const;
export type ConditionQuestion = keyof typeof CONDITION_QUESTIONS;

/**
 * Photos: up to this many, each at most MAX_PHOTO_BYTES, a JPEG, PNG or WebP (checked by content).
 * The form sends a phone's photo at 1600 px, a few hundred KB (photos.browser.ts); 2 MB leaves
 * room for a photo it could not make smaller, and keeps a whole form to 8 MB in the Worker's memory.
 */
export const MAX_TRADE_IN_PHOTOS = 4;
export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
