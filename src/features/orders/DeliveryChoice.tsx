import type { UseFormRegisterReturn } from 'react-hook-form';
import { formatNaira } from '../../lib/money.ts';
import { DELIVERY_LABELS, DELIVERY_METHODS, deliveryFee } from './delivery.ts';

/** "How do you want it?": delivery (with its fee) or pick-up at the Ikeja store, as radios of a form's `delivery` field. */
export function DeliveryChoice({ field, block }: { field: UseFormRegisterReturn<'delivery'>; block: string }) {
  return (
    <fieldset className={`${block}__delivery`}>
      <legend>How do you want it?</legend>
      {DELIVERY_METHODS.map((method) => (
        <label key={method} className={`${block}__choice`}>
          <input type="radio" value={method} {...field} />
          <span>
            <strong>{DELIVERY_LABELS[method]}</strong>
            <span className="muted">
              {method === 'delivery' ? ` · ${formatNaira(deliveryFee(method))}, anywhere in Nigeria` : ' · Free'}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
