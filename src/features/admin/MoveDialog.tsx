import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { notify } from '../toast/notify.browser.ts';
import { FormProblem } from './FormProblem.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { adminErrorMessage } from './use-admin.browser.ts';

/**
 * One move a detail screen offers on what it shows (D: an order's or a trade-in's detail): the
 * button, the dialog that confirms it, the request it sends and what it says once done. A table
 * of these (one per move, see OrderDetail.tsx and TradeInDetail.tsx) is all a screen writes;
 * MoveActions and MoveDialog do the rest the same way for every move.
 */
export interface Move<D, I extends FieldValues = FieldValues, O = I> {
  /** The button that opens the dialog ("Mark shipped"). */
  label(detail: D): string;
  /** The dialog's title, which names it ("Mark GTS-… as shipped"). */
  title(detail: D): string;
  /** The dialog's confirm button. */
  confirm: string;
  /** The dialog's close button, when "Cancel" would be confused with the move itself ("Keep the order"). */
  keep?: string;
  /** A move that ends something (cancel, close): its buttons are the danger ones. */
  danger?: boolean;
  /** The form's rules: the contract's body schema. */
  schema: z.ZodType<O, I>;
  /** The form's first values (the version the move is made against, a prefilled amount). */
  defaults(detail: D): DefaultValues<I>;
  /** What the dialog shows: what the move will do, and its fields (each with its own id). */
  body(form: UseFormReturn<I, unknown, O>, detail: D): ReactNode;
  /** Sends the move; answers the detail as it now is. */
  send(detail: D, values: O): Promise<D>;
  /** The toast once it is done ("GTS-… marked as shipped"). */
  done(detail: D): string;
}

/**
 * A move as its table holds it. `defineMove` checks each one against its own schema's types
 * (the form's fields, the values `send` gets); the table then holds them all as one type, which
 * TypeScript cannot prove of a form typed by another schema: hence the cast, and why a move is
 * only ever written through this function.
 */
export function defineMove<D, I extends FieldValues, O>(move: Move<D, I, O>): Move<D> {
  return move as unknown as Move<D>;
}

/** What a move (MoveActions) reports back to the screen that holds the detail. */
export interface MoveOutcome<D> {
  /** A move is done: `next` is the detail as it now is. */
  onMoved: (next: D) => void;
  /** A move was refused because the detail changed (a 409): the screen says so and loads it again. */
  onConflict: (message: string, code: string) => void;
}

interface MoveActionsProps<D, K extends string> extends MoveOutcome<D> {
  detail: D;
  /** The moves to offer now, in the order their buttons show. */
  allowed: readonly K[];
  /** Every move the screen knows. */
  moves: Record<K, Move<D>>;
  /** What shows when no move is allowed ("No further moves: the order is delivered."). */
  none: string;
  /** The status element that takes focus after a move (its button may be gone with the old status). */
  statusId: string;
  /** What the dialog says when a move fails for no reason it can name. */
  failed: string;
}

/**
 * A detail's moves: a button for each allowed one, its dialog once clicked, and the one focus
 * rule: after a move the status takes focus, in an effect, so after the dialog's own clean-up
 * has given focus back to its opener (a relabelled button such as Revise offer still is one).
 */
export function MoveActions<D, K extends string>({
  detail,
  allowed,
  moves,
  none,
  statusId,
  failed,
  onMoved,
  onConflict,
}: MoveActionsProps<D, K>) {
  const [open, setOpen] = useState<K | null>(null);
  const [done, setDone] = useState(0);
  useEffect(() => {
    if (done > 0) document.getElementById(statusId)?.focus();
  }, [done, statusId]);
  if (allowed.length === 0) return <p className="admin-note">{none}</p>;
  return (
    <section className="admin-actions" aria-label="Actions">
      {allowed.map((key) => (
        <button
          key={key}
          type="button"
          className={moves[key].danger ? 'btn btn-danger-outline' : 'btn btn-primary'}
          onClick={() => setOpen(key)}
        >
          {moves[key].label(detail)}
        </button>
      ))}
      {open && (
        <MoveDialog
          key={open}
          move={moves[open]}
          detail={detail}
          failed={failed}
          onClose={() => setOpen(null)}
          onMoved={(next, message) => {
            setOpen(null);
            onMoved(next);
            notify('success', message);
            setDone((n) => n + 1);
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

/**
 * One move's dialog: its form (the move's body, then the problem line), checked by the move's
 * schema; confirming sends it. A 409 closes it and goes to `onConflict`; field issues go onto
 * the fields; anything else shows in the dialog (useMoveErrors).
 */
export function MoveDialog<D>({
  move,
  detail,
  failed,
  onClose,
  onMoved,
  onConflict,
}: {
  move: Move<D>;
  detail: D;
  failed: string;
  onClose: () => void;
  onMoved: (next: D, message: string) => void;
  onConflict: (message: string, code: string) => void;
}) {
  const formId = useId();
  const form = useForm<FieldValues, unknown, FieldValues>({
    resolver: zodResolver(move.schema),
    defaultValues: move.defaults(detail),
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, failed);
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      onMoved(await move.send(detail, values), move.done(detail));
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      danger={move.danger}
      title={move.title(detail)}
      confirmLabel={move.confirm}
      closeLabel={move.keep}
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        {move.body(form, detail)}
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
}

/**
 * What a move's failure does (an order's or a trade-in's): a 409 hands its message to
 * `onConflict` (the screen reloads what it shows); field issues go onto the form's fields; the
 * rest is `problem`, for the dialog to show.
 */
function useMoveErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  onConflict: (message: string, code: string) => void,
  fallback: string,
) {
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (error: unknown) => {
    if (error instanceof ApiRequestError && error.status === 409) {
      onConflict(error.message, error.code);
      return;
    }
    if (error instanceof ApiRequestError && error.status === 400 && error.issues.length) {
      const rest = showServerIssues(form, error.issues);
      setProblem(rest.length ? rest.map((i) => i.message).join(' ') : null);
      return;
    }
    setProblem(adminErrorMessage(error, fallback));
  };
  return { problem, setProblem, fail };
}
