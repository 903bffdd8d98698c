/**
 * A small banner at the bottom of the page (the "new version" offer, the install offer),
 * plain DOM so pages without an island stay free of React. Styles: Pwa.astro.
 */
export interface BannerOptions {
  /** One banner per id: showing it again replaces the old one. */
  id: string;
  /** The landmark's accessible name. */
  label: string;
  /** 'status' for news the page announces (a new version); a labelled region otherwise. */
  role?: 'status';
  text: string;
  actions: readonly { label: string; primary?: boolean; onClick: () => void }[];
}

export function showBanner({ id, label, role, text, actions }: BannerOptions): HTMLElement {
  document.getElementById(id)?.remove();
  const banner = document.createElement('section');
  banner.id = id;
  banner.className = 'pwa-banner';
  banner.setAttribute('aria-label', label);
  if (role) banner.setAttribute('role', role);
  const message = document.createElement('p');
  message.textContent = text;
  const buttons = document.createElement('div');
  buttons.className = 'pwa-banner__actions';
  for (const action of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = action.primary ? 'btn btn-primary' : 'btn btn-outline';
    button.textContent = action.label;
    button.addEventListener('click', action.onClick);
    buttons.appendChild(button);
  }
  // appendChild, not append: the glue project's workers-types overload append() and reject elements.
  banner.appendChild(message);
  banner.appendChild(buttons);
  document.body.appendChild(banner);
  return banner;
}

export function hideBanner(id: string) {
  document.getElementById(id)?.remove();
}
