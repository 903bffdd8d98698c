import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatNaira, nairaToKobo, plainNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { categoryLabel } from '../catalogue/categories.ts';
import { notify } from '../toast/notify.browser.ts';
import { BATTERY_HEALTH_LABELS, CONDITION_QUESTIONS, type ConditionQuestion, type TradeInView } from '../trade-ins/trade-in.ts';
import { type AdminTradeInMove, ADMIN_TRADE_IN_MOVES, movesFrom, TRADE_IN_STATUS_LABELS } from '../trade-ins/trade-in-status.ts';
import { type AdminTradeInDetail, adminApi, moveTradeInSchema } from './admin-api.ts';
import type { AdminRoute } from './admin-route.ts';
import { AdminLink, ScreenHeading } from './admin-router.tsx';
import { AuditTrail, StatusHistory } from './History.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { FormInput, FormProblem, FormTextarea, useMoveErrors } from './AdminFields.tsx';
import { LoadedView } from './AdminLoaded.tsx';
import { differenceWords, TradeInStatusBadge } from './TradeInParts.tsx';
import { adminCall, useAdminData } from './use-admin.browser.ts';

const CHANGED = 'Another admin changed this request while you had it open. It has been reloaded: check it and try again.';

/** One trade-in request as staff see it: the device, its photos, the shopper, what they want, and the moves its status allows. */
export function TradeInDetail({ reference, back }: { reference: string; back: AdminRoute }) {
  const { loaded, reload, set } = useAdminData(
    (signal) => adminCall(adminApi.tradeIn, { params: { reference }, signal }),
    `trade-in:${reference}`,
  );
  const [problem, setProblem] = useState<string | null>(null);
  // After a move, focus goes to the new status: in an effect, so after the dialog's own cleanup
  // has given focus back to its opener (which a relabelled button such as Revise offer still is).
  const [moves, setMoves] = useState(0);
  useEffect(() => {
    if (moves > 0) document.getElementById('admin-trade-in-status')?.focus();
  }, [moves]);
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <p>
        <AdminLink to={back} className="admin-back">
          <ArrowLeft size={18} aria-hidden="true" /> All trade-ins
        </AdminLink>
      </p>
      <ScreenHeading id="admin-screen-title">Trade-in {reference}</ScreenHeading>
      <FormProblem text={problem} />
      <LoadedView loaded={loaded} what={`trade-in ${reference}`} retry={reload}>
        {(detail) => (
          <TradeInDetailView
            detail={detail}
            onMoved={(next, message) => {
              setProblem(null);
              set(next);
              notify('success', message);
              setMoves((n) => n + 1);
            }}
            onConflict={(message, code) => {
              setProblem(code === 'trade_in_changed' ? CHANGED : message);
              reload();
            }}
          />
        )}
      </LoadedView>
    </section>
  );
}

interface MoveProps {
  detail: AdminTradeInDetail;
  onMoved: (detail: AdminTradeInDetail, message: string) => void;
  onConflict: (message: string, code: string) => void;
}

const ACTOR_LABELS = { customer: 'The shopper', admin: 'An admin' } as const;
const yesNo = (answer: boolean) => (answer ? 'Yes' : 'No');

