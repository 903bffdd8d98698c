import { ApiRequestError, readAnswer, sendRequest } from '../../lib/api-client.browser.ts';
import { fillPath } from '../../lib/api-contract.ts';
import { formatNaira, type Kobo } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import {
  $lastOrder,
  cartLinesKey,
  finishCheckoutAttempt,
  forgetLastOrder,
  lastOrderToShow,
  type PlacedRef,
  placedOrderForCart,
} from '../orders/checkout-store.browser.ts';
import { copyFromButton } from '../orders/copy-detail.browser.ts';
import {
  isClosedWithoutSale,
  ORDER_WATCH_MS,
  type OrderStatus,
  showsPaymentDetails,
  statusBadge,
} from '../orders/order-status.ts';
import { DELIVERY_FEE as SHIPPING_FEE } from '../orders/delivery.ts';
import { isOffline, onReconnect } from '../pwa/connection.browser.ts';
import { enableNotifications, notificationsGranted } from '../pwa/notifications.browser.ts';
import { notify } from '../toast/notify.browser.ts';
import {
  blocksCheckout,
  type CheckedLine,
  cartCheckApi,
  goneFromSale,
  lineProblemText,
  orderLinesFromCart,
} from './cart-check.ts';
import { $cartItems, removeFromCart, repriceCartLine, updateCartQuantity } from './cart-store.browser.ts';
import { type CartItem, cartSubtotal, lineKey, lineTitle, MAX_LINE_QUANTITY } from './cart.ts';
import { settleCart } from './settle-cart.browser.ts';

/**
 * /cart, drawn by a plain script from the cart kept in this browser (CartPage.astro's templates;
 * docs/decisions/004). What it does, as the React island before it did:
 *
 * - Each line shows its price, quantity (− stops at 1, + at what may be ordered) and subtotal.
 *   Lines are kept by their key, so focus stays on the button pressed while the cart redraws.
 * - Whenever the lines change (and when the connection comes back, and after the checkout
 *   closes) they are checked against D1's live prices and stock (POST /api/orders/quote, 250 ms
 *   after the last change). A changed price is taken into the cart and shown on the line; a line
 *   that cannot be ordered as it stands says why and holds back checkout; the API's refusal of
 *   the whole cart (a limit) is said in its own words.
 * - Remove takes the line out, keeps focus in the cart (the next line's Remove, else the one
 *   before, else the heading), and the toast offers Undo, which puts it back in its place.
 * - This browser's unpaid order for exactly these lines is asked for: its items are held for
 *   the shopper, so the button continues to its payment instead of a new order.
 * - Proceed to Checkout loads the checkout (checkout-mount.browser.tsx: React and the form) on
 *   the click; pointing at or tabbing to the button starts that download. Offline, the button is
 *   off and says why.
 * - The emptied cart shows the order just finished, if any, with how to pay.
 *
 * The page says it is ready with `data-ready` on `[data-cart]`.
 */

/** A line's live state from the last check, and the price it had before if that changed. */
interface LineCheck {
  checked?: CheckedLine;
  priceWas?: Kobo;
}

/** After a removal: the line now at its index (or the one before); after an undo: the restored line. */
type FocusTarget = { removedAt: number } | { line: string };

const NEEDS_CONNECTION =
  'You are offline. Checkout needs a connection: your cart stays on this device until you are back online.';

// The checkout (React, its steps and the form library) loads when the shopper heads for it.
const loadCheckout = () => import('../orders/checkout-mount.browser.tsx');

function template(name: string): HTMLElement {
  const found = document.querySelector(`template[data-cart-template="${name}"]`);
  if (!(found instanceof HTMLTemplateElement)) throw new Error(`CartPage.astro has no "${name}" template`);
  return found.content.firstElementChild?.cloneNode(true) as HTMLElement;
}

