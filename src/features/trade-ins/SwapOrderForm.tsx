import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { SelectField, TextField } from '../forms/Field.tsx';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { checkoutDetailsSchema, type Customer, type CustomerInput } from '../orders/checkout.ts';
import { rememberOrder } from '../orders/checkout-store.browser.ts';
import { deliveryFee, PICKUP_POINT } from '../orders/delivery.ts';
import { DeliveryChoice } from '../orders/DeliveryChoice.tsx';
import { formatNigerianPhone, NIGERIAN_STATES, type NigerianState } from '../orders/nigeria.ts';
import type { PlacedOrder } from '../orders/order-view.ts';
import { isOffline } from '../pwa/connection.browser.ts';
import { placeSwapOrder, type RequesterProof } from './api-client.browser.ts';
import type { TradeInView } from './trade-in.ts';
import { finishSwapOrderAttempt, swapOrderKey } from './trade-in-store.browser.ts';

const isState = (value: string): value is NigerianState => (NIGERIAN_STATES as readonly string[]).includes(value);

/** The request's contact details as the order form's starting point (the address is the shopper's to add). */
function detailsFrom(contact: TradeInView['contact']): CustomerInput {
  return {
    delivery: 'delivery',
    name: contact.name,
    email: contact.email,
    phone: contact.phone.startsWith('+234') ? formatNigerianPhone(contact.phone) : contact.phone,
    address: '',
    city: '',
    state: isState(contact.state) ? contact.state : ('' as CustomerInput['state']),
  };
}

/**
 * An accepted swap becomes an order: the checkout's details (delivery for ₦1,500 or pick-up
 * at the Ikeja store), with the agreed value of the shopper's device taken off. The Worker
 * prices it; this shows the same sums as an estimate. One idempotency key per reference and
 * details (trade-in-store.browser.ts), so a retry never places a second order.
 */
export function SwapOrderForm({
  tradeIn,
  proof,
  onPlaced,
  onOutdated,
}: {
  tradeIn: TradeInView;
  proof: RequesterProof;
  onPlaced: (placed: PlacedOrder) => void;
  /** The product's price or the request changed meanwhile (409): the card loads it again. */
  onOutdated: () => void;
}) {
  const idPrefix = `swap-${tradeIn.reference}`;
  const form = useForm<CustomerInput, unknown, Customer>({
    // As the checkout: the form holds every field; the schema (a union on `delivery`) checks the address only for delivery.
    resolver: zodResolver(checkoutDetailsSchema) as unknown as Resolver<CustomerInput, unknown, Customer>,
    defaultValues: detailsFrom(tradeIn.contact),
    shouldFocusError: true,
  });
  const [message, setMessage] = useState('');
  const delivery = form.watch('delivery');
  const busy = form.formState.isSubmitting;
  const want = tradeIn.want;
  const price = want.kind === 'swap' ? want.price : null;
  const credit = tradeIn.offer?.amount ?? 0;
  const fee = deliveryFee(delivery);

  const place = form.handleSubmit(
    async (customer) => {
      setMessage('');
      if (isOffline()) {
        setMessage('You are offline. Placing the order needs a connection: try again when you are back online.');
        return;
      }
      const idempotencyKey = swapOrderKey(tradeIn.reference, JSON.stringify({ customer, price }));
      try {
        // The price shown: if the product's price moved since, the Worker refuses (409 price_changed) rather than charge another.
        const placed = await placeSwapOrder(tradeIn.reference, proof, { idempotencyKey, customer, price: price ?? undefined });
        finishSwapOrderAttempt();
        rememberOrder(placed.order.number, placed.order.customer.email);
        onPlaced(placed);
      } catch (error) {
        if (!(error instanceof ApiRequestError) || error.code === 'network' || error.status >= 500) {
          setMessage('We could not place your order just now. Please try again.');
          return;
        }
        if (error.code === 'idempotency_key_reused') finishSwapOrderAttempt();
        if (error.status === 400 && error.issues.length) {
          // The details' issues go onto their fields; anything else (the product, the request) is said here.
          setMessage(
            showServerIssues(form, error.issues, { prefix: 'customer.' })
              .map((i) => i.message)
              .join(' '),
          );
        } else if (error.status === 409) {
          setMessage(
            error.code === 'price_changed'
              ? 'The product’s price changed since you loaded this page. Check the new price above and place the order again.'
              : error.message,
          );
          onOutdated();
        } else {
          setMessage(error.message);
        }
      }
    },
    () => setMessage(''),
  );

  return (
    <form className="swap-order" onSubmit={place} noValidate aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`}>Place the swap order</h3>
      {want.kind === 'swap' && (
        <dl className="order-totals swap-order__sums">
          <div>
            <dt>
              {want.name}
              {want.variantLabel ? ` (${want.variantLabel})` : ''}
            </dt>
            <dd>{price === null ? 'No longer on sale' : formatNaira(price)}</dd>
          </div>
          <div>
            <dt>Trade-in credit ({tradeIn.reference})</dt>
            <dd>−{formatNaira(credit)}</dd>
          </div>
          <div>
            <dt>{delivery === 'pickup' ? 'Pick-up in Ikeja' : 'Delivery'}</dt>
            <dd>{fee === 0 ? 'Free' : formatNaira(fee)}</dd>
          </div>
          {price !== null && (
            <div className="order-totals__total">
              <dt>To pay</dt>
              <dd>{formatNaira(Math.max(0, price - credit + fee))}</dd>
            </div>
          )}
        </dl>
      )}
      <DeliveryChoice field={form.register('delivery')} block="swap-order" />
      {delivery === 'pickup' && (
        <div className="swap-order__pickup">
          <p>
            <strong>{PICKUP_POINT.name}</strong>, {PICKUP_POINT.address}
          </p>
          <p className="muted">Bring your device and your order number: we check the device and hand over your new one.</p>
        </div>
      )}
      <div className="trade-in-form__pair">
        <TextField form={form} name="name" id={`${idPrefix}-name`} label="Full name" autoComplete="name" required />
        <TextField
          form={form}
          name="phone"
          id={`${idPrefix}-phone`}
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
        />
      </div>
      <TextField
        form={form}
        name="email"
        id={`${idPrefix}-email`}
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
      />
      {delivery !== 'pickup' && (
        <>
          <TextField
            form={form}
            name="address"
            id={`${idPrefix}-address`}
            label="Delivery address"
            autoComplete="street-address"
            required
          />
          <div className="trade-in-form__pair">
            <TextField form={form} name="city" id={`${idPrefix}-city`} label="City" autoComplete="address-level2" required />
            <SelectField
              form={form}
              name="state"
              id={`${idPrefix}-state`}
              label="State"
              autoComplete="address-level1"
              required
              placeholder="Choose your state"
              choices={NIGERIAN_STATES}
            />
          </div>
        </>
      )}
      <p className="form-message" data-kind="error" role="alert">
        {message}
      </p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Placing your order…' : 'Place the swap order'}
      </button>
    </form>
  );
}