function TradeInDetailView({ detail, onMoved, onConflict }: MoveProps) {
  const t = detail.tradeIn;
  return (
    <div className="admin-order">
      <div className="admin-order__status" id="admin-trade-in-status" tabIndex={-1}>
        <TradeInStatusBadge status={t.status} />
        <span className="muted">
          Received <time dateTime={t.createdAt}>{formatLagosTime(t.createdAt)}</time>
        </span>
      </div>

      <TradeInActions detail={detail} onMoved={onMoved} onConflict={onConflict} />

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

function TradeInActions({ detail, onMoved, onConflict }: MoveProps) {
  const [open, setOpen] = useState<AdminTradeInMove | null>(null);
  const t = detail.tradeIn;
  const allowed = movesFrom(t.status, 'admin');
  const moves = ADMIN_TRADE_IN_MOVES.filter((move) => allowed.includes(move));
  if (moves.length === 0)
    return <p className="admin-note">No further moves: the request is {TRADE_IN_STATUS_LABELS[t.status].toLowerCase()}.</p>;
  return (
    <section className="admin-actions" aria-label="Actions">
      {moves.map((move) => (
        <button
          key={move}
          type="button"
          className={move === 'close' ? 'btn btn-danger-outline' : 'btn btn-primary'}
          onClick={() => setOpen(move)}
        >
          {buttonLabel(move, t)}
        </button>
      ))}
      {open && (
        <MoveDialog
          key={open}
          move={open}
          detail={detail}
          onClose={() => setOpen(null)}
          onMoved={(next, message) => {
            setOpen(null);
            onMoved(next, message);
          }}
          onConflict={(message, code) => {
            setOpen(null);
            onConflict(message, code);
          }}
        />
      )}
    </section>
  );
}

function buttonLabel(move: AdminTradeInMove, t: TradeInView): string {
  switch (move) {
    case 'contact':
      return 'Mark contacted';
    case 'offer':
      return t.offer ? 'Revise offer' : 'Make offer';
    case 'complete':
      return 'Mark completed';
    case 'close':
      return 'Close request';
  }
}

/** Each move's dialog: its title, confirm button, note field and what it tells the admin. */
const DIALOGS: Record<
  AdminTradeInMove,
  { title: (ref: string, revise: boolean) => string; confirm: string; note: string; noteHint: string; done: string }
> = {
  contact: {
    title: (ref) => `Mark ${ref} as contacted`,
    confirm: 'Mark contacted',
    note: 'Note (optional)',
    noteHint: 'For the history: how you reached the shopper, what was said.',
    done: 'marked as contacted',
  },
  offer: {
    title: (ref, revise) => (revise ? `Revise the offer for ${ref}` : `Make an offer for ${ref}`),
    confirm: 'Send offer',
    note: 'Note to the shopper (optional)',
    noteHint: 'The shopper sees it with the offer: what the amount allows for.',
    done: 'offer sent',
  },
  complete: {
    title: (ref) => `Complete ${ref}?`,
    confirm: 'Mark completed',
    note: 'Note (optional)',
    noteHint: 'For the history: how the device was received and paid for or swapped.',
    done: 'completed',
  },
  close: {
    title: (ref) => `Close ${ref}?`,
    confirm: 'Close the request',
    note: 'Reason',
    noteHint: 'The shopper is told this reason.',
    done: 'closed',
  },
};

type MoveInput = z.input<typeof moveTradeInSchema>;
type MoveOutput = z.output<typeof moveTradeInSchema>;

function MoveDialog({ move, detail, onClose, onMoved, onConflict }: MoveProps & { move: AdminTradeInMove; onClose: () => void }) {
  const t = detail.tradeIn;
  const reference = t.reference;
  const text = DIALOGS[move];
  const formId = useId();
  const form = useForm<MoveInput, unknown, MoveOutput>({
    resolver: zodResolver(moveTradeInSchema),
    defaultValues:
      move === 'offer'
        ? { move, version: detail.version, offerNaira: t.offer ? Number(plainNaira(t.offer.amount)) : undefined, note: '' }
        : { move, version: detail.version, note: '' },
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, 'The request could not be changed. Please try again.');
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const next = await adminCall(adminApi.moveTradeIn, {
        params: { reference },
        body: { ...values, version: detail.version },
      });
      onMoved(next, `${reference}: ${text.done}`);
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      danger={move === 'close'}
      title={text.title(reference, t.offer !== null)}
      confirmLabel={text.confirm}
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        {move === 'complete' && <p>The device was received and the shopper paid (or the swap was handed over).</p>}
        {move === 'close' && <p>The request ends without a deal.</p>}
        {move === 'offer' && (
          <>
            {t.offer && (
              <p>
                The current offer is <strong>{formatNaira(t.offer.amount)}</strong>.
              </p>
            )}
            <FormInput
              form={form}
              name="offerNaira"
              id="trade-in-offer"
              label="Offer (₦, naira)"
              type="number"
              step="0.01"
              min="0"
              inputMode="decimal"
              options={{ valueAsNumber: true }}
              required
            />
            {t.want.kind === 'swap' && <LiveDifference price={t.want.price} typed={form.watch('offerNaira')} />}
          </>
        )}
        <FormTextarea
          form={form}
          name="note"
          id="trade-in-note"
          label={text.note}
          hint={text.noteHint}
          rows={3}
          required={move === 'close'}
        />
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
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
