import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A confirmation in a native modal <dialog>: focus moves into it (showModal focuses its first
 * control: the form's first field, or Cancel, which comes before the confirm button), the page behind is inert, Escape closes it, and focus returns to what
 * opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  closeLabel = 'Cancel',
  busy = false,
  danger = false,
  onConfirm,
  onClose,
  formId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes it unchanged ("Keep the order" where "Cancel" would read as the move). */
  closeLabel?: string;
  busy?: boolean;
  danger?: boolean;
  /** Without `formId`: what the confirm button does. */
  onConfirm?: () => void;
  onClose: () => void;
  /** The dialog holds a form: the confirm button submits it. */
  formId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      // Back to what opened it, if it is still there (a move can remove its own button).
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  return (
    <dialog ref={ref} className="admin-dialog" aria-labelledby={titleId} onClose={() => open && onClose()}>
      <h2 id={titleId}>{title}</h2>
      <div className="admin-dialog__body">{children}</div>
      <div className="admin-dialog__actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {closeLabel}
        </button>
        <button
          type={formId ? 'submit' : 'button'}
          form={formId}
          className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
          onClick={formId ? undefined : onConfirm}
          disabled={busy}
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
