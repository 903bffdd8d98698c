/**
 * The newsletter sign-up (NewsletterForm.astro) sends the address to the Worker and shows its
 * answer, or why not, under the field, without leaving the page. Before this script runs, or
 * without JavaScript, the form posts to /newsletter/subscribe, which answers with a page.
 */
import { subscribeToNewsletter } from './newsletter-client.browser.ts';

/** Takes over every sign-up form on the page. */
export function startNewsletterForms() {
  for (const form of document.querySelectorAll<HTMLFormElement>('[data-newsletter]')) {
    const input = form.querySelector('input')!;
    const message = form.querySelector<HTMLElement>('.form-message')!;
    const button = form.querySelector('button')!;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      const result = await subscribeToNewsletter(input.value);
      button.disabled = false;
      message.textContent = result.message;
      message.dataset.kind = result.ok ? 'success' : 'error';
      input.setAttribute('aria-invalid', String(!result.ok));
      if (result.ok) form.reset();
      // Disabled while it sent, the button lost focus to the page (or kept it, when nothing was
      // sent): to the field to correct it, or back to the button once the address is taken.
      const active = document.activeElement;
      const fromForm = active === document.body || active === null || active === button;
      if (fromForm) (result.ok ? button : input).focus();
    });
  }
}
