import { parsePage } from '../../lib/html-page.browser.ts';
import { isOffline, onReconnect } from '../pwa/connection.browser.ts';
import { $recentOrders } from './checkout-store.browser.ts';
import { copyFromButton } from './copy-detail.browser.ts';

/**
 * /track, made to answer in place by a plain script (docs/decisions/004). The page is a real form
 * that posts to /track/order, where the Worker looks the order up and renders the page with it
 * (track.server.ts, TrackPage.astro). This script keeps that one rendering:
 *
 * - Track Order posts the same form with fetch and puts the Worker's answer into the page: the
 *   fields' messages, the form's message, and the order. Focus goes to the order when one is
 *   found, else to the first field to correct; the form's message is an alert.
 * - An e-mailed link's `?order=` fills the order number; orders placed in this browser are
 *   offered as shortcuts that fill the form and look up at once. The order found is named in the
 *   address (`?order=`), and one this browser placed is looked up as the page opens, so a reload
 *   keeps it on screen.
 * - Copy buttons copy a bank detail (copy-detail.browser.ts) and say Copied for a moment.
 * - An order paying into its own account (`data-watch`) is asked for again every 45 s while the
 *   page shows (and when the connection comes back), and replaced when its payment moved: it
 *   turns paid by itself. Lookups are limited per client (20 per 10 minutes), so no faster.
 *
 * The page says it is ready with `data-ready` on `[data-track]`.
 */

/** How often /track asks again about an order paying into its own account. */
const TRACK_WATCH_MS = 45_000;

const NETWORK_MESSAGE = 'We could not look up your order just now. Please try again.';
const OFFLINE_MESSAGE = 'You are offline: we can look up your order once you are connected again.';

interface Lookup {
  number: string;
  email: string;
}

/** The Worker's page for a lookup, or undefined when it did not answer with one (offline, a 5xx). */
async function askWorker(lookup: Lookup, signal?: AbortSignal): Promise<HTMLElement | undefined> {
  try {
    const response = await fetch('/track/order', {
      method: 'POST',
      body: new URLSearchParams({ number: lookup.number, email: lookup.email }),
      headers: { accept: 'text/html' },
      signal,
    });
    if (response.status >= 500 || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return undefined;
    return parsePage(await response.text()).querySelector<HTMLElement>('[data-track]') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Replaces `old` with `fresh` from another document. Not `replaceWith()`: see listing.browser.ts on the Worker's DOM types. */
function replaceNode(old: Element, fresh: Element) {
  old.parentNode?.replaceChild(document.importNode(fresh, true), old);
}

function track(root: HTMLElement) {
  /** The lookup the shown order came from: the watch asks again with it, whatever is typed since. */
  let shown: Lookup | undefined;
  let watch: ReturnType<typeof setInterval> | undefined;
  let asking: AbortController | undefined;
  let watching = false;

  const form = () => root.querySelector<HTMLFormElement>('form');
  const field = (name: keyof Lookup) => form()?.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const typed = (): Lookup => ({ number: field('number')?.value ?? '', email: field('email')?.value ?? '' });
  const result = () => root.querySelector<HTMLElement>('[data-track-result]');

  function showRecent() {
    const box = root.querySelector<HTMLElement>('[data-track-recent]');
    const list = box?.querySelector('ul');
    if (!box || !list) return;
    const recent = $recentOrders.get();
    list.replaceChildren(
      ...recent.map((order) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'btn btn-outline';
        button.textContent = order.number;
        button.dataset.recentNumber = order.number;
        button.dataset.recentEmail = order.email;
        item.appendChild(button);
        return item;
      }),
    );
    box.hidden = recent.length === 0;
  }

  /** Watches the shown order while it pays into its own account. */
  function watchShown() {
    clearInterval(watch);
    watch = undefined;
    if (!shown || result()?.dataset.watch === undefined) return;
    watch = setInterval(askAgain, TRACK_WATCH_MS);
  }

  async function askAgain() {
    const lookup = shown;
    if (!lookup || asking || watching || document.visibilityState === 'hidden') return;
    watching = true;
    const answer = await askWorker(lookup).finally(() => {
      watching = false;
    });
    const fresh = answer?.querySelector('[data-track-result]');
    const current = result();
    // Another lookup started meanwhile, or nothing to say: the next tick asks again.
    if (!fresh || !current || shown !== lookup || asking) return;
    if (fresh.getAttribute('data-progress') === current.dataset.progress) return;
    replaceNode(current, fresh);
    watchShown();
  }

  async function find(lookup: Lookup) {
    asking?.abort();
    const controller = new AbortController();
    asking = controller;
    const button = form()?.querySelector<HTMLButtonElement>('button[type="submit"]');
    const idle = button?.textContent ?? '';
    if (button) {
      button.disabled = true;
      button.textContent = button.dataset.busyText ?? idle;
    }
    const answer = await askWorker(lookup, controller.signal);
    if (controller.signal.aborted) return;
    asking = undefined;
    if (!answer) {
      if (button) {
        button.disabled = false;
        button.textContent = idle;
      }
      const message = root.querySelector('.form-message');
      if (message) message.textContent = isOffline() ? OFFLINE_MESSAGE : NETWORK_MESSAGE;
      return;
    }
    // The Worker's form (its messages, what was sent) and its order, or none.
    const freshForm = answer.querySelector('form');
    const current = form();
    if (freshForm && current) replaceNode(current, freshForm);
    result()?.remove();
    const freshResult = answer.querySelector('[data-track-result]');
    if (freshResult) root.appendChild(document.importNode(freshResult, true));
    showRecent();
    shown = freshResult ? lookup : undefined;
    // The address names the order shown, so a reload (or the link, shared) comes back to it.
    if (freshResult) history.replaceState(history.state, '', `/track?order=${encodeURIComponent(lookup.number)}`);
    watchShown();
    // Focus: the order found, else the first field to correct, else the button (the message is an alert).
    const next =
      root.querySelector<HTMLElement>('[data-track-result] [tabindex="-1"]') ??
      root.querySelector<HTMLElement>('input[aria-invalid="true"]') ??
      form()?.querySelector<HTMLElement>('button[type="submit"]');
    next?.focus();
  }

  root.addEventListener('submit', (event) => {
    event.preventDefault();
    void find(typed());
  });

  root.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const recent = target?.closest<HTMLButtonElement>('button[data-recent-number]');
    if (recent) {
      const lookup = { number: recent.dataset.recentNumber ?? '', email: recent.dataset.recentEmail ?? '' };
      const [number, email] = [field('number'), field('email')];
      if (number) number.value = lookup.number;
      if (email) email.value = lookup.email;
      void find(lookup);
      return;
    }
    const copy = target?.closest<HTMLButtonElement>('button[data-copy]');
    if (copy) void copyFromButton(copy);
  });

  // An e-mailed link's order number, unless the shopper already typed one.
  const linked = new URLSearchParams(window.location.search).get('order');
  const number = field('number');
  if (linked && number && !number.value) number.value = linked;
  // The order the Worker rendered (the form posted before this script ran, or without it).
  if (result()) shown = typed();
  showRecent();
  // An order this browser placed, named by the address (a reload, the cart's Track link): shown at once.
  const known = linked && !result() ? $recentOrders.get().find((order) => order.number === linked) : undefined;
  if (known) {
    const email = field('email');
    if (email && !email.value) email.value = known.email;
    void find({ number: known.number, email: known.email });
  }
  watchShown();
  onReconnect(() => void askAgain());
  root.dataset.ready = '';
}

const root = document.querySelector<HTMLElement>('[data-track]');
if (root) track(root);
