import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useState,
} from 'react';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { showIssuesAtFields } from './form-issues.browser.ts';
import { adminErrorMessage } from './use-admin.browser.ts';

// ── Form controls for react-hook-form: label, control, the field's message tied to it ────────

type FormParts<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

function fieldError<T extends FieldValues>(form: FormParts<T>, name: Path<T>): string | undefined {
  const error: { message?: unknown; root?: { message?: unknown } } | undefined = get(form.formState.errors, name);
  const message = error?.message ?? error?.root?.message;
  return typeof message === 'string' && message ? message : undefined;
}

function describedBy(id: string, error: string | undefined, hint: string | undefined) {
  const ids = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

function Frame({
  id,
  label,
  error,
  hint,
  children,
  className = 'field',
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface ControlProps<T extends FieldValues> {
  form: FormParts<T>;
  name: Path<T>;
  id: string;
  label: string;
  hint?: string;
  /** register() options, e.g. `{ valueAsNumber: true }`. */
  options?: Parameters<UseFormReturn<T>['register']>[1];
}

export function FormInput<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  options,
  type = 'text',
  ...input
}: ControlProps<T> & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        className="input"
        id={id}
        type={type}
        {...input}
        {...form.register(name, options)}
        {...describedBy(id, error, hint)}
      />
    </Frame>
  );
}

export function FormTextarea<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  ...textarea
}: ControlProps<T> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea className="input" id={id} {...textarea} {...form.register(name)} {...describedBy(id, error, hint)} />
    </Frame>
  );
}

export function FormSelect<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  placeholder,
  choices,
  ...select
}: ControlProps<T> & {
  placeholder: string;
  choices: readonly { value: string; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select className="input" id={id} {...select} {...form.register(name)} {...describedBy(id, error, hint)}>
        <option value="">{placeholder}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function FormCheckbox<T extends FieldValues>({ form, name, id, label, hint }: ControlProps<T>) {
  const error = fieldError(form, name);
  return (
    <div className="admin-check">
      <input type="checkbox" id={id} {...form.register(name)} {...describedBy(id, error, hint)} />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

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
      const rest = showIssuesAtFields(form, error.issues);
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
