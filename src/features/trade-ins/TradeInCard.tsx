import { type Ref, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { fetchOwnOrder } from '../orders/api-client.browser.ts';
import { ORDER_STATUSES, ORDER_WATCH_MS, ownAccount, statusText } from '../orders/order-status.ts';
import { useOrderWatch } from '../orders/use-order-watch.browser.ts';
import type { PlacedOrder } from '../orders/order-view.ts';
import { OrderPaymentInfo, PlacedOrderTotals } from '../orders/OrderParts.tsx';
import { type RequesterProof, respondToOffer } from './api-client.browser.ts';
import { SwapOrderForm } from './SwapOrderForm.tsx';
import type { TradeInView } from './trade-in.ts';
import { TRADE_IN_STATUS_LABELS, tradeInStatusText } from './trade-in-status.ts';
import { conditionSummary, deviceCategory, deviceTitle, TRADE_IN_TONES, wantText } from './trade-in-text.ts';
import './trade-ins.css';

type Notice = { kind: 'success' | 'error'; text: string } | null;

function orderStatusText(status: string): string {
  const known = ORDER_STATUSES.find((s) => s === status);
  return known ? statusText(known) : status;
}

function problemText(error: unknown): string {
  if (error instanceof ApiRequestError && error.code !== 'network' && error.status < 500) return error.message;
  return 'We could not reach the store just now. Please try again.';
}

/**
 * One trade-in request as its owner sees it (/sell-or-swap/status and /trade-ins): status,
 * device, condition, what they want, our offer (for a swap, the product's price now and the
 * difference), history; and what they can do: answer the offer, then place a swap's order.
 * `proof` is the e-mail a guest looked it up with (nothing when signed in as its owner).
 */
export default function TradeInCard({
  tradeIn,
  proof,
  onChange,
  reload,
  ref,
}: {
  tradeIn: TradeInView;
  proof: RequesterProof;
  onChange: (tradeIn: TradeInView) => void;
  /** Fetches the request again (after the offer changed under the shopper). */
  reload: () => Promise<TradeInView>;
  ref?: Ref<HTMLElement>;
}) {
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  /** Declining is final: asked once more, in place of the two buttons. */
  const [askingDecline, setAskingDecline] = useState(false);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  /** Set when an answer ends: the buttons are gone with it, so focus goes to what the notice says, once it shows. */
  const [answered, setAnswered] = useState(0);
  useEffect(() => {
    if (answered) noticeRef.current?.focus();
  }, [answered]);
  const declineRef = useRef<HTMLButtonElement>(null);
  const confirmDeclineRef = useRef<HTMLButtonElement>(null);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  const titleId = `trade-in-${tradeIn.reference}`;
  const { want, offer } = tradeIn;

  const respond = async (decision: 'accept' | 'decline') => {
    if (!offer) return;
    setBusy(decision);
    setNotice(null);
    try {
      onChange(await respondToOffer(tradeIn.reference, proof, decision, offer.amount));
      setNotice({
        kind: 'success',
        text:
          decision === 'decline'
            ? 'You declined our offer. We will not buy your device unless we agree on a new offer.'
            : want.kind === 'swap'
              ? 'You accepted our offer. Place the swap order below when you are ready.'
              : 'You accepted our offer. We will contact you to arrange the hand-over and the payment.',
      });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 409) {
        // The offer changed (or the request moved on) while the shopper looked at it: show it as it is now.
        const changed = error.code === 'offer_changed';
        try {
          onChange(await reload());
        } catch {
          // The old view stays; the message says what happened.
        }
        setNotice({
          kind: 'error',
          text: changed
            ? 'Our offer changed while you were looking at it. Please check the new offer below and answer again.'
            : error.message,
        });
      } else {
        setNotice({ kind: 'error', text: problemText(error) });
      }
    } finally {
      setBusy(null);
      setAskingDecline(false);
      setAnswered((n) => n + 1);
    }
  };

  // A transfer into the order's own account confirms itself: what arrived (a part, or all) shows here as it lands.
  useOrderWatch(
    placed?.order,
    async () => (await fetchOwnOrder(placed!.order.number, placed!.accessToken)).order,
    (order) => setPlaced((was) => (was && was.order.number === order.number ? { ...was, order } : was)),
    ORDER_WATCH_MS,
  );

  const orderPlaced = (result: PlacedOrder) => {
    setPlaced(result);
    setNotice(null);
    // The request now names its order; the placed order (with its bank details) stays shown.
    reload().then(onChange, () => undefined);
  };

  return (
    <article className="trade-in-card card" aria-labelledby={titleId} tabIndex={-1} ref={ref}>
      <header className="trade-in-card__head">
        <h2 id={titleId}>Trade-in {tradeIn.reference}</h2>
        <span
          className={`status-badge status-badge--${TRADE_IN_TONES[tradeIn.status]}`}
          data-tone={TRADE_IN_TONES[tradeIn.status]}
        >
          {TRADE_IN_STATUS_LABELS[tradeIn.status]}
        </span>
      </header>
      <p className="muted">
        Sent {formatLagosTime(tradeIn.createdAt)} · {tradeInStatusText(tradeIn.status, { capital: true })}
      </p>

      <section aria-labelledby={`${titleId}-offer`} className="trade-in-card__offer">
        <h3 id={`${titleId}-offer`}>Our offer</h3>
        {offer ? (
          <>
            <dl className="order-totals">
              {want.kind === 'swap' && (
                <div>
                  <dt>
                    {want.name}
                    {want.variantLabel ? ` (${want.variantLabel})` : ''}, price now
                  </dt>
                  <dd>{want.price === null ? 'No longer on sale' : formatNaira(want.price)}</dd>
                </div>
              )}
              <div className={want.kind === 'cash' ? 'order-totals__total' : ''}>
                <dt>{want.kind === 'swap' ? 'Our offer for your device' : 'We pay you'}</dt>
                <dd data-testid="trade-in-offer">{formatNaira(offer.amount)}</dd>
              </div>
              {want.kind === 'swap' && tradeIn.difference !== null && (
                <div className="order-totals__total">
                  <dt>{tradeIn.difference >= 0 ? 'You pay the difference' : 'We pay you the difference'}</dt>
                  <dd data-testid="trade-in-difference">{formatNaira(Math.abs(tradeIn.difference))}</dd>
                </div>
              )}
            </dl>
            {offer.note && <p className="trade-in-card__note">“{offer.note}”</p>}
            <p className="muted">Offered {formatLagosTime(offer.at)}</p>
          </>
        ) : (
          <p>We have not made an offer yet. We will look at your device’s details and contact you at {tradeIn.contact.email}.</p>
        )}
        {tradeIn.canRespond && offer && !askingDecline && (
          <div className="trade-in-card__actions">
            <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void respond('accept')}>
              {busy === 'accept' ? 'Accepting…' : 'Accept the offer'}
            </button>
            <button
              ref={declineRef}
              type="button"
              className="btn btn-outline"
              disabled={busy !== null}
              onClick={() => {
                setAskingDecline(true);
                requestAnimationFrame(() => confirmDeclineRef.current?.focus());
              }}
            >
              Decline the offer
            </button>
          </div>
        )}
        {tradeIn.canRespond && offer && askingDecline && (
          <fieldset className="trade-in-card__confirm">
            <legend>Decline our offer of {formatNaira(offer.amount)}?</legend>
            <p>We will not buy your device unless we agree on a new offer.</p>
            <div className="trade-in-card__actions">
              <button
                type="button"
                className="btn btn-outline"
                disabled={busy !== null}
                onClick={() => {
                  setAskingDecline(false);
                  requestAnimationFrame(() => declineRef.current?.focus());
                }}
              >
                Keep the offer
              </button>
              <button
                ref={confirmDeclineRef}
                type="button"
                className="btn btn-outline"
                disabled={busy !== null}
                onClick={() => void respond('decline')}
              >
                {busy === 'decline' ? 'Declining…' : 'Decline it'}
              </button>
            </div>
          </fieldset>
        )}
        <p className="trade-in-card__notice" role="status" data-kind={notice?.kind} ref={noticeRef} tabIndex={-1}>
          {notice?.text}
        </p>
      </section>

      {/* The order just placed, until the request (read again) says it ended: then the form, to order anew. */}
      {placed && (placed.order.number !== tradeIn.order?.number || !tradeIn.canOrder) ? (
        <section aria-labelledby={`${titleId}-placed`} className="trade-in-card__placed">
          <h3 id={`${titleId}-placed`}>Your swap order {placed.order.number}</h3>
          <p role="status">
            {placed.order.payment?.due ? (
              <>
                Order <strong>{placed.order.number}</strong> is placed. Transfer{' '}
                <strong>{formatNaira(placed.order.payment.amount)}</strong> to the account below with your order number as the
                reference.
              </>
            ) : placed.order.total === 0 ? (
              <>Your trade-in covers it: there is nothing to transfer.</>
            ) : (
              <>
                Order <strong>{placed.order.number}</strong>:{' '}
                {statusText(placed.order.status, { ownAccount: ownAccount(placed.order) })}.
              </>
            )}
          </p>
          <OrderPaymentInfo order={placed.order} className="trade-in-card__payment" />
          <PlacedOrderTotals order={placed.order} />
          <p>
            <a href={`/track?order=${encodeURIComponent(placed.order.number)}`}>
              Track order<span className="visually-hidden"> {placed.order.number}</span>
            </a>
          </p>
        </section>
      ) : tradeIn.order && !tradeIn.canOrder ? (
        <section aria-labelledby={`${titleId}-order`}>
          <h3 id={`${titleId}-order`}>Your swap order</h3>
          <p>
            Order <strong>{tradeIn.order.number}</strong> · {orderStatusText(tradeIn.order.status)} ·{' '}
            <a href={`/track?order=${encodeURIComponent(tradeIn.order.number)}`}>
              Track order<span className="visually-hidden"> {tradeIn.order.number}</span>
            </a>
          </p>
        </section>
      ) : tradeIn.canOrder ? (
        <>
          {tradeIn.order && (
            <p className="trade-in-card__earlier" data-testid="trade-in-earlier-order">
              Your swap order <strong>{tradeIn.order.number}</strong> was {orderStatusText(tradeIn.order.status)}: the credit is
              yours again, and you can order the swap once more below.
            </p>
          )}
          <SwapOrderForm
            tradeIn={tradeIn}
            proof={proof}
            onPlaced={orderPlaced}
            onOutdated={() => reload().then(onChange, () => undefined)}
          />
        </>
      ) : null}

      <section aria-labelledby={`${titleId}-device`}>
        <h3 id={`${titleId}-device`}>Your device</h3>
        <p>
          <strong>{deviceTitle(tradeIn.device)}</strong> <span className="muted">· {deviceCategory(tradeIn.device)}</span>
        </p>
        <dl className="trade-in-card__condition">
          {conditionSummary(tradeIn.condition).map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
        {tradeIn.condition.notes && <p className="trade-in-card__note">Your note: {tradeIn.condition.notes}</p>}
        <p className="muted">
          {tradeIn.photos === 0 ? 'No photos' : `${tradeIn.photos} ${tradeIn.photos === 1 ? 'photo' : 'photos'}`} sent
        </p>
      </section>

      <section aria-labelledby={`${titleId}-want`}>
        <h3 id={`${titleId}-want`}>What you want</h3>
        <p>{wantText(want)}</p>
        {want.kind === 'swap' && (
          <p className="muted">
            {want.price === null ? 'This product is no longer on sale.' : `Its price now: ${formatNaira(want.price)}`}
          </p>
        )}
      </section>

      <section aria-labelledby={`${titleId}-history`}>
        <h3 id={`${titleId}-history`}>History</h3>
        <ol className="trade-in-card__history">
          {tradeIn.history.map((h) => (
            <li key={`${h.status}-${h.at}`}>
              <span>{tradeInStatusText(h.status, { capital: true })}</span> <span className="muted">{formatLagosTime(h.at)}</span>
              {h.note && <span className="muted"> · {h.note}</span>}
            </li>
          ))}
        </ol>
      </section>
    </article>
  );
}
