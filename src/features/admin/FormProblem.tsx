import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { adminErrorMessage } from './use-admin.browser.ts';

/**
 * What a move's failure does (an order's or a trade-in's): a 409 hands its message to
 * `onConflict` (the screen reloads what it shows); field issues go onto the form's fields; the
 * rest is `problem`, for the dialog to show.
 */
export function useMoveErrors<T extends FieldValues>(
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

/** A message for the whole form (a refusal that names no field, a conflict). */
export function FormProblem({ text }: { text: string | null }) {
  return (
    <div className="admin-problem" role="alert">
      {text && <p>{text}</p>}
    </div>
  );
}
