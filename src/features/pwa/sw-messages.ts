/**
 * What the pages and the service worker (src/sw/sw.ts) say to each other, and the
 * notification constants both use (seed spec §7 and §9). Pure: the browser and the
 * service worker import it.
 */

/** The icon and badge of every notification (seed spec §7). */
export const NOTIFICATION_ICON = '/logo192.png';
/** Where clicking a notification takes the shopper. */
export const NOTIFICATION_URL = '/cart';
/** The welcome notification, about 20 s after a page loads, once per device. */
export const WELCOME_DELAY_MS = 20_000;
/** The cart reminder, every 2 hours while the cart has items (decisions.md: the 2-hour reading is final). */
export const CART_REMINDER_INTERVAL_MS = 2 * 60 * 60 * 1000;
export const WELCOME_TAG = 'welcome';
export const CART_REMINDER_TAG = 'cart-reminder';

export interface NotificationRequest {
  title: string;
  body: string;
  /** One notification per tag: a new one replaces the last. */
  tag: string;
  /** Opened when the notification is clicked (same origin). */
  url?: string;
}

/**
 * Page → service worker. `SCHEDULE_NOTIFICATION` shows the notification after `delay` ms
 * (0: now). Pages keep the long timers (2 hours) themselves and ask when one is due:
 * a browser stops an idle service worker after about 30 s, with its timers.
 */
export type ToServiceWorker =
  | ({ type: 'SCHEDULE_NOTIFICATION'; delay: number } & NotificationRequest)
  | { type: 'CANCEL_NOTIFICATION'; tag: string }
  | { type: 'SKIP_WAITING' };

/** Whether a message event's data is one of ours (messages come from any same-origin page). */
export function isToServiceWorker(data: unknown): data is ToServiceWorker {
  if (typeof data !== 'object' || data === null) return false;
  const { type } = data as { type?: unknown };
  if (type === 'SKIP_WAITING') return true;
  if (type === 'CANCEL_NOTIFICATION') return typeof (data as { tag?: unknown }).tag === 'string';
  if (type !== 'SCHEDULE_NOTIFICATION') return false;
  const m = data as Record<string, unknown>;
  return typeof m.title === 'string' && typeof m.body === 'string' && typeof m.tag === 'string' && typeof m.delay === 'number';
}

/** The longest delay the service worker keeps a timer for: it may be stopped once idle, with its timers. */
export const MAX_SW_DELAY_MS = 60_000;

/** A same-origin path to open, or the cart. */
export function notificationTarget(url: string | undefined, origin: string): string {
  if (!url) return NOTIFICATION_URL;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.pathname + target.search : NOTIFICATION_URL;
  } catch {
    return NOTIFICATION_URL;
  }
}
