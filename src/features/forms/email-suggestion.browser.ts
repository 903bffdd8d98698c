import { emailSuggestion } from '../../lib/email-check.ts';

/**
 * "Did you mean ngozi@gmail.com?" under a plain-script form's e-mail field (the sign-up and
 * trade-in forms), as the checkout's EmailSuggestion (CheckoutSteps.tsx) says it: while the
 * address's domain is a slip from a common mailbox (emailSuggestion), a line in the field's frame
 * offers the likely address; one tap puts it in. The address as typed is still accepted.
 * Called again for the same field (its value set by a script), it brings the line up to date.
 */
export function offerEmailSuggestion(input: HTMLInputElement) {
  const offered = updates.get(input);
  if (offered) return offered();
  if (!input.closest('.field')) return;
  const line = document.createElement('p');
  line.className = 'email-suggestion';
  line.setAttribute('role', 'status');
  input.insertAdjacentElement('afterend', line);
  let shown: string | undefined;
  const update = () => {
    const suggestion = emailSuggestion(input.value);
    if (suggestion === shown) return;
    shown = suggestion;
    if (!suggestion) {
      line.replaceChildren();
      return;
    }
    const take = document.createElement('button');
    take.type = 'button';
    take.textContent = suggestion;
    take.addEventListener('click', () => {
      input.value = suggestion;
      // The form's own listeners (its checks, what it remembers) hear it as typing.
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.focus();
    });
    line.replaceChildren('Did you mean ', take, '?');
  };
  input.addEventListener('input', update);
  updates.set(input, update);
  update();
}

/** Each field's update, so offering again (after a script set the value) only brings the line up to date. */
const updates = new WeakMap<HTMLInputElement, () => void>();
