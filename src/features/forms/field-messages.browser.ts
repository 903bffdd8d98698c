/**
 * Field messages for the plain-script forms (/login, /sell-or-swap), in the form kit's markup
 * (Field.tsx): a message is `p#${id}-error.field-error` at the end of the field's frame, the
 * control says it is invalid and names the message in aria-describedby (after its hint and any
 * checklist, which stay).
 */
export function showFieldMessage(
  control: Element,
  message: string | undefined,
  { id = control.id, frame = control.closest('.field') }: { id?: string; frame?: Element | null } = {},
) {
  const errorId = `${id}-error`;
  frame?.querySelector(`#${CSS.escape(errorId)}`)?.remove();
  const described = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((token) => token && token !== errorId);
  if (message && frame) {
    const text = document.createElement('p');
    text.id = errorId;
    text.className = 'field-error';
    text.textContent = message;
    frame.appendChild(text);
    described.push(errorId);
  }
  if (described.length) control.setAttribute('aria-describedby', described.join(' '));
  else control.removeAttribute('aria-describedby');
  if (message) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}
