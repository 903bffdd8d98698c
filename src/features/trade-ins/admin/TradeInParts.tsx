import { formatNaira } from '../../../lib/money.ts';
import { TRADE_IN_STATUS_LABELS, type TradeInStatus } from '../trade-in-status.ts';
import { TRADE_IN_TONES } from '../trade-in-text.ts';
import '../../orders/orders.css';

/** Pieces the trade-in list and detail share. */

/** The status in words, on the colour the shopper's pages give it (the words say it; the colour only repeats it). */
export function TradeInStatusBadge({ status }: { status: TradeInStatus }) {
  const tone = TRADE_IN_TONES[status];
  return (
    <span className={`status-badge status-badge--${tone}`} data-tone={tone}>
      {TRADE_IN_STATUS_LABELS[status]}
    </span>
  );
}

/**
 * A swap's difference (price − offer, kobo) as the admin reads it: what the shopper pays on
 * top of their device, or, below 0, what the store pays them.
 */
export function differenceWords(difference: number): string {
  if (difference < 0) return `${formatNaira(-difference)} to the shopper (the offer is above the price)`;
  return formatNaira(difference);
}