function cartPage(root: HTMLElement, checkoutHost: HTMLElement) {
  const linesView = template('lines');
  const emptyView = template('empty');
  const list = linesView.querySelector('[data-cart-lines]') as HTMLElement;
  const summary = linesView.querySelector('.cart__summary') as HTMLElement;
  const checkoutButton = linesView.querySelector('[data-checkout]') as HTMLButtonElement;
  const lineElements = new Map<string, HTMLElement>();

  let items: readonly CartItem[] = [];
  let checks = new Map<string, LineCheck>();
  let checkFailed = false;
  /** Why the API refused to check the cart at all (a limit, too many requests), in its own words. */
  let refusal: string | null = null;
  /** This browser's unpaid order for exactly these lines. */
  let ownOrder: { ref: PlacedRef; number: string; expiresAt: string } | null = null;
  let focusNext: FocusTarget | null = null;
  let checkoutOpen = false;
  let quoting: AbortController | undefined;
  let quoteTimer: ReturnType<typeof setTimeout> | undefined;
  let linesSignature = '';
  let ownOrderKey = '';
  let ownOrderAsk = 0;

  const note = (name: string) => summary.querySelector<HTMLElement>(`[data-cart-note="${name}"]`) as HTMLElement;

  /**
   * The finished order's notice, built once per order: a redraw (online/offline, another tab, a
   * re-check) keeps the same element, so its Copy button still says Copied and focus stays put.
   */
  let lastNotice: { order: string; view: HTMLElement } | null = null;
  function lastOrderNotice(order: NonNullable<ReturnType<typeof lastOrderToShow>>): HTMLElement {
    const key = `${order.number} ${order.finishedAt}`;
    if (lastNotice?.order !== key) lastNotice = { order: key, view: lastOrderView(order) };
    // Watched while it is on the page and its transfer is still due (again if it comes back).
    if (lastNotice.view.dataset.watch !== 'on') void settleLastOrder(lastNotice.view, order);
    return lastNotice.view;
  }

  function render() {
    if (items.length === 0) {
      const last = lastOrderToShow($lastOrder.get());
      const shown = last ? [lastOrderNotice(last), emptyView] : [emptyView];
      if (root.childNodes.length !== shown.length || shown.some((view, i) => root.childNodes[i] !== view)) {
        root.replaceChildren(...shown);
      }
    } else {
      if (root.firstChild !== linesView || root.childNodes.length !== 1) root.replaceChildren(linesView);
      renderLines();
      renderSummary();
    }
    const target = focusNext;
    focusNext = null;
    if (target) placeFocus(target);
  }

  function renderLines() {
    const keys = new Set(items.map(lineKey));
    for (const [key, element] of lineElements) {
      if (!keys.has(key)) {
        element.remove();
        lineElements.delete(key);
      }
    }
    items.forEach((item, index) => {
      const key = lineKey(item);
      let element = lineElements.get(key);
      if (!element) {
        element = template('line');
        element.dataset.line = key;
        lineElements.set(key, element);
      }
      fillLine(element, item, ownOrder ? undefined : checks.get(key));
      // Moved only when out of place: moving the element holding focus would drop it.
      if (list.children[index] !== element) list.insertBefore(element, list.children[index] ?? null);
    });
  }

  function renderSummary() {
    // A line whose product or option is gone from sale is not counted: it cannot be bought at any price.
    const subtotal = cartSubtotal(items.filter((i) => !goneFromSale(checks.get(lineKey(i))?.checked?.problem)));
    setText(summary, '[data-cart-subtotal]', formatNaira(subtotal));
    setText(summary, '[data-cart-total]', formatNaira(subtotal + SHIPPING_FEE));
    setText(summary, '[data-cart-pickup-total]', formatNaira(subtotal));
    // The shopper's own unpaid order holds these very lines: its reservation is theirs, not a shortage.
    const blocked =
      !ownOrder && (refusal !== null || items.some((i) => blocksCheckout(checks.get(lineKey(i))?.checked?.problem)));
    note('check-failed').hidden = !checkFailed;
    const refused = note('refusal');
    refused.hidden = !(refusal && !ownOrder);
    refused.textContent = refusal ?? '';
    note('blocked').hidden = !blocked;
    const own = note('own-order');
    own.hidden = !ownOrder;
    if (ownOrder) {
      setText(own, '[data-own-number]', ownOrder.number);
      setText(own, '[data-own-until]', formatLagosTime(ownOrder.expiresAt));
    }
    const offline = isOffline();
    checkoutButton.textContent = ownOrder ? 'Continue to payment' : 'Proceed to Checkout';
    checkoutButton.disabled = blocked || offline;
    note('offline').hidden = !offline;
  }

  /** Focus stays in the cart: see FocusTarget. */
  function placeFocus(target: FocusTarget) {
    const lines = [...root.querySelectorAll<HTMLElement>('[data-line]')];
    const line =
      'line' in target
        ? lines.find((l) => l.dataset.line === target.line)
        : (lines[target.removedAt] ?? lines[target.removedAt - 1]);
    const focusable = line?.querySelector<HTMLElement>('[data-remove]') ?? root.querySelector<HTMLElement>('[data-cart-focus]');
    focusable?.focus();
  }

  /** Remove: the line goes, focus stays in the cart, and the toast offers Undo (the line back in its place). */
  function removeLine(item: CartItem) {
    const index = items.findIndex((i) => lineKey(i) === lineKey(item));
    focusNext = { removedAt: index };
    removeFromCart(item);
    notify('info', `${lineTitle(item)} removed from cart`, {
      action: {
        label: 'Undo',
        onClick: () => {
          focusNext = { line: lineKey(item) };
          restoreLine(item, index);
        },
      },
    });
  }

  /** Checks the lines against D1 250 ms after they last changed; a check still under way is dropped. */
  function scheduleCheck() {
    quoting?.abort();
    clearTimeout(quoteTimer);
    if (items.length === 0) return;
    const checking = items;
    const controller = new AbortController();
    quoting = controller;
    quoteTimer = setTimeout(() => {
      askQuote(checking, controller.signal).then(
        (quote) => {
          if (!controller.signal.aborted) applyQuote(checking, quote.lines);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const refused = error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
          checkFailed = !refused;
          refusal = refused ? refusalText(error) : null;
          render();
        },
      );
    }, 250);
  }

  /**
   * Whether the quote priced the line differently from the cart. The quote names one problem
   * per line, and a shortage (of stock, or of what unpaid orders may hold) outranks a changed
   * price, so the live price is read whenever the line was priced at all (a line that is gone
   * or not in that option has none).
   */
  const repriced = (item: CartItem, line: CheckedLine) =>
    line.problem?.kind !== 'unavailable' && line.problem?.kind !== 'unknown_variant' && line.unitPrice !== item.price;

  function applyQuote(checked: readonly CartItem[], lines: readonly CheckedLine[]) {
    checkFailed = false;
    refusal = null;
    const next = new Map<string, LineCheck>();
    lines.forEach((line, index) => {
      const item = checked[index];
      if (!item) return;
      const key = lineKey(item);
      next.set(key, { checked: line, priceWas: repriced(item, line) ? item.price : checks.get(key)?.priceWas });
    });
    checks = next;
    render();
    // Take live prices into the cart, so the summary is what the order will cost.
    lines.forEach((line, index) => {
      const item = checked[index];
      if (item && repriced(item, line)) repriceCartLine(item, line.unitPrice);
    });
  }

  /** This browser's unpaid order for exactly these lines, if the checkout placed one and was closed before paying. */
  function checkOwnOrder() {
    const ask = ++ownOrderAsk;
    ownOrder = null;
    const placed = placedOrderForCart(ownOrderKey);
    if (!placed) return;
    askOwnOrder(placed).then(
      ({ order }) => {
        if (ask !== ownOrderAsk) return;
        if (order.status === 'awaiting_payment') {
          ownOrder = { ref: placed, number: order.number, expiresAt: order.expiresAt };
          render();
          return;
        }
        // Paid for (the transfer landed after the checkout closed), or reported paid on /track:
        // these lines are that order's, so the cart shows the order instead of offering them again.
        // Either way, and after a cancel or an expiry (the lines stay), the next checkout is a new order.
        settleCart(order, placed);
      },
      (error: unknown) => {
        if (ask === ownOrderAsk && error instanceof ApiRequestError && error.status === 404) finishCheckoutAttempt();
      },
    );
  }

  function recheck() {
    scheduleCheck();
    checkOwnOrder();
    render();
  }

  async function openCheckout() {
    if (isOffline()) {
      notify('warning', NEEDS_CONNECTION);
      return;
    }
    try {
      const { openCheckout: open } = await loadCheckout();
      checkoutOpen = true;
      await open(checkoutHost, {
        resume: ownOrder?.ref,
        onClose: () => {
          checkoutOpen = false;
          recheck();
          // The dialog gives focus back to what had it when it opened. Safari does not focus a
          // button on click, so that was the page itself, and focus stays in the closed dialog or
          // falls to the page: give it to the checkout button, or to the cart's heading once the
          // order emptied the cart.
          setTimeout(() => {
            const at = document.activeElement;
            if (at && at !== document.body && !checkoutHost.contains(at)) return;
            const back = checkoutButton.isConnected && checkoutButton.offsetParent ? checkoutButton : null;
            (back ?? root.querySelector<HTMLElement>('[data-cart-focus]'))?.focus();
          });
        },
        onCartOutdated: recheck,
      });
    } catch {
      checkoutOpen = false;
      notify('error', 'We could not open the checkout. Check your connection and try again.');
    }
  }

  root.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest('button');
    if (!button) return;
    const line = button.closest<HTMLElement>('[data-line]');
    const item = line && items.find((i) => lineKey(i) === line.dataset.line);
    if (item && button.dataset.step) {
      if (button.getAttribute('aria-disabled') !== 'true') updateCartQuantity(item, item.quantity + Number(button.dataset.step));
    } else if (item && button.hasAttribute('data-remove')) removeLine(item);
    else if (button === checkoutButton) void openCheckout();
    else if (button.dataset.reminders === 'default')
      void enableNotifications().then((state) => renderReminders(linesView, state));
    else if (button.hasAttribute('data-last-dismiss')) forgetLastOrder();
    else if (button.hasAttribute('data-copy')) void copyFromButton(button as HTMLButtonElement);
  });
  // Pointing at or tabbing to the button starts the checkout's download, so the click usually finds it ready.
  const prefetch = () => void loadCheckout().catch(() => undefined);
  checkoutButton.addEventListener('pointerenter', prefetch);
  checkoutButton.addEventListener('focus', prefetch);
  window.addEventListener('online', render);
  window.addEventListener('offline', render);
  // Back online: check prices and stock again (they may have changed meanwhile).
  onReconnect(recheck);

  $cartItems.subscribe((next) => {
    items = next;
    const signature = next.map((i) => `${lineKey(i)}×${i.quantity}@${i.price}`).join('|');
    if (signature !== linesSignature) {
      linesSignature = signature;
      scheduleCheck();
    }
    const key = cartLinesKey(orderLinesFromCart(next));
    if (key !== ownOrderKey) {
      ownOrderKey = key;
      checkOwnOrder();
    }
    render();
  });
  $lastOrder.listen(() => {
    if (items.length === 0 && !checkoutOpen) render();
  });
  renderReminders(linesView);
  document.querySelector('[data-cart-loading]')?.remove();
  root.dataset.ready = '';
}

