/**
 * The header's behaviour on every page (BaseLayout's frame script): the theme toggle's label,
 * the mobile menu, the search box's focus, the cart badge (the cart store's count), who is signed in (which account
 * links show) and Logout. Plain script: no framework on pages that need none (decision 004).
 * Three steps, which the frame's script takes in turns (decision 028): the controls first, so a
 * tap on them works at once; then the badge, which reads the stored cart; then the account
 * links, which ask the Worker who is signed in.
 */
import { $auth, loadSession, signOut } from '../features/account/session.browser.ts';
import { $cartCount } from '../features/cart/cart-store.browser.ts';
import { toggleTheme } from '../features/theme/theme.browser.ts';

/** The theme toggle and the phone menu. */
export function startHeaderControls() {
  const themeButton = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
  const labelTheme = () =>
    themeButton?.setAttribute(
      'aria-label',
      document.documentElement.classList.contains('dark') ? 'Switch to light theme' : 'Switch to dark theme',
    );
  labelTheme();
  // The theme can also change elsewhere (the profile's preferences): the label follows the page.
  new MutationObserver(labelTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  themeButton?.addEventListener('click', () => {
    toggleTheme();
  });

  const menuButton = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const menu = document.getElementById('mobile-menu');
  const setMenuOpen = (open: boolean) => {
    menuButton?.setAttribute('aria-expanded', String(open));
    menuButton?.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    if (menu) menu.hidden = !open;
  };
  menuButton?.addEventListener('click', () => setMenuOpen(menuButton.getAttribute('aria-expanded') !== 'true'));
  // Escape closes the open menu and puts focus back on the button that opened it.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !menu || menu.hidden) return;
    setMenuOpen(false);
    menuButton?.focus();
  });

  // The search icon opens the box ready to type in: no second tap on a phone.
  const search = document.querySelector<HTMLDetailsElement>('details.header-search');
  search?.addEventListener('toggle', () => {
    if (search.open) search.querySelector<HTMLInputElement>('input[name="q"]')?.focus();
  });
}

/** The cart badge and the cart link's name follow the cart kept in this browser. */
export function startCartBadge() {
  const cartLink = document.querySelector('[data-cart-link]');
  $cartCount.subscribe((count) => {
    for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
      badge.textContent = count > 99 ? '99+' : String(count);
      badge.hidden = count === 0;
    }
    cartLink?.setAttribute('aria-label', `Cart, ${count} ${count === 1 ? 'item' : 'items'}`);
  });
}

/**
 * Who is signed in, asked once per page: guests see Login; signed-in users Profile, Orders
 * and Logout; admins Admin too. Until the answer, none of them.
 */
export function startAccountLinks() {
  const authItems = document.querySelectorAll<HTMLElement>('[data-auth]');
  $auth.subscribe(({ loading, user }) => {
    for (const item of authItems) {
      const shownTo = item.dataset.auth;
      const show = !loading && (shownTo === 'guest' ? !user : shownTo === 'admin' ? user?.role === 'admin' : Boolean(user));
      item.hidden = !show;
    }
  });
  void loadSession();

  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-sign-out]')) {
    button.addEventListener('click', () => {
      button.disabled = true;
      signOut().then(
        () => window.location.assign('/'),
        // No answer (offline): still signed in; the button can be pressed again.
        () => {
          button.disabled = false;
        },
      );
    });
  }
}
