import { useStore } from '@nanostores/react';
import { createRoot, type Root } from 'react-dom/client';
import { $cartItems } from '../cart/cart-store.browser.ts';
import { fetchOwnOrder } from './api-client.browser.ts';
import CheckoutDialog from './CheckoutDialog.tsx';
import type { PlacedRef } from './checkout-store.browser.ts';
import type { PlacedOrder } from './order-view.ts';

/**
 * The checkout, mounted by /cart's plain script (cart-page.browser.ts) when the shopper heads for
 * it: the one module of /cart that brings React, the form library and the order contract's zod.
 * The dialog stays mounted once opened, so closing and reopening keeps what was typed.
 */

interface Opening {
  /** This browser's unpaid order for these lines: the dialog opens on its payment step. */
  resume?: PlacedRef;
  onClose: () => void;
  /** The server refused the cart as it stands (stock or price moved): the cart checks itself again. */
  onCartOutdated: () => void;
}

let root: Root | undefined;

function CheckoutHost({ open, resume, opening }: { open: boolean; resume: PlacedOrder | null; opening: Opening }) {
  const items = useStore($cartItems);
  return (
    <CheckoutDialog
      open={open}
      items={items}
      resume={resume}
      onClose={() => {
        show(false, resume, opening);
        opening.onClose();
      }}
      onCartOutdated={opening.onCartOutdated}
    />
  );
}

function show(open: boolean, resume: PlacedOrder | null, opening: Opening) {
  root?.render(<CheckoutHost open={open} resume={resume} opening={opening} />);
}

/** Opens the checkout in `host`; with `resume`, on that order's payment step while it still awaits payment. */
export async function openCheckout(host: HTMLElement, opening: Opening) {
  // The full order (its payment details), read with the order contract; the cart only knew it was waiting.
  const placed = opening.resume ? await fetchOwnOrder(opening.resume.number, opening.resume.accessToken).catch(() => null) : null;
  const resume = placed?.order.status === 'awaiting_payment' ? placed : null;
  root ??= createRoot(host);
  show(true, resume, opening);
}