function fillLine(element: HTMLElement, item: CartItem, check: LineCheck | undefined) {
  const problem = check?.checked?.problem;
  const available = check?.checked?.available;
  const max = Math.min(MAX_LINE_QUANTITY, available ?? MAX_LINE_QUANTITY);
  const name = lineTitle(item);
  const image = element.querySelector('img') as HTMLImageElement;
  if (image.getAttribute('src') !== item.image) image.src = item.image;
  const link = element.querySelector('.cart-line__name a') as HTMLAnchorElement;
  link.href = `/product/${item.id}`;
  link.textContent = item.name;
  const variant = element.querySelector('.cart-line__variant') as HTMLElement;
  variant.textContent = item.variantLabel || item.variant;
  variant.hidden = !variant.textContent;
  setText(element, '.cart-line__price', `${formatNaira(item.price)} each`);
  const notice = element.querySelector('.cart-line__notice') as HTMLElement;
  const priceWas = check?.priceWas;
  notice.hidden = priceWas === undefined || priceWas === item.price;
  notice.textContent = notice.hidden ? '' : `Price changed: was ${formatNaira(priceWas ?? 0)}, now ${formatNaira(item.price)}`;
  const problemText = element.querySelector('.cart-line__problem') as HTMLElement;
  problemText.hidden = !(problem && blocksCheckout(problem));
  problemText.textContent = problem && !problemText.hidden ? lineProblemText(problem.kind, available ?? 0) : '';

  element.querySelector('[role="group"]')?.setAttribute('aria-label', `Quantity of ${name}`);
  // '−' stops at 1 (Remove is the one way to delete a line, with Undo); '+' at what may be ordered.
  const [less, more] = element.querySelectorAll<HTMLElement>('[data-step]');
  less?.setAttribute('aria-label', `Decrease quantity of ${name}`);
  less?.setAttribute('aria-disabled', String(item.quantity <= 1));
  more?.setAttribute('aria-label', `Increase quantity of ${name}`);
  more?.setAttribute('aria-disabled', String(item.quantity >= max));
  const quantity = element.querySelector('[data-quantity]') as HTMLElement;
  quantity.setAttribute('aria-label', `Quantity of ${name}`);
  if (quantity.textContent !== String(item.quantity)) quantity.textContent = String(item.quantity);
  const subtotal = element.querySelector('[data-line-subtotal]') as HTMLElement;
  subtotal.setAttribute('aria-label', `Subtotal for ${name}`);
  subtotal.textContent = formatNaira(item.price * item.quantity);
  element.querySelector('[data-remove]')?.setAttribute('aria-label', `Remove ${name}`);
}

