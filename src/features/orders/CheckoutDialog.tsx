import { X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import type { CartItem } from '../cart/cart.ts';
import { DetailsStep, PaidStep, PaymentStep, SuccessStep } from './CheckoutSteps.tsx';
import type { PlacedOrder } from './order-view.ts';
import { useCheckout } from './use-checkout.browser.ts';
import './CheckoutDialog.css';
import '../forms/email-suggestion.css';

interface Props {
  open: boolean;
  items: readonly CartItem[];
  onClose: () => void;
  /** The server refused the cart as it stands (stock or price moved): the cart re-checks itself. */
  onCartOutdated: () => void;
  /** Open straight on the payment step of this order (placed earlier for this cart, not yet paid). */
  resume?: PlacedOrder | null;
}

const TITLES = {
  details: 'Checkout',
  payment: 'Pay by bank transfer',
  success: 'Payment noted',
  paid: 'Payment received',
} as const;

/**
 * Checkout in a native modal <dialog> (focus stays inside, the page behind is inert,
 * Escape closes). The steps and what moves between them are `useCheckout`'s.
 */
export default function CheckoutDialog({ open, items, onClose, onCartOutdated, resume }: Props) {
  const checkout = useCheckout({ items, onClose, onCartOutdated });
  const { step, placed } = checkout;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: resuming happens as the dialog opens, not when the hook's functions change
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (resume) checkout.resume(resume);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // Each new step is announced by moving focus to its heading (the button that led there is gone),
  // and opens at its top: the dialog scrolls as one box, and the heading sits in its sticky head,
  // so focusing it alone left a phone at the bottom of the step before (the details' scroll).
  useEffect(() => {
    if (!open || step === 'details') return;
    dialogRef.current?.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [open, step]);

  const order = placed?.order;
  return (
    <dialog ref={dialogRef} className="checkout" aria-labelledby={titleId} onClose={() => open && checkout.close()}>
      <div className="checkout__head">
        <h2 id={titleId} ref={headingRef} tabIndex={-1}>
          {TITLES[step]}
        </h2>
        <button type="button" className="icon-btn" onClick={checkout.close} aria-label="Close checkout">
          <X size={20} aria-hidden="true" />
        </button>
      </div>

      {step === 'details' && (
        <DetailsStep
          form={checkout.form}
          onSubmit={checkout.submitDetails}
          problem={checkout.problem}
          holdLimit={checkout.holdLimit}
          busy={checkout.busy}
          cartEmpty={items.length === 0}
          earlierOrder={checkout.earlierOrder}
          items={items}
        />
      )}
      {step === 'payment' && order?.payment && (
        <PaymentStep
          order={order}
          payment={order.payment}
          replaced={checkout.replaced}
          busy={checkout.busy}
          onReportPaid={checkout.reportPaid}
        />
      )}
      {step === 'success' && order && <SuccessStep order={order} />}
      {step === 'paid' && order && <PaidStep order={order} onClose={checkout.close} />}
    </dialog>
  );
}
