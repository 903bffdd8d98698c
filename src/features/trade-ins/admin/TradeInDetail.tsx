import type { ReactNode } from 'react';
import type { DefaultValues, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { formatNaira, nairaToKobo, plainNaira, typedAmount } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { categoryLabel } from '../../catalogue/categories.ts';
import { BATTERY_HEALTH_LABELS, CONDITION_QUESTIONS, type ConditionQuestion, type TradeInView } from '../trade-in.ts';
import {
  type AdminTradeInMove,
  ADMIN_TRADE_IN_MOVES,
  movesFrom,
  swapOrderRefusal,
  TRADE_IN_STATUS_LABELS,
} from '../trade-in-status.ts';
import { adminTradeInApi, type AdminTradeInDetail, moveTradeInSchema } from './admin-trade-in-api.ts';
import type { AdminRoute } from '../../admin/admin-route.ts';
import { AdminLink } from '../../admin/admin-router.tsx';
import { AuditTrail, StatusHistory } from '../../admin/History.tsx';
import { TextareaField, TextField } from '../../forms/Field.tsx';
import { DetailScreen } from '../../admin/DetailScreen.tsx';
import { defineMove, type Move, MoveActions, type MoveOutcome } from '../../admin/MoveDialog.tsx';
import { differenceWords, TradeInStatusBadge } from './TradeInParts.tsx';
import { adminCall } from '../../admin/use-admin.browser.ts';

const CHANGED = 'Another admin changed this request while you had it open. It has been reloaded: check it and try again.';

/** One trade-in request as staff see it: the device, its photos, the shopper, what they want, and the moves its status allows. */
export function TradeInDetail({ reference, back }: { reference: string; back: AdminRoute }) {
  return (
    <DetailScreen
      title={`Trade-in ${reference}`}
      what={`trade-in ${reference}`}
      back={back}
      backLabel="All trade-ins"
      load={(signal) => adminCall(adminTradeInApi.tradeIn, { params: { reference }, signal })}
      loadKey={`trade-in:${reference}`}
      conflict={(message, code) => (code === 'trade_in_changed' ? CHANGED : message)}
    >
      {(detail, outcome) => <TradeInDetailView detail={detail} outcome={outcome} />}
    </DetailScreen>
  );
}

const ACTOR_LABELS = { customer: 'The shopper', admin: 'An admin' } as const;
const yesNo = (answer: boolean) => (answer ? 'Yes' : 'No');

function TradeInDetailView({ detail, outcome }: { detail: AdminTradeInDetail; outcome: MoveOutcome<AdminTradeInDetail> }) {
  const t = detail.tradeIn;
  return (
    <div className="admin-order">
      <div className="admin-order__status" id="admin-trade-in-status" tabIndex={-1}>
        <TradeInStatusBadge status={t.status} />
        <span className="muted">
          Received <time dateTime={t.createdAt}>{formatLagosTime(t.createdAt)}</time>
        </span>
      </div>

      <MoveActions
        detail={detail}
        allowed={allowedMoves(t)}
        moves={TRADE_IN_MOVES}
        none={
          heldBySwapOrder(t).length > 0
            ? 'No move for now: the swap waits on its order.'
            : `No further moves: the request is ${TRADE_IN_STATUS_LABELS[t.status].toLowerCase()}.`
        }
        statusId="admin-trade-in-status"
        failed="The request could not be changed. Please try again."
        {...outcome}
      />
      {heldBySwapOrder(t).map((refusal) => (
        <p key={refusal.code} className="admin-note">
          {refusal.message}
        </p>
      ))}

      <div className="admin-order__grid admin-trade-in__grid">
        <section className="card admin-block" aria-labelledby="trade-in-want">
          <h3 id="trade-in-want">What they want</h3>
          <Want tradeIn={t} />
        </section>
        <section className="card admin-block" aria-labelledby="trade-in-contact">
          <h3 id="trade-in-contact">Contact</h3>
          <dl className="admin-facts">
            <dt>Name</dt>
            <dd>{t.contact.name}</dd>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${t.contact.phone}`}>{t.contact.phone}</a>
            </dd>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${t.contact.email}`}>{t.contact.email}</a>
            </dd>
            <dt>State</dt>
            <dd>{t.contact.state}</dd>
          </dl>
        </section>

        <section className="card admin-block" aria-labelledby="trade-in-photos">
          <h3 id="trade-in-photos">Photos ({detail.photos.length})</h3>
          <Photos photos={detail.photos} device={`${t.device.brand} ${t.device.model}`} />
        </section>

        <section className="card admin-block" aria-labelledby="trade-in-device">
          <h3 id="trade-in-device">Device</h3>
          <dl className="admin-facts">
            <dt>Kind</dt>
            <dd>{categoryLabel(t.device.category)}</dd>
            <dt>Brand</dt>
            <dd>{t.device.brand}</dd>
            <dt>Model</dt>
            <dd>{t.device.model}</dd>
            <dt>Storage</dt>
            <dd>{t.device.storage || '—'}</dd>
          </dl>
          <h3 id="trade-in-condition">Condition</h3>
          <dl className="admin-facts admin-facts--wide">
            {(Object.keys(CONDITION_QUESTIONS) as ConditionQuestion[]).map((key) => (
              <div key={key} className="admin-facts__pair">
                <dt>{CONDITION_QUESTIONS[key]}</dt>
                <dd>{yesNo(t.condition[key])}</dd>
              </div>
            ))}
            <div className="admin-facts__pair">
              <dt>Battery health</dt>
              <dd>{BATTERY_HEALTH_LABELS[t.condition.batteryHealth]}</dd>
            </div>
            <div className="admin-facts__pair">
              <dt>Notes</dt>
              <dd className="admin-prewrap">{t.condition.notes || '—'}</dd>
            </div>
          </dl>
        </section>
      </div>

      <StatusHistory entries={detail.history} labels={TRADE_IN_STATUS_LABELS} first="Received" actors={ACTOR_LABELS} />

      <AuditTrail entries={detail.audit} />
    </div>
  );
}