function lastOrderView(order: NonNullable<ReturnType<typeof lastOrderToShow>>): HTMLElement {
  const view = template('last-order');
  const fill = (name: string, text: string) => {
    for (const element of view.querySelectorAll(`[data-last="${name}"]`)) element.textContent = text;
  };
  fill('number', order.number);
  fill('total', formatNaira(order.total));
  fill('bank', order.bankName);
  fill('account-name', order.accountName);
  fill('account-number', order.accountNumber);
  // An order with its own account confirms itself (decision 023); the shared account's needs the reference.
  // One kept without an account was settled already (settleLastOrder says how).
  const payTo = order.accountNumber !== '';
  view.querySelector<HTMLElement>('[data-last="shared-account"]')!.hidden = !payTo || order.ownAccount;
  view.querySelector<HTMLElement>('[data-last="own-account"]')!.hidden = !payTo || !order.ownAccount;
  const pickup = view.querySelector<HTMLElement>('[data-last="pickup"]');
  if (pickup) pickup.hidden = order.deliveryMethod !== 'pickup';
  view.querySelector('[data-last="track"]')?.setAttribute('href', `/track?order=${encodeURIComponent(order.number)}`);
  view.querySelector('[data-last="shared-account"] [data-copy]')?.setAttribute('data-copy', order.number);
  view.querySelector('[data-last="own-account"] [data-copy]')?.setAttribute('data-copy', order.accountNumber);
  return view;
}

