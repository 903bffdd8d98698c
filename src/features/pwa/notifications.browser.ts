import { $cartCount } from '../cart/cart-store.browser.ts';
import {
  CART_REMINDER_INTERVAL_MS,
  CART_REMINDER_TAG,
  NOTIFICATION_ICON,
  NOTIFICATION_URL,
  type NotificationRequest,
  type ToServiceWorker,
  WELCOME_DELAY_MS,
  WELCOME_TAG,
} from './sw-messages.ts';

/**
 * Notifications and the app badge (seed spec §7, §9; decisions.md "Other behaviour").
 *
 * - Permission is asked only by `enableNotifications()`, from a click ("Remind me about my
 *   cart" on /cart, the profile's notifications tab), never on load.
 * - With permission: the welcome notification about 20 s after a page loads, once per
 *   device; a cart reminder every 2 hours while the cart has items, stopped when it empties.
 * - The page keeps the timers (a browser stops an idle service worker, timers and all) and,
 *   when one is due, posts SCHEDULE_NOTIFICATION to the service worker, which shows it.
 *   The next reminder's time is kept in localStorage so moving between pages does not
 *   restart the 2 hours.
 * - The app badge shows the cart's item count and clears with the cart.
 * Failures (no permission, no service worker, no badge support) are logged, never shown.
 */

const WELCOME_SHOWN_KEY = 'gtsWelcomeNotified';
const NEXT_REMINDER_KEY = 'gtsCartReminderAt';

const WELCOME: NotificationRequest = {
  title: 'Welcome to GTS',
  body: 'We will remind you about the items in your cart. Tap to see it.',
  tag: WELCOME_TAG,
  url: NOTIFICATION_URL,
};

function reminder(count: number): NotificationRequest {
  return {
    title: 'Your cart is waiting',
    body: `You have ${count} item${count === 1 ? '' : 's'} in your cart. Check out before they sell out.`,
    tag: CART_REMINDER_TAG,
    url: NOTIFICATION_URL,
  };
}

export function notificationsGranted(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // Storage blocked: the timers still run for this page.
    }
  },
};

/** Sends a message to the active service worker, once there is one. */
async function toServiceWorker(message: ToServiceWorker): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const registration = await navigator.serviceWorker.getRegistration();
  const worker = registration?.active;
  if (!worker) return false;
  worker.postMessage(message);
  return true;
}

/** Shows a notification through the service worker; without one, straight from the page. */
async function showNow(request: NotificationRequest) {
  if (!notificationsGranted()) return;
  try {
    if (await toServiceWorker({ type: 'SCHEDULE_NOTIFICATION', delay: 0, ...request })) return;
    new Notification(request.title, { body: request.body, tag: request.tag, icon: NOTIFICATION_ICON, badge: NOTIFICATION_ICON });
    navigator.vibrate?.(200);
  } catch (error) {
    console.warn('Could not show a notification', error);
  }
}

let welcomeTimer: ReturnType<typeof setTimeout> | undefined;
let reminderTimer: ReturnType<typeof setTimeout> | undefined;
let started = false;

function scheduleWelcome() {
  if (welcomeTimer !== undefined || storage.get(WELCOME_SHOWN_KEY)) return;
  welcomeTimer = setTimeout(() => {
    if (storage.get(WELCOME_SHOWN_KEY)) return;
    storage.set(WELCOME_SHOWN_KEY, String(Date.now()));
    void showNow(WELCOME);
  }, WELCOME_DELAY_MS);
}

/** Keeps one timer for the next reminder while the cart has items; none (and no reminder on screen) when it is empty. */
function scheduleReminder(count: number) {
  clearTimeout(reminderTimer);
  reminderTimer = undefined;
  if (count === 0) {
    if (storage.get(NEXT_REMINDER_KEY) !== null) {
      storage.set(NEXT_REMINDER_KEY, null);
      void toServiceWorker({ type: 'CANCEL_NOTIFICATION', tag: CART_REMINDER_TAG }).catch(() => false);
    }
    return;
  }
  const now = Date.now();
  let due = Number(storage.get(NEXT_REMINDER_KEY));
  // None yet, unreadable, or missed while no page was open: the next one is 2 hours from now
  // (a shopper who has just come back is not reminded on arrival).
  if (!Number.isFinite(due) || due <= now || due > now + CART_REMINDER_INTERVAL_MS) {
    due = now + CART_REMINDER_INTERVAL_MS;
    storage.set(NEXT_REMINDER_KEY, String(due));
  }
  reminderTimer = setTimeout(() => {
    const items = $cartCount.get();
    if (items === 0 || !notificationsGranted()) return;
    storage.set(NEXT_REMINDER_KEY, String(Date.now() + CART_REMINDER_INTERVAL_MS));
    void showNow(reminder(items));
    scheduleReminder(items);
  }, due - now);
}

/** Starts the welcome and cart reminders if permission was given (on this page or before). */
export function startNotifications() {
  if (started || !notificationsGranted()) return;
  started = true;
  scheduleWelcome();
  $cartCount.subscribe(scheduleReminder);
}

/**
 * Asks for permission (call it from a click: browsers refuse or hide requests made on load)
 * and starts the notifications when granted. Answers the permission: 'granted', 'denied',
 * 'default' (the shopper closed the request) or 'unsupported'.
 */
export async function enableNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  let permission: NotificationPermission = Notification.permission;
  try {
    if (permission === 'default') permission = await Notification.requestPermission();
  } catch (error) {
    console.warn('Notification permission request failed', error);
  }
  if (permission === 'granted') startNotifications();
  return permission;
}

/** The app badge follows the cart's item count (where the browser has app badges). */
export function syncAppBadge() {
  if (!('setAppBadge' in navigator)) return;
  $cartCount.subscribe((count) => {
    const done = count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge();
    done.catch((error: unknown) => console.warn('Could not update the app badge', error));
  });
}