const PHOTO_TYPES: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function Photos({ photos, device }: { photos: AdminTradeInDetail['photos']; device: string }) {
  if (photos.length === 0) return <p>The shopper sent no photos.</p>;
  return (
    <ul className="admin-photos">
      {photos.map((photo, index) => (
        <li key={photo.url}>
          <a href={photo.url} target="_blank" rel="noopener">
            <img
              src={photo.url}
              alt={`${device}, ${index + 1} of ${photos.length}`}
              width={112}
              height={112}
              loading="lazy"
              decoding="async"
            />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <span className="admin-photos__meta muted">
            {PHOTO_TYPES[photo.contentType] ?? photo.contentType}, {fileSize(photo.bytes)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Want({ tradeIn: t }: { tradeIn: TradeInView }) {
  const want = t.want;
  return (
    <dl className="admin-facts">
      <dt>Wants</dt>
      {want.kind === 'cash' ? (
        <dd>Cash</dd>
      ) : (
        <dd>
          A swap for{' '}
          <strong>
            {want.name}
            {want.variantLabel && ` · ${want.variantLabel}`}
          </strong>
        </dd>
      )}
      {want.kind === 'swap' && (
        <>
          <dt>Price now</dt>
          <dd>{want.price === null ? 'No longer on sale' : formatNaira(want.price)}</dd>
        </>
      )}
      <dt>Offer</dt>
      <dd>{t.offer ? formatNaira(t.offer.amount) : 'No offer yet'}</dd>
      {t.offer && (
        <>
          <dt>Offered</dt>
          <dd>
            <time dateTime={t.offer.at}>{formatLagosTime(t.offer.at)}</time>
          </dd>
          <dt>Note to the shopper</dt>
          <dd className="admin-prewrap">{t.offer.note || '—'}</dd>
        </>
      )}
      {want.kind === 'swap' && t.difference !== null && (
        <>
          <dt>Difference to pay</dt>
          <dd>
            <strong>{differenceWords(t.difference)}</strong>
            <br />
            <span className="muted">The price now minus the offer.</span>
          </dd>
        </>
      )}
      {t.order && (
        <>
          <dt>Swap order</dt>
          <dd>
            <AdminLink to={{ tab: 'orders', order: t.order.number }}>{t.order.number}</AdminLink> ({t.order.status})
          </dd>
        </>
      )}
    </dl>
  );
}

// ── The moves ────────────────────────────────────────────────────────────────────────────────

type Detail = AdminTradeInDetail;
type MoveInput = z.input<typeof moveTradeInSchema>;
type MoveOutput = z.output<typeof moveTradeInSchema>;

/**
 * A trade-in move: every one sends the same body (moveTradeInSchema: the move, the version, a
 * note; an offer also its amount), so the table below gives only what differs.
 */
function tradeInMove(
  move: AdminTradeInMove,
  text: {
    label: (t: TradeInView) => string;
    title: (t: TradeInView) => string;
    confirm: string;
    note: string;
    noteHint: string;
    done: string;
    intro?: (t: TradeInView, form: UseFormReturn<MoveInput, unknown, MoveOutput>) => ReactNode;
  },
): Move<Detail> {
  return defineMove({
    label: ({ tradeIn }: Detail) => text.label(tradeIn),
    title: ({ tradeIn }: Detail) => text.title(tradeIn),
    confirm: text.confirm,
    danger: move === 'close',
    schema: moveTradeInSchema,
    defaults: ({ version, tradeIn }: Detail): DefaultValues<MoveInput> =>
      move === 'offer'
        ? { move, version, offerNaira: tradeIn.offer ? Number(plainNaira(tradeIn.offer.amount)) : undefined, note: '' }
        : { move, version, note: '' },
    body: (form, { tradeIn }: Detail) => (
      <>
        {text.intro?.(tradeIn, form)}
        <TextareaField
          form={form}
          name="note"
          id="trade-in-note"
          label={text.note}
          hint={text.noteHint}
          rows={3}
          required={move === 'close'}
        />
      </>
    ),
    send: ({ version, tradeIn }: Detail, values: MoveOutput) =>
      adminCall(adminTradeInApi.moveTradeIn, { params: { reference: tradeIn.reference }, body: { ...values, version } }),
    done: ({ tradeIn }: Detail) => `${tradeIn.reference}: ${text.done}`,
  });
}

/** The admin's moves on a trade-in request: each one's button, dialog, note field and what it tells the admin. */
const TRADE_IN_MOVES: Record<AdminTradeInMove, Move<Detail>> = {
  contact: tradeInMove('contact', {
    label: () => 'Mark contacted',
    title: (t) => `Mark ${t.reference} as contacted`,
    confirm: 'Mark contacted',
    note: 'Note (optional)',
    noteHint: 'The shopper sees this note in their e-mail and on their request’s page: how you reached them, what was agreed.',
    done: 'marked as contacted',
  }),
  offer: tradeInMove('offer', {
    label: (t) => (t.offer ? 'Revise offer' : 'Make offer'),
    title: (t) => (t.offer ? `Revise the offer for ${t.reference}` : `Make an offer for ${t.reference}`),
    confirm: 'Send offer',
    note: 'Note to the shopper (optional)',
    noteHint: 'The shopper sees it with the offer: what the amount allows for.',
    done: 'offer sent',
    intro: (t, form) => (
      <>
        {t.offer && (
          <p>
            The current offer is <strong>{formatNaira(t.offer.amount)}</strong>.
          </p>
        )}
        <TextField
          form={form}
          name="offerNaira"
          id="trade-in-offer"
          label="Offer (₦, naira)"
          inputMode="decimal"
          options={{ setValueAs: typedAmount }}
          required
        />
        {t.want.kind === 'swap' && <LiveDifference price={t.want.price} typed={form.watch('offerNaira')} />}
      </>
    ),
  }),
  complete: tradeInMove('complete', {
    label: () => 'Mark completed',
    title: (t) => `Complete ${t.reference}?`,
    confirm: 'Mark completed',
    note: 'Note (optional)',
    noteHint:
      'The shopper sees this note in their e-mail and on their request’s page: how the device was received and paid for or swapped.',
    done: 'completed',
    intro: (t) => (
      <p>
        {t.want.kind === 'swap'
          ? 'The device was received and the swap was handed over.'
          : 'The device was received and the shopper was paid for it.'}
      </p>
    ),
  }),
  close: tradeInMove('close', {
    label: () => 'Close request',
    title: (t) => `Close ${t.reference}?`,
    confirm: 'Close the request',
    note: 'Reason',
    noteHint: 'The shopper is told this reason.',
    done: 'closed',
    intro: () => <p>The request ends without a deal.</p>,
  }),
};

/**
 * The moves the request allows the admin now, in the order their buttons show: its status's, less
 * those a swap's order holds back (heldBySwapOrder() says why).
 */
function allowedMoves(t: TradeInView): AdminTradeInMove[] {
  const allowed = movesFrom(t.status, 'admin');
  return ADMIN_TRADE_IN_MOVES.filter((move) => allowed.includes(move) && !swapOrderRefusal(move, t.want.kind, t.order));
}

/** Why a move the status allows is held back by the swap's order (its credit lives there). */
function heldBySwapOrder(t: TradeInView) {
  const allowed = movesFrom(t.status, 'admin');
  return ADMIN_TRADE_IN_MOVES.flatMap((move) => {
    const refusal = allowed.includes(move) ? swapOrderRefusal(move, t.want.kind, t.order) : null;
    return refusal ? [refusal] : [];
  });
}

/** While an offer is typed for a swap: the product's price now, and what the shopper would pay on top. */
function LiveDifference({ price, typed }: { price: number | null; typed: unknown }) {
  if (price === null)
    return <p className="admin-note">The swap's product is no longer on sale: there is no price to set the offer against.</p>;
  const offer = typeof typed === 'number' && Number.isFinite(typed) && typed > 0 ? nairaToKobo(typed) : null;
  return (
    <div className="admin-difference">
      <p>
        The product's price now: <strong>{formatNaira(price)}</strong>
      </p>
      <p id="trade-in-difference" aria-live="polite">
        {offer === null ? (
          'Type the offer to see the difference to pay.'
        ) : (
          <>
            Difference to pay: <strong>{formatNaira(price - offer)}</strong>
            {offer >= price && ' (a swap’s offer must be below the product’s price)'}
          </>
        )}
      </p>
    </div>
  );
}