/**
 * How often the finished order's notice asks again while its transfer is due: an order's own
 * account confirms itself in seconds (as the checkout's payment step watches it); the shared
 * account's transfer is confirmed by a person, in hours (as /track watches it).
 */
const SHARED_ACCOUNT_WATCH_MS = 45_000;

/**
 * The finished order's notice asks for the transfer only while it is due: once the store has the
 * money, or the order ended unpaid, it says where the order stands instead (asked of the Worker
 * with the order's token, which never counts against the lookup limit). It asks when it is built
 * and then, while it is on the page and the transfer still due, every ORDER_WATCH_MS (own
 * account) or SHARED_ACCOUNT_WATCH_MS, skipping while the tab is hidden: the checkout's success
 * step closes by itself, and the shopper who then pays from their bank's app sees it here.
 * Offline or unanswered, the notice stays as it was and asks again at the next turn.
 */
async function settleLastOrder(view: HTMLElement, order: NonNullable<ReturnType<typeof lastOrderToShow>>) {
  if (!order.accessToken || view.dataset.watch === 'settled') return;
  const ref = { number: order.number, accessToken: order.accessToken };
  const everyMs = order.ownAccount ? ORDER_WATCH_MS : SHARED_ACCOUNT_WATCH_MS;
  view.dataset.watch = 'on';
  try {
    for (let ask = 0; ask === 0 || view.isConnected; ask++) {
      if (ask > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (ask > 0 && (!view.isConnected || document.visibilityState === 'hidden')) continue;
      const answer = await askOwnOrder(ref).catch(() => null);
      const status = answer?.order.status;
      if (status && !showsPaymentDetails(status)) {
        showSettled(view, status);
        view.dataset.watch = 'settled';
        return;
      }
      if (answer?.order.payment) showStillToPay(view, answer.order.payment);
    }
  } finally {
    if (view.dataset.watch === 'on') view.dataset.watch = 'off';
  }
}

/**
 * A part of the transfer arrived: the notice asks for what is still to pay, and says what came
 * (the amount kept from the checkout is the whole total, which would be sent twice).
 */
function showStillToPay(view: HTMLElement, payment: { amount: number; received: number }) {
  if (payment.received <= 0) return;
  for (const element of view.querySelectorAll('[data-last="amount-label"]')) element.textContent = 'Still to pay';
  for (const element of view.querySelectorAll('[data-last="total"]')) element.textContent = formatNaira(payment.amount);
  for (const element of view.querySelectorAll('[data-last="received"]'))
    element.textContent = ` (${formatNaira(payment.received)} of it has arrived)`;
}

/** The notice once the order no longer waits for a transfer: where it stands, in its heading too. */
function showSettled(view: HTMLElement, status: OrderStatus) {
  for (const part of ['shared-account', 'own-account']) view.querySelector<HTMLElement>(`[data-last="${part}"]`)!.hidden = true;
  const settled = view.querySelector<HTMLElement>('[data-last="settled"]')!;
  const ended = isClosedWithoutSale(status);
  settled.textContent = `${statusBadge(status).detail}. ${ended ? 'There is nothing to pay.' : 'We have your payment: there is nothing more to pay.'}`;
  settled.hidden = false;
  const state = view.querySelector<HTMLElement>('[data-last="state"]');
  if (state) state.textContent = status;
}

/** 'Remind me about my cart': asks for notification permission on its click, never on load. */
function renderReminders(
  view: HTMLElement,
  state = typeof Notification === 'undefined' ? 'unsupported' : notificationsGranted() ? 'granted' : Notification.permission,
) {
  const box = view.querySelector<HTMLElement>('[data-cart-reminders]');
  if (!box) return;
  box.hidden = state === 'unsupported';
  for (const part of box.querySelectorAll<HTMLElement>('[data-reminders]')) part.hidden = part.dataset.reminders !== state;
}

function setText(scope: Element, selector: string, text: string) {
  const element = scope.querySelector(selector);
  if (element && element.textContent !== text) element.textContent = text;
}

/**
 * Undo of a removal: the line back at its index with its quantity. A line that is back
 * already (added again meanwhile, in this tab or another) is left as it is.
 */
function restoreLine(item: CartItem, index: number) {
  const items = $cartItems.get();
  if (items.some((i) => lineKey(i) === lineKey(item))) return;
  $cartItems.set([...items.slice(0, index), item, ...items.slice(index)]);
}

/** The API's reason for refusing the check, field messages first (e.g. 'You can order at most 5 of one product'). */
function refusalText(error: ApiRequestError): string {
  const reasons = [...new Set(error.issues.map((i) => i.message))];
  return reasons.length ? reasons.join(' ') : error.message;
}

/** POST /api/orders/quote with the cart's lines, read with the light check. */
async function askQuote(items: readonly CartItem[], signal: AbortSignal) {
  const { method, path } = cartCheckApi.quote;
  return readAnswer(cartCheckApi.quote, await sendRequest(method, path, { body: { lines: orderLinesFromCart(items) }, signal }));
}

/** GET /api/orders/:number with the order's access token, read with the light check. */
async function askOwnOrder(placed: PlacedRef) {
  const url = fillPath(cartCheckApi.ownOrder.path, { number: placed.number });
  return readAnswer(
    cartCheckApi.ownOrder,
    await sendRequest('GET', url, { headers: { authorization: `Bearer ${placed.accessToken}` } }),
  );
}

const root = document.querySelector<HTMLElement>('[data-cart]');
const host = document.querySelector<HTMLElement>('[data-checkout-host]');
if (root && host) cartPage(root, host);
